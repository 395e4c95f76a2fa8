/// A distribution defined by data: observed samples, or points of a cumulative distribution.
///
/// Both forms are sampled by inverting a piecewise-linear CDF, so values vary continuously between
/// the given points and never leave their range.
///
///     // Delays that developers reported between earliestBeginDate and launch, in minutes:
///     let delays = EmpiricalDistribution(samples: [3, 9, 15, 22, 40, 95, 180])
///
///     // Or a CDF: 50 % of launches within 20 minutes, 90 % within 2 hours, all within 8.
///     let delays2 = EmpiricalDistribution(cdf: [(0, 0), (20, 0.5), (120, 0.9), (480, 1)])
public struct EmpiricalDistribution: RandomDistribution, Sendable, Hashable {
    /// The CDF's points: values ascending, probabilities non-decreasing from ≥ 0 up to exactly 1.
    public let values: [Double]
    /// The cumulative probability at each of ``values``.
    public let cumulativeProbabilities: [Double]

    /// Creates the distribution that interpolates linearly between the sorted samples.
    ///
    /// Sorted sample i (of n) sits at cumulative probability i / (n − 1), so the smallest and
    /// largest samples are the bounds. A single sample gives a point mass.
    ///
    /// - Precondition: at least one sample; all finite.
    public init(samples: [Double]) {
        precondition(!samples.isEmpty, "EmpiricalDistribution: needs at least one sample")
        precondition(samples.allSatisfy(\.isFinite), "EmpiricalDistribution: samples must be finite")
        let sorted = samples.sorted()
        if sorted.count == 1 {
            values = sorted
            cumulativeProbabilities = [1]
            return
        }
        let last = Double(sorted.count - 1)
        values = sorted
        cumulativeProbabilities = sorted.indices.map { Double($0) / last }
    }

    /// Creates the distribution with the given CDF points, linear between them.
    ///
    /// A first probability above 0 puts that much probability on the first value exactly.
    ///
    /// - Precondition: at least one point; values finite and strictly ascending; probabilities
    ///   non-decreasing, within 0...1, the last exactly 1.
    public init(cdf points: [(value: Double, cumulativeProbability: Double)]) {
        precondition(!points.isEmpty, "EmpiricalDistribution: needs at least one CDF point")
        for (index, point) in points.enumerated() {
            precondition(point.value.isFinite, "EmpiricalDistribution: CDF value \(index) is not finite")
            precondition(
                point.cumulativeProbability >= 0 && point.cumulativeProbability <= 1,
                "EmpiricalDistribution: CDF probability \(index) is outside 0...1"
            )
            if index > 0 {
                precondition(point.value > points[index - 1].value, "EmpiricalDistribution: CDF values must ascend strictly")
                precondition(
                    point.cumulativeProbability >= points[index - 1].cumulativeProbability,
                    "EmpiricalDistribution: CDF probabilities must not decrease"
                )
            }
        }
        precondition(points[points.count - 1].cumulativeProbability == 1, "EmpiricalDistribution: the last CDF probability must be 1")
        values = points.map(\.value)
        cumulativeProbabilities = points.map(\.cumulativeProbability)
    }

    /// The value below which a fraction `p` of the distribution lies.
    ///
    /// - Parameter p: A probability; values outside `0...1` are clamped.
    @inlinable
    public func quantile(_ p: Double) -> Double {
        if p <= cumulativeProbabilities[0] { return values[0] }
        // First index whose cumulative probability reaches p.
        var low = 1
        var high = cumulativeProbabilities.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulativeProbabilities[middle] >= p {
                high = middle
            } else {
                low = middle + 1
            }
        }
        let p0 = cumulativeProbabilities[low - 1]
        let p1 = cumulativeProbabilities[low]
        let v0 = values[low - 1]
        let v1 = values[low]
        guard p1 > p0 else { return v1 }
        return v0 + (v1 - v0) * ((p - p0) / (p1 - p0))
    }

    @inlinable
    public func sample(using stream: inout RandomStream) -> Double {
        quantile(stream.unit())
    }
}
