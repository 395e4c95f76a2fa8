/// The gamma distribution with a shape and a scale (mean `shape × scale`).
///
/// Sampled by Marsaglia and Tsang's method ("A simple method for generating gamma variables",
/// ACM TOMS 26(3), 2000), which accepts more than 95 % of proposals for shape ≥ 1; shape below 1
/// uses the boost `Gamma(a) = Gamma(a + 1) × U^(1/a)`.
public struct GammaDistribution: RandomDistribution, Sendable, Hashable {
    /// The shape parameter k.
    public let shape: Double
    /// The scale parameter θ, in the unit of the values.
    public let scale: Double

    /// Creates a gamma distribution.
    ///
    /// - Precondition: `shape` and `scale` are positive and finite.
    public init(shape: Double, scale: Double) {
        precondition(shape > 0 && shape.isFinite, "GammaDistribution: shape must be positive and finite, got \(shape)")
        precondition(scale > 0 && scale.isFinite, "GammaDistribution: scale must be positive and finite, got \(scale)")
        self.shape = shape
        self.scale = scale
    }

    /// The mean, `shape × scale`.
    public var mean: Double { shape * scale }

    /// Proposals after which a sample gives up; at an acceptance rate above 95 %, reaching it has
    /// probability below 10⁻¹⁰⁰⁰.
    @usableFromInline static var maximumProposals: Int { 1_000 }

    @inlinable
    public func sample(using stream: inout RandomStream) -> Double {
        if shape < 1 {
            let boosted = GammaDistribution(shape: shape + 1, scale: scale).sample(using: &stream)
            return boosted * PortableMath.exp(PortableMath.log(stream.openUnit()) / shape)
        }
        let d = shape - 1.0 / 3.0
        let c = 1.0 / (9.0 * d).squareRoot()
        for _ in 0..<Self.maximumProposals {
            let x = NormalDistribution.standardQuantile(stream.openUnit())
            var v = 1 + c * x
            guard v > 0 else { continue }
            v = v * v * v
            let u = stream.openUnit()
            let xSquared = x * x
            if u < 1 - 0.0331 * xSquared * xSquared
                || PortableMath.log(u) < 0.5 * xSquared + d * (1 - v + PortableMath.log(v)) {
                return d * v * scale
            }
        }
        preconditionFailure("GammaDistribution: no proposal accepted in \(Self.maximumProposals) tries")
    }
}
