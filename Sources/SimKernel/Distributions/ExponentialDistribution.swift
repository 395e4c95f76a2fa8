/// The exponential distribution: waiting times between events of a Poisson process.
///
/// Sampled by inversion, `-mean × log(U)` with `U` uniform in `(0, 1]`, so values lie in
/// `[0, 36.74 × mean]`.
public struct ExponentialDistribution: RandomDistribution, Sendable, Hashable {
    /// The mean (and standard deviation).
    public let mean: Double

    /// Creates an exponential distribution with the given mean.
    ///
    /// - Precondition: `mean` is positive and finite.
    public init(mean: Double) {
        precondition(mean > 0 && mean.isFinite, "ExponentialDistribution: mean must be positive and finite, got \(mean)")
        self.mean = mean
    }

    /// Creates an exponential distribution with the given rate (events per unit of time).
    public init(rate: Double) {
        precondition(rate > 0 && rate.isFinite, "ExponentialDistribution: rate must be positive and finite, got \(rate)")
        self.init(mean: 1 / rate)
    }

    @inlinable
    public func sample(using stream: inout RandomStream) -> Double {
        // 1 - unit() lies in (0, 1], so the logarithm is finite.
        -mean * PortableMath.log(1 - stream.unit())
    }
}
