/// The Bernoulli distribution: `true` with a given probability.
///
/// For an exact rational probability, use ``RandomStream/chance(_:outOf:)`` instead.
public struct BernoulliDistribution: RandomDistribution, Sendable, Hashable {
    /// The probability of `true`.
    public let probability: Double

    /// Creates a Bernoulli distribution.
    ///
    /// - Precondition: `0 <= probability <= 1`.
    public init(probability: Double) {
        precondition(probability >= 0 && probability <= 1, "BernoulliDistribution: probability must be in 0...1, got \(probability)")
        self.probability = probability
    }

    @inlinable
    public func sample(using stream: inout RandomStream) -> Bool {
        stream.chance(probability)
    }
}
