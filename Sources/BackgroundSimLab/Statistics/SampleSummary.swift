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
        p10 = Quantile.interpolated(sorted, 0.1)!
        median = Quantile.interpolated(sorted, 0.5)!
        p90 = Quantile.interpolated(sorted, 0.9)!
    }

    /// The one-sided confidence limit of the mean of `values` at error `level`, upper or lower:
    /// x̄ ± (t + δ) s/√n, Student's t with n − 1 degrees of freedom widened by the skewness
    /// allowance δ at `level` (``SkewnessAllowance``); `nil` for fewer than two values. With no spread, the
    /// mean itself. `quantiles` caches t by degrees of freedom for one `level`.
    static func confidenceLimit(_ values: [Double], level: Double, upper: Bool, quantiles: inout [Int: Double]) -> Double? {
        guard values.count >= 2 else { return nil }
        let summary = SampleSummary(values)
        let df = values.count - 1
        let t = quantiles[df] ?? StudentT.quantile(1 - level, degreesOfFreedom: Double(df))
        quantiles[df] = t
        let width = (t + SkewnessAllowance.shift(count: values.count, level: level)) * summary.standardDeviation / Double(values.count).squareRoot()
        return upper ? summary.mean + width : summary.mean - width
    }

    /// ``confidenceLimit(_:level:upper:quantiles:)`` without a cache.
    static func confidenceLimit(_ values: [Double], level: Double, upper: Bool) -> Double? {
        var quantiles: [Int: Double] = [:]
        return confidenceLimit(values, level: level, upper: upper, quantiles: &quantiles)
    }

    /// The 95 % confidence interval for the mean.
    public var interval95: ClosedRange<Double> { (mean - halfWidth95)...(mean + halfWidth95) }
}
