/// The continuous uniform distribution on `[lowerBound, upperBound)`.
public struct UniformDistribution: RandomDistribution, Sendable, Hashable {
    /// The smallest value.
    public let lowerBound: Double
    /// The bound that values stay below (equal to ``lowerBound`` for a point mass).
    public let upperBound: Double

    /// Creates a uniform distribution on `lowerBound ..< upperBound`.
    ///
    /// - Precondition: both bounds are finite and `lowerBound <= upperBound`.
    public init(_ lowerBound: Double, _ upperBound: Double) {
        precondition(
            lowerBound.isFinite && upperBound.isFinite && lowerBound <= upperBound,
            "UniformDistribution: need finite bounds with lower <= upper, got \(lowerBound) and \(upperBound)"
        )
        self.lowerBound = lowerBound
        self.upperBound = upperBound
    }

    @inlinable
    public func sample(using stream: inout RandomStream) -> Double {
        lowerBound + (upperBound - lowerBound) * stream.unit()
    }
}
