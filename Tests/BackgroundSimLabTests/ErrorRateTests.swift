import BackgroundSim
@testable import BackgroundSimLab
import SimKernel
import Testing

/// Monte Carlo checks that the verdicts' error rates hold at the margin for a skewed metric
/// from 10 seeds (docs/OUTPUT.md, "How sure a verdict is").
///
/// The paired differences are gamma-shaped with skewness 1.64 — the skewness measured in a
/// comparison of ours — standard deviation 1 and mean exactly on the margin, so every claim
/// that the difference lies on the other side of the margin is false. Each rate is a count
/// over a fixed number of replications drawn from a fixed seed; its binomial standard error is
/// stated beside it. The same draws judged by the plain t-test (no skewness allowance) show
/// that the case is a hard one: they exceed 8 %.
@Suite("Error rates at the margin for a skewed metric, by Monte Carlo", .statistical)
struct ErrorRateTests {
    /// The margin, in standard deviations of the differences.
    static let margin = 0.5
    /// Gamma shape with skewness 1.64: 2 / √k = 1.64.
    static let shape = (2 / 1.64) * (2 / 1.64)

    /// `count` paired differences with mean `mean`, standard deviation 1 and skewness 1.64
    /// (or −1.64 when `mirrored`).
    static func differences(count: Int, mean: Double, mirrored: Bool, stream: inout RandomStream) -> [Double] {
        let gamma = GammaDistribution(shape: shape, scale: 1)
        return (0..<count).map { _ in
            let standardised = (gamma.sample(using: &stream) - shape) / shape.squareRoot()
            return mean + (mirrored ? -standardised : standardised)
        }
    }

    /// The comparison's row for one metric whose paired differences are `differences` (the
    /// baseline 0 on every seed), at family-wise error `alpha`.
    static func row(_ differences: [Double], alpha: Double = Comparison.defaultAlpha) -> Comparison.Row {
        let metric = ComparedMetric(key: "x", label: "latency", unit: "min", margin: margin, better: .lower) { _ in nil }
        let values: [[Double?]] = [differences.map { _ in 0 }, differences]
        return Comparison.rows(metrics: [metric], values: [values], alpha: alpha).rows[0]
    }

    /// The plain paired t-test's one-sided p-value for "the mean is below the margin" (`below`)
    /// or above it: what the verdicts would rest on without the allowance.
    static func plainOneSided(_ differences: [Double], below: Bool) -> Double {
        let summary = SampleSummary(differences)
        let t = (summary.mean - margin) / (summary.standardDeviation / Double(differences.count).squareRoot())
        let df = Double(differences.count - 1)
        return below ? StudentT.cdf(t, degreesOfFreedom: df) : StudentT.cdf(-t, degreesOfFreedom: df)
    }

    /// Over `replications` draws of 10 differences on the margin (right-skewed, or left-skewed
    /// when `mirrored`): how often the comparison's verdict is `judgement`, how often the claim's
    /// own p-value (`pValue`) is below 0.05, and how often the plain one-sided t-test (`below`
    /// the margin, or above it) rejects.
    static func rates(_ label: StreamLabel, mirrored: Bool, judgement: Comparison.Judgement, pValue: (DifferenceTest) -> Double,
                      plainBelow below: Bool, replications: Int = 20_000) -> (verdict: Double, claim: Double, plain: Double) {
        var stream = RandomStream(seed: 28, label: label)
        var verdicts = 0, claims = 0, plain = 0
        for _ in 0..<replications {
            let d = differences(count: 10, mean: margin, mirrored: mirrored, stream: &stream)
            let test = row(d).tests[0]
            if test.judgement == judgement { verdicts += 1 }
            if pValue(test) < 0.05 { claims += 1 }
            if plainOneSided(d, below: below) < 0.05 { plain += 1 }
        }
        let n = Double(replications)
        return (Double(verdicts) / n, Double(claims) / n, Double(plain) / n)
    }

    @Test("false 'equivalent' at n = 10 with the true difference on the margin, skewness 1.64: at most 5 % (the plain t: more than 8 %)")
    func falseEquivalence() {
        // 20,000 replications: a binomial standard error of 0.15 points at 5 %.
        let rates = Self.rates("false equivalence", mirrored: false, judgement: .equivalent, pValue: \.equivalencePValue, plainBelow: true)
        print("false equivalent at n = 10, skewness 1.64: verdicts \(rates.verdict), equivalence p < 0.05 \(rates.claim), plain t \(rates.plain)")
        #expect(rates.claim <= 0.05, "the equivalence claim alone, before Holm: \(rates.claim)")
        #expect(rates.verdict <= rates.claim)
        #expect(rates.plain > 0.08, "the case is not a hard one: the plain t errs \(rates.plain)")
    }

    @Test("false 'worse by at least the margin' at n = 10 with the true difference on the margin, skewness −1.64: at most 5 % (the plain t: more than 8 %)")
    func falseBeyondTheMargin() {
        let rates = Self.rates("false beyond the margin", mirrored: true, judgement: .worse, pValue: \.beyondMarginPValue, plainBelow: false)
        print("false beyond the margin at n = 10, skewness -1.64: verdicts \(rates.verdict), beyond-margin p < 0.05 \(rates.claim), plain t \(rates.plain)")
        #expect(rates.claim <= 0.05, "the beyond-the-margin claim alone, before Holm: \(rates.claim)")
        #expect(rates.verdict <= rates.claim)
        #expect(rates.plain > 0.08, "the case is not a hard one: the plain t errs \(rates.plain)")
    }

    @Test("--precision's looks at 10, 20, 40 and 80 seeds, each at 5 % ÷ 4, stopping at the first decided: a false claim ('equivalent' or 'worse by at least the margin') at most 5 % overall")
    func precisionAcrossLooks() {
        // 5,000 replications: a binomial standard error of 0.31 points at 5 %.
        let replications = 5_000
        let counts = Comparison.looks(initial: 10, maximum: 80)
        #expect(counts == [10, 20, 40, 80])
        let perLook = Comparison.defaultAlpha / Double(counts.count)
        var stream = RandomStream(seed: 28, label: "precision looks")
        var falseClaims = 0, decidedEarly = 0
        for _ in 0..<replications {
            let d = Self.differences(count: counts.last!, mean: Self.margin, mirrored: false, stream: &stream)
            for (look, count) in counts.enumerated() {
                let judgement = Self.row(Array(d.prefix(count)), alpha: perLook).tests[0].judgement
                guard judgement.isDecided || look == counts.count - 1 else { continue }
                // On the margin, "equivalent" and "worse by at least the margin" are both false.
                if judgement == .equivalent || judgement == .worse { falseClaims += 1 }
                if look < counts.count - 1 { decidedEarly += 1 }
                break
            }
        }
        let rate = Double(falseClaims) / Double(replications)
        print("precision looks 10/20/40/80: false claims overall \(rate); decided before the last look \(decidedEarly)")
        #expect(rate <= 0.05)
    }
}
