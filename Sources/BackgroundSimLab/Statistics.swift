/// Summary statistics of a sample: mean, standard deviation, a 95 % confidence interval for the
/// mean (Student's t), and quantiles.
public struct SampleSummary: Sendable, Equatable {
    public var count: Int
    public var mean: Double
    /// Sample standard deviation (n − 1 in the denominator); 0 for fewer than two values.
    public var standardDeviation: Double
    /// Half-width of the 95 % confidence interval for the mean; 0 for fewer than two values.
    public var halfWidth95: Double
    /// 10th, 50th and 90th percentiles (linear interpolation between order statistics).
    public var p10: Double
    public var median: Double
    public var p90: Double

    public init(_ values: [Double]) {
        count = values.count
        guard !values.isEmpty else {
            self.mean = 0; standardDeviation = 0; halfWidth95 = 0; p10 = 0; median = 0; p90 = 0
            return
        }
        let mean = values.reduce(0, +) / Double(values.count)
        self.mean = mean
        if values.count > 1 {
            let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
            standardDeviation = variance.squareRoot()
            halfWidth95 = StudentT.quantile975(degreesOfFreedom: values.count - 1) * standardDeviation / Double(values.count).squareRoot()
        } else {
            standardDeviation = 0
            halfWidth95 = 0
        }
        let sorted = values.sorted()
        func quantile(_ q: Double) -> Double {
            let position = q * Double(sorted.count - 1)
            let low = Int(position)
            let high = Swift.min(low + 1, sorted.count - 1)
            return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
        }
        p10 = quantile(0.1)
        median = quantile(0.5)
        p90 = quantile(0.9)
    }

    /// The 95 % confidence interval for the mean.
    public var interval95: ClosedRange<Double> { (mean - halfWidth95)...(mean + halfWidth95) }
}
