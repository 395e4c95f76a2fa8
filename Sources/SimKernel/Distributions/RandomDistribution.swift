/// A probability distribution that draws its values from a ``RandomStream``.
///
/// Every distribution in the kernel is a small value type whose parameters are checked when it is
/// created, and whose ``sample(using:)`` uses portable arithmetic only (see ``PortableMath``), so
/// a stream gives the same values on every platform. Most use one uniform draw per sample
/// (inverse transform); ``GammaDistribution`` and ``TruncatedDistribution`` use rejection and may
/// draw several.
///
///     let sessionLength = LogNormalDistribution(median: 60, sigma: 1.6)   // seconds
///     let seconds = sessionLength.sample(using: &stream)
public protocol RandomDistribution<Value> {
    /// The type of value drawn.
    associatedtype Value

    /// Draws one value.
    func sample(using stream: inout RandomStream) -> Value
}

extension RandomStream {
    /// Draws one value from `distribution`; the same as `distribution.sample(using: &self)`.
    @inlinable
    public mutating func draw<D: RandomDistribution>(_ distribution: D) -> D.Value {
        distribution.sample(using: &self)
    }
}
