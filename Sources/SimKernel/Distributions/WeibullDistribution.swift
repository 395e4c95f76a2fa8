/// The Weibull distribution, `scale × (−log U)^(1/shape)`.
///
/// Shape below 1 gives a falling hazard (most failures early), 1 is exponential, above 1 a rising
/// hazard (wear-out). Sampled by inversion.
public struct WeibullDistribution: RandomDistribution, Sendable, Hashable {
    /// The shape parameter k.
    public let shape: Double
    /// The scale parameter λ, in the unit of the values.
    public let scale: Double

    /// Creates a Weibull distribution.
    ///
    /// - Precondition: `shape` and `scale` are positive and finite.
    public init(shape: Double, scale: Double) {
        precondition(shape > 0 && shape.isFinite, "WeibullDistribution: shape must be positive and finite, got \(shape)")
        precondition(scale > 0 && scale.isFinite, "WeibullDistribution: scale must be positive and finite, got \(scale)")
        self.shape = shape
        self.scale = scale
    }

    @inlinable
    public func sample(using stream: inout RandomStream) -> Double {
        let exponential = -PortableMath.log(1 - stream.unit())
        if exponential == 0 { return 0 }
        return scale * PortableMath.exp(PortableMath.log(exponential) / shape)
    }
}
