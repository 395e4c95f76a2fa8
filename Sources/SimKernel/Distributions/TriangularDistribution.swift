/// The triangular distribution: a minimum, a most likely value and a maximum.
///
/// Useful where a source gives a range and a typical value but no shape ("plug in around 23:00,
/// between 21:00 and 01:00"). Sampled by inversion.
public struct TriangularDistribution: RandomDistribution, Sendable, Hashable {
    /// The smallest value.
    public let lowerBound: Double
    /// The most likely value.
    public let mode: Double
    /// The largest value.
    public let upperBound: Double

    /// Creates a triangular distribution.
    ///
    /// - Precondition: all finite, `lowerBound <= mode <= upperBound`, `lowerBound < upperBound`.
    public init(lowerBound: Double, mode: Double, upperBound: Double) {
        precondition(
            lowerBound.isFinite && mode.isFinite && upperBound.isFinite
                && lowerBound <= mode && mode <= upperBound && lowerBound < upperBound,
            "TriangularDistribution: need lower <= mode <= upper with lower < upper, got \(lowerBound), \(mode), \(upperBound)"
        )
        self.lowerBound = lowerBound
        self.mode = mode
        self.upperBound = upperBound
    }

    /// The mean, `(lower + mode + upper) / 3`.
    public var mean: Double { (lowerBound + mode + upperBound) / 3 }

    @inlinable
    public func sample(using stream: inout RandomStream) -> Double {
        let u = stream.unit()
        let width = upperBound - lowerBound
        let split = (mode - lowerBound) / width
        if u < split {
            return lowerBound + (u * width * (mode - lowerBound)).squareRoot()
        }
        return upperBound - ((1 - u) * width * (upperBound - mode)).squareRoot()
    }
}
