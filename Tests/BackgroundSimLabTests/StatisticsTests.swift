@testable import BackgroundSimLab
import SimKernel
import Testing

// Each statistics routine against reference values from an implementation independent of ours:
// SciPy 1.17 (`scipy.stats.t`, `scipy.special.betainc`) and NumPy 2.4 (`numpy.quantile`), or a
// hand calculation given beside the check.
@Suite("Statistics, routine by routine")
struct StatisticsTests {
    @Test("t₀.₉₇₅ is the t distribution's 0.975 quantile: the standard table to 6 decimals, and SciPy beyond it",
          arguments: [(1, 12.706205), (2, 4.302653), (9, 2.262157), (30, 2.042272), (31, 2.039513), (100, 1.983972), (1_000, 1.962339)])
    func quantile975(df: Int, expected: Double) {
        #expect(abs(StudentT.quantile975(degreesOfFreedom: df) - expected) < 1e-6)
    }

    @Test("the regularised incomplete beta function matches SciPy's betainc")
    func incompleteBeta() {
        #expect(abs(IncompleteBeta.regularized(0.3, 2.5, 0.5) - 0.018927124071945658) < 1e-12)
        #expect(abs(IncompleteBeta.regularized(0.7, 10, 3) - 0.25281534785499993) < 1e-12)
        #expect(abs(IncompleteBeta.regularized(0.99, 0.5, 0.5) - 0.9362314391414803) < 1e-12)
        #expect(IncompleteBeta.regularized(0, 2, 3) == 0 && IncompleteBeta.regularized(1, 2, 3) == 1)
    }

    @Test("the two-sided p-value of a t statistic matches SciPy, fractional degrees of freedom included")
    func twoSidedPValue() {
        #expect(abs(StudentT.twoSidedPValue(2.5, degreesOfFreedom: 12.3) - 0.027492775039948656) < 1e-12)
        #expect(StudentT.twoSidedPValue(-2.5, degreesOfFreedom: 12.3) == StudentT.twoSidedPValue(2.5, degreesOfFreedom: 12.3))
        #expect(StudentT.twoSidedPValue(0, degreesOfFreedom: 5) == 1)
    }

    @Test("TOST's p-value is the larger one-sided p-value with the skewness allowance: mean 0.1, se 0.5, 10 values, margin 1")
    func tost() {
        // SciPy (an independent implementation): the smallest α with
        // t.sf(x − δ(10, α), 9) ≤ α, δ(n, α) = 3 (2 norm.ppf(1 − α)² + 1) / (6 √n), solved by
        // brentq on log₁₀ α: 0.08844825181579825 for x = 2.2, 0.12568463083014583 for x = 1.8.
        #expect(abs(TOST.pValue(mean: 0.1, standardError: 0.5, degreesOfFreedom: 9, margin: 1, count: 10) - 0.12568463083014583) < 1e-9)
        // A difference far from zero is not shown within a margin it lies beyond.
        #expect(TOST.pValue(mean: 3, standardError: 0.5, degreesOfFreedom: 9, margin: 1, count: 10) > 0.99)
    }

    @Test("the skewness allowance matches SciPy: δ(10, 0.05) and δ(100, 0.05); none below two values")
    func skewnessAllowance() {
        // SciPy: 3 (2 norm.ppf(0.95)² + 1) / (6 √n).
        #expect(abs(SkewnessAllowance.shift(count: 10, level: 0.05) - 1.0136818453584908) < 1e-9)
        #expect(abs(SkewnessAllowance.shift(count: 100, level: 0.05) - 0.3205543454095413) < 1e-9)
        #expect(SkewnessAllowance.shift(count: 10, level: 0.7) == SkewnessAllowance.shift(count: 10, level: 0.5))
        #expect(SkewnessAllowance.shift(count: 1, level: 0.05) == 0)
    }

    @Test("interpolated quantiles match NumPy's default (definition 7); the ends are the extremes")
    func quantiles() {
        let sample = [1.0, 2, 3, 4]
        #expect(Quantile.interpolated(sample, 0.25) == 1.75)
        #expect(Quantile.interpolated(sample, 0.5) == 2.5)
        #expect(abs(Quantile.interpolated(sample, 0.9)! - 3.7) < 1e-12)
        #expect(Quantile.interpolated(sample, 0) == 1 && Quantile.interpolated(sample, 1) == 4)
        #expect(Quantile.interpolated([5], 0.3) == 5)
        #expect(Quantile.interpolated([], 0.5) == nil)
    }

    @Test("a quantile by selection is exactly the sorted one: samples of 1 to 400 values, few or many distinct, in any order")
    func quantilesBySelection() {
        var random = RandomStream(seed: 7, label: StreamLabel("test.quantile-selection"))
        for size in [1, 2, 3, 10, 57, 400] {
            for distinct in [1, 3, 1_000] {
                let sample = (0..<size).map { _ in Double(random.next() % UInt64(distinct)) * 1.5 }
                let sorted = sample.sorted()
                for q in [0, 0.1, 0.5, 0.9, 0.975, 1] {
                    var scratch = sample
                    #expect(Quantile.interpolated(selectingFrom: &scratch, q) == Quantile.interpolated(sorted, q))
                    #expect(scratch.sorted() == sorted)
                }
            }
        }
        var empty: [Double] = []
        #expect(Quantile.interpolated(selectingFrom: &empty, 0.5) == nil)
    }

    @Test("a summary's standard deviation and interval by hand: 2, 4, 4, 4, 5, 5, 7, 9")
    func sampleSummary() {
        let summary = SampleSummary([2, 4, 4, 4, 5, 5, 7, 9])
        // Mean 5; squared deviations sum to 32, over 7: s = √(32/7); half-width t₀.₉₇₅(7) · s / √8.
        #expect(summary.mean == 5)
        #expect(abs(summary.standardDeviation - (32.0 / 7).squareRoot()) < 1e-12)
        #expect(abs(summary.halfWidth95 - 2.364624251592784 * (32.0 / 7).squareRoot() / 8.0.squareRoot()) < 1e-9)
        #expect(summary.median == 4.5)
    }

    @Test("a bootstrap resample draws each unit with replacement from its stream, the same way every time")
    func bootstrapResample() {
        var first = RandomStream(seed: 7, label: "bootstrap.test")
        var second = RandomStream(seed: 7, label: "bootstrap.test")
        let a = Bootstrap.resample(10, using: &first), b = Bootstrap.resample(10, using: &second)
        #expect(a == b && a.count == 10 && a.allSatisfy { (0..<10).contains($0) })
        // Over many resamples every unit is drawn about equally often: 2,000 × 10 draws, 2,000 a unit
        // expected, binomial sd about 42; within 5 sd.
        var counts = [Int](repeating: 0, count: 10)
        var stream = RandomStream(seed: 8, label: "bootstrap.test")
        for _ in 0..<2_000 { for index in Bootstrap.resample(10, using: &stream) { counts[index] += 1 } }
        #expect(counts.allSatisfy { abs($0 - 2_000) < 212 }, "\(counts)")
        // A resample repeats some units and leaves others out (1 − (1 − 1/n)ⁿ ≈ 0.65 distinct).
        #expect(Set(a).count < 10)
    }

    @Test("the bootstrap's percentile interval reads the 2.5 and 97.5 percentiles, and needs 20 draws")
    func bootstrapInterval() throws {
        let draws = (0..<100).map(Double.init).reversed().map { $0 }   // 99 … 0, unsorted on purpose
        let interval = try #require(Bootstrap.percentileInterval95(Array(draws)))
        // Positions 0.025 × 99 = 2.475 and 0.975 × 99 = 96.525.
        #expect(abs(interval.low - 2.475) < 1e-12 && abs(interval.high - 96.525) < 1e-12)
        #expect(Bootstrap.percentileInterval95(Array(draws.prefix(19))) == nil)
    }

    @Test("Nelder–Mead finds Rosenbrock's minimum at (1, 1) from the classic start (−1.2, 1), and a quadratic's centre")
    func nelderMead() {
        let rosenbrock = { (x: [Double]) in 100 * (x[1] - x[0] * x[0]) * (x[1] - x[0] * x[0]) + (1 - x[0]) * (1 - x[0]) }
        let result = NelderMead.minimise(rosenbrock, start: [-1.2, 1], step: 0.5, tolerance: 1e-12, maximumEvaluations: 2_000)
        #expect(abs(result.point[0] - 1) < 1e-3 && abs(result.point[1] - 1) < 1e-3, "\(result.point)")
        let quadratic = NelderMead.minimise({ ($0[0] - 3) * ($0[0] - 3) + 2 * ($0[1] + 1) * ($0[1] + 1) + ($0[2] - 0.5) * ($0[2] - 0.5) },
                                            start: [0, 0, 0], step: 1, tolerance: 1e-14)
        #expect(zip(quadratic.point, [3, -1, 0.5]).allSatisfy { abs($0 - $1) < 1e-4 }, "\(quadratic.point)")
        #expect(quadratic.evaluations <= 400)
    }
}
