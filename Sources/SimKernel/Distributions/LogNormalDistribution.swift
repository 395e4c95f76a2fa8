/// The log-normal distribution: a variable whose logarithm is normal.
///
/// The usual model for durations that are mostly short with a long tail, such as phone sessions
/// (the device model's default: median 60 s, σ = 1.6).
///
///     let sessions = LogNormalDistribution(median: 60, sigma: 1.6)
///     sessions.mean   // ≈ 215 s
public struct LogNormalDistribution: RandomDistribution, Sendable, Hashable {
    /// The mean of the logarithm, μ.
    public let mu: Double
    /// The standard deviation of the logarithm, σ.
    public let sigma: Double

    /// Creates a log-normal distribution from the parameters of its logarithm.
    ///
    /// - Precondition: `mu` is finite; `sigma` is non-negative and finite.
    public init(mu: Double, sigma: Double) {
        precondition(mu.isFinite, "LogNormalDistribution: mu must be finite, got \(mu)")
        precondition(sigma >= 0 && sigma.isFinite, "LogNormalDistribution: sigma must be non-negative and finite, got \(sigma)")
        self.mu = mu
        self.sigma = sigma
    }

    /// Creates a log-normal distribution with the given median, `e^μ`.
    ///
    /// - Precondition: `median` is positive and finite.
    public init(median: Double, sigma: Double) {
        precondition(median > 0 && median.isFinite, "LogNormalDistribution: median must be positive and finite, got \(median)")
        self.init(mu: PortableMath.log(median), sigma: sigma)
    }

    /// The median, `e^μ`.
    public var median: Double { PortableMath.exp(mu) }

    /// The mean, `e^(μ + σ²/2)`.
    public var mean: Double { PortableMath.exp(mu + sigma * sigma / 2) }

    @inlinable
    public func sample(using stream: inout RandomStream) -> Double {
        PortableMath.exp(mu + sigma * NormalDistribution.standardQuantile(stream.openUnit()))
    }
}
