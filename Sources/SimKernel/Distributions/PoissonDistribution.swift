/// The Poisson distribution: how many events of a Poisson process fall in an interval.
///
/// Sampled by inversion (sequential search of the CDF), one uniform draw per chunk of mean at most
/// 30, summing the chunks: a sum of independent Poisson counts is Poisson, and chunking keeps
/// `exp(−mean)` far from underflow. Cost grows with the mean, which suits the small means of
/// daily counts (top-ups, clock jumps, app sessions).
public struct PoissonDistribution: RandomDistribution, Sendable, Hashable {
    /// The mean (and variance).
    public let mean: Double

    /// Creates a Poisson distribution.
    ///
    /// - Precondition: `mean` is non-negative and at most 10⁷.
    public init(mean: Double) {
        precondition(mean >= 0 && mean <= 1e7, "PoissonDistribution: mean must be in 0...1e7, got \(mean)")
        self.mean = mean
    }

    /// The largest mean of one inversion chunk.
    @usableFromInline static var chunkMean: Double { 30 }

    @inlinable
    public func sample(using stream: inout RandomStream) -> Int {
        var remaining = mean
        var total = 0
        while remaining > 0 {
            let chunk = Swift.min(remaining, Self.chunkMean)
            remaining -= chunk
            let u = stream.unit()
            var probability = PortableMath.exp(-chunk)
            var cumulative = probability
            var count = 0
            // P(count > 400) for a mean of 30 is far below 2⁻⁵³, so the bound never binds.
            while u >= cumulative && count < 400 {
                count += 1
                probability *= chunk / Double(count)
                cumulative += probability
            }
            total += count
        }
        return total
    }
}
