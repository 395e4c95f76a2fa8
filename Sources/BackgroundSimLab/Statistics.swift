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

/// Student's t distribution: the two-sided 95 % critical value.
public enum StudentT {
    /// t₀.₉₇₅ for 1 … 30 degrees of freedom (standard tables, to 6 decimals).
    static let table: [Double] = [
        12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
        2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
        2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272,
    ]

    /// The value t such that P(|T| ≤ t) = 0.95 with `degreesOfFreedom` degrees of freedom.
    ///
    /// Exact (to 6 decimals) up to 30; beyond, the Cornish–Fisher expansion around the normal
    /// quantile 1.959964, accurate to about 1e-5 there.
    public static func quantile975(degreesOfFreedom df: Int) -> Double {
        precondition(df >= 1, "StudentT: degrees of freedom must be at least 1")
        if df <= table.count { return table[df - 1] }
        let z = 1.959_963_984_540_054
        let n = Double(df)
        let z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z
        return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n)
            + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * n * n * n)
    }
}
