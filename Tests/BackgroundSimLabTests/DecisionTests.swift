import BackgroundSim
@testable import BackgroundSimLab
import SimKernel
import Testing

// Golden values from SciPy 1.x (`scipy.stats.t.cdf`, `t.ppf`), an implementation independent
// of ours.
@Suite("Decisions: p-values, Holm, equivalence, recommendations")
struct DecisionTests {
    @Test("Student's t distribution function and quantile match SciPy, including fractional degrees of freedom")
    func studentT() {
        #expect(abs(StudentT.cdf(1, degreesOfFreedom: 1) - 0.75) < 1e-12)
        #expect(abs(StudentT.cdf(2.228139, degreesOfFreedom: 10) - 0.9750000062735588) < 1e-10)
        #expect(abs(StudentT.cdf(-7, degreesOfFreedom: 3) - 0.0029931278488535486) < 1e-12)
        #expect(abs(StudentT.cdf(-3.5, degreesOfFreedom: 7.5) - 0.004474435990039672) < 1e-12)
        #expect(abs(2 * StudentT.cdf(-39, degreesOfFreedom: 3) - 3.708941330642973e-05) < 1e-13)
        #expect(abs(StudentT.quantile(1 - 0.05 / 7, degreesOfFreedom: 19) - 2.696859771582897) < 1e-9)
        #expect(abs(StudentT.quantile(0.975, degreesOfFreedom: 10) - StudentT.quantile975(degreesOfFreedom: 10)) < 1e-6)
        #expect(StudentT.quantile(0.025, degreesOfFreedom: 4) == -StudentT.quantile(0.975, degreesOfFreedom: 4))
    }

    @Test("Holm's adjusted p-values by hand, in the order given")
    func holm() {
        // Sorted: 0.005 × 4 = 0.02; 0.01 × 3 = 0.03; 0.03 × 2 = 0.06; 0.04 × 1, raised to 0.06.
        #expect(HolmCorrection.adjusted([0.01, 0.04, 0.03, 0.005]) == [0.03, 0.06, 0.06, 0.02])
        // 0.5 × 2 = 1; 0.9 × 1, raised to 1.
        #expect(HolmCorrection.adjusted([0.5, 0.9]) == [1, 1])
        #expect(HolmCorrection.adjusted([]) == [])
    }

    /// Results of one-day runs whose seeds are the values the metrics read.
    func comparison(_ base: [UInt64], _ candidate: [UInt64], _ metrics: [ComparedMetric]) throws -> Comparison {
        let a = try Replications.run(Scenario(), seeds: base, days: 1, jobs: 1)
        let b = try Replications.run(Scenario(), seeds: candidate, days: 1, jobs: 1)
        return Comparison(names: ["A", "B"], seeds: base, days: 1, results: [a, b], metrics: metrics)
    }

    @Test("a small difference shown to be within its margin is equivalent; the same difference with a smaller margin is not")
    func equivalence() throws {
        // Differences 0.5, 0.5, 0.5, −0.5: mean 0.25, sd 0.5, se 0.25. Margin 2: TOST t = (0.25 + 2)/0.25 = 9
        // and (0.25 − 2)/0.25 = −7 on 3 df, each stepped back by the skewness allowance: SciPy's
        // smallest α with t.sf(x − δ(4, α), 3) ≤ α (StatisticsTests.tost) gives 0.00575 and
        // 0.01219; the larger, tripled by Holm: the test puts three claims in the family (a real
        // difference, equivalence, beyond the margin), and 0.0366 is the smallest of them.
        let wide = ComparedMetric(key: "x", label: "latency", unit: "min", margin: 2, better: .lower) { Double($0.seed) / 2 }
        let equivalent = try comparison([200, 202, 204, 206], [201, 203, 205, 205], [wide])
        #expect(equivalent.judgement(equivalent.rows[0], candidate: 1) == .equivalent)
        #expect(abs(equivalent.rows[0].tests[0].equivalencePValue - 0.012190183780707214) < 1e-9)
        #expect(equivalent.verdict(equivalent.rows[0], candidate: 1)
                == "B: latency 0.25 min higher (0.246 % relative; 95 % CI -0.546 to +1.05) — equivalent: within ±2 min (Holm-adjusted p = 0.037)")
        // Margin 0.5: the interval reaches past it, so neither claim can be made.
        var narrow = wide
        narrow.margin = 0.5
        let undecided = try comparison([200, 202, 204, 206], [201, 203, 205, 205], [narrow])
        #expect(undecided.judgement(undecided.rows[0], candidate: 1) == .inconclusive)
    }

    @Test("verdicts follow the interval, not the side of the margin the mean falls on: margins just below and above a real difference read the same")
    func noJumpAtTheMargin() throws {
        // Differences −10, −9, −11, −10, −12, −8, −10, −10: mean −10, sd 1.195, se 0.4226, on 7 df
        // the 95 % interval is 9.0–11.0 lower.
        let base: [UInt64] = Array(100...107), candidate: [UInt64] = zip(base, [10, 9, 11, 10, 12, 8, 10, 10]).map { $0 - $1 }
        func judgement(margin: Double) throws -> Comparison.Judgement {
            let metric = ComparedMetric(key: "x", label: "latency", unit: "min", margin: margin, better: .lower) { Double($0.seed) }
            let comparison = try comparison(base, candidate, [metric])
            return comparison.judgement(comparison.rows[0], candidate: 1)
        }
        // The interval straddles both 9.9 and 10.1: real, perhaps smaller than the margin, either way.
        #expect(try judgement(margin: 9.9) == .perhapsBetter)
        #expect(try judgement(margin: 10.1) == .perhapsBetter)
        // Entirely beyond 5, entirely within 20.
        #expect(try judgement(margin: 5) == .better)
        #expect(try judgement(margin: 20) == .equivalent)
        let metric = ComparedMetric(key: "x", label: "latency", unit: "min", margin: 10.1, better: .lower) { Double($0.seed) }
        let compared = try comparison(base, candidate, [metric])
        #expect(compared.verdict(compared.rows[0], candidate: 1).hasSuffix("— better, but perhaps by less than ±10.1 min (a real difference; Holm-adjusted p < 0.001)"),
                "\(compared.verdict(compared.rows[0], candidate: 1))")
    }

    @Test("a margin given as a percentage is that share of the baseline's mean; sweeps and tuning, with no baseline, refuse one")
    func relativeMargins() throws {
        let metric = ComparedMetric(key: "x", label: "latency", unit: "min", better: .lower) { Double($0.seed) }
        let relative = try Objective.applyingMargins("x=9.5%", to: [metric], source: "--margins")
        #expect(relative[0].relativeMargin == 0.095 && relative[0].margin == 0)
        let fromFile = try Objective.applyingMargins(document: .object([("x", .string("9.5%"))]), to: [metric], source: "m.json", path: "")
        #expect(fromFile[0].relativeMargin == 0.095)
        // The baseline's mean is 103.5 (seeds 100 … 107): 9.5 % of it is 9.83, within the
        // interval 9.0–11.0 of the difference (noJumpAtTheMargin's data).
        let base: [UInt64] = Array(100...107), candidate: [UInt64] = zip(base, [10, 9, 11, 10, 12, 8, 10, 10]).map { $0 - $1 }
        let compared = try comparison(base, candidate, relative)
        #expect(abs(compared.rows[0].metric.margin - 0.095 * 103.5) < 1e-12)
        #expect(compared.judgement(compared.rows[0], candidate: 1) == .perhapsBetter)
        for bad in ["x=5x%", "x=-5%", "x=%"] {
            #expect(throws: ScenarioError.self) { try Objective.applyingMargins(bad, to: [metric], source: "--margins") }
        }
        #expect(throws: ScenarioError.self) { try Objective.requireAbsoluteMargins(relative, source: "sweep.json", path: "margins") }
        #expect(throws: Never.self) { try Objective.requireAbsoluteMargins([metric], source: "sweep.json", path: "margins") }
    }

    @Test("a real difference smaller than its margin is not called better; one larger than the margin is")
    func practicalSignificance() throws {
        // The metric reads seed / 10.
        let metric = ComparedMetric(key: "x", label: "latency", unit: "min", margin: 1, better: .lower) { Double($0.seed) / 10 }
        // Seed differences −2, −2, −2, −3 → −0.2, −0.2, −0.2, −0.3: real (t = −9 on 3 df; with the
        // skewness allowance SciPy's smallest α with 2 t.sf(9 − δ(4, α/2), 3) ≤ α is 0.0115) but
        // far below the margin of 1.
        let small = try comparison([100, 101, 102, 103], [98, 99, 100, 100], [metric])
        #expect(small.judgement(small.rows[0], candidate: 1) == .equivalent)
        #expect(abs(small.rows[0].tests[0].differencePValue - 0.01149715517649664) < 1e-9)
        // seed differences −20, −20, −20, −21 → −2.025 on average: at least the margin, and real.
        let large = try comparison([100, 101, 102, 103], [80, 81, 82, 82], [metric])
        #expect(large.judgement(large.rows[0], candidate: 1) == .better)
    }

    /// The row of one metric whose per-seed values are `baseline` and `candidate`.
    static func row(_ metric: ComparedMetric, _ baseline: [Double], _ candidate: [Double]) -> Comparison.Row {
        Comparison.rows(metrics: [metric], values: [[baseline, candidate]], alpha: Comparison.defaultAlpha).rows[0]
    }

    @Test("a real difference whose interval lies inside the margin is equivalent, not 'perhaps worse': 3.63–4.09 J/day against ±5")
    func realButInsideTheMargin() {
        // 100 seeds whose differences alternate 3.86 ± 1.15: mean 3.86, sd 1.156, half-width
        // 1.984 · 1.156 / 10 = 0.229, so the 95 % interval is 3.63–4.09 — real, and inside ±5.
        let metric = ComparedMetric(key: "e", label: "app energy", unit: "J/day", margin: 5, better: .lower) { _ in nil }
        let baseline = (0..<100).map { _ in 90.0 }
        let candidate = (0..<100).map { 90 + 3.86 + ($0 % 2 == 0 ? 1.15 : -1.15) }
        let row = Self.row(metric, baseline, candidate)
        let test = row.tests[0]
        #expect(abs(row.differences[0].mean - 3.86) < 1e-9)
        #expect(abs(row.differences[0].halfWidth95 - 0.229) < 0.001)
        #expect(test.differencePValue < 1e-6 && test.equivalencePValue < 1e-6, "both claims hold: \(test)")
        #expect(test.judgement == .equivalent)
    }

    @Test("a mostly-zero metric 1.5 margins worse is never called equivalent in 200 blocks of 10 seeds; zero on every seed is not enough")
    func mostlyZeroDifferences() {
        // Work completed (%), margin 1 point: two users in three see no difference; the others
        // complete 0–8.8 points less (uniform), 1.5 points on average — 1.5 margins.
        let metric = ComparedMetric(key: "w", label: "work completed", unit: "%", margin: 1, better: .higher) { _ in nil }
        var stream = RandomStream(seed: 47, label: "mostly zero")
        var equivalent = 0, allZero = 0
        for _ in 0..<200 {
            var baseline: [Double] = [], candidate: [Double] = []
            for _ in 0..<10 {
                let base = 90 + 10 * stream.unit()
                let differs = stream.unit() < 1.0 / 3
                baseline.append(base)
                candidate.append(differs ? base - 8.8 * stream.unit() : base)
            }
            let test = Self.row(metric, baseline, candidate).tests[0]
            if test.judgement == .equivalent { equivalent += 1 }
            if test.zeroOnEverySeed != nil {
                allZero += 1
                #expect(test.judgement == .inconclusive)
            }
        }
        #expect(equivalent == 0)
        // (2/3)¹⁰ = 1.7 %: a few blocks show no difference on any seed.
        #expect(allZero > 0, "no block of zeros drawn: the case is not exercised")
        // Zero on every one of 10 seeds, by hand: the equivalence p is 0.99¹⁰ = 0.904; at least
        // 299 such seeds would be needed (0.99²⁹⁹ = 0.0495).
        let zeros = Self.row(metric, Array(repeating: 95, count: 10), Array(repeating: 95, count: 10))
        #expect(abs(zeros.tests[0].equivalencePValue - 0.904382075008804) < 1e-12)
        #expect(DifferenceTest.seedsToShowNoDifference(margin: 1, largest: 100) == 299)
        #expect(zeros.tests[0].judgement == .inconclusive)
        // The count of seeds that differ against SciPy's binom.cdf(k, n, m/R).
        let few = DifferenceTest.fewDifferEquivalencePValue
        #expect(abs(few(1, 100, 10, 2) - 0.9998861508820942) < 1e-12)
        #expect(abs(few(0.5, 1, 100, 3) - 1.3154334480650894e-25) / 1.3154334480650894e-25 < 1e-9)
        #expect(abs(few(0.3, 1, 100, 40) - 0.9875015928335618) < 1e-12)
        #expect(few(2, 1, 10, 3) == 0 && few(0, 100, 10, 0) == 1)
    }

    @Test("Holm's correction counts every candidate and metric: a p-value that passes alone fails among many")
    func holmAcrossMetrics() throws {
        // Differences 0, 0, −1, −2, −2, −1, 0, −1, −1, −2 (mean −1, sd 0.816, se 0.258, t = −3.87
        // on 9 df; with the skewness allowance SciPy's smallest α with 2 t.sf(3.87 − δ(10, α/2), 9)
        // ≤ α is 0.041): better alone; with 4 copies Holm multiplies the smallest by 4.
        let metric = ComparedMetric(key: "x", label: "latency", unit: "min", better: .lower) { Double($0.seed) }
        let base: [UInt64] = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100], candidate: [UInt64] = [10, 20, 29, 38, 48, 59, 70, 79, 89, 98]
        let alone = try comparison(base, candidate, [metric])
        #expect(alone.judgement(alone.rows[0], candidate: 1) == .better)
        let many = try comparison(base, candidate, Array(repeating: metric, count: 4))
        #expect(many.testCount == 4)
        #expect(many.rows.allSatisfy { many.judgement($0, candidate: 1) == .inconclusive })
    }

    let latency = ComparedMetric(key: "latency", label: "p90 work latency", unit: "min", better: .lower) { _ in nil }
    let battery = ComparedMetric(key: "battery", label: "app battery use", unit: "%/day", better: .lower) { _ in nil }

    func choose(_ latencies: [[Double]], _ batteries: [[Double]], bound: Double) -> Recommendation {
        let objective = Objective(.minimize, latency, subjectTo: [.init(metric: battery, atMost: true, value: bound)])
        return Recommendation.choose(names: ["A", "B", "C"], objective: objective) { metric in
            (metric.key == "latency" ? latencies : batteries).map { $0.map(Optional.some) }
        }
    }

    @Test("a recommendation picks the best arm within the bounds and is confident only when every statement holds")
    func recommendation() {
        let batteries = [[0.5, 0.6, 0.4, 0.5, 0.5], [0.8, 0.9, 0.7, 0.8, 0.8], [2, 2.1, 1.9, 2, 2]]
        // C is fastest but over the bound; B beats A by 5 min on every seed.
        let clear = choose([[10, 11, 12, 13, 14], [5, 6, 7, 8, 9], [1, 2, 3, 4, 5]], batteries, bound: 1)
        #expect(clear.choice == 1)
        #expect(clear.confident)
        #expect(clear.line == "Recommendation: B — lowest p90 work latency, 7 min (5 min below A), with app battery use 0.8 %/day ≤ 1 "
                + "(2 of 3 arms meet the bound); confident at 95 % jointly over 3 statements")
        // A is as fast as B within noise: B still has the lower mean, but they cannot be told apart.
        let tied = choose([[7.1, 6.9, 7.3, 6.8, 7.0], [5, 6, 7, 8, 9], [1, 2, 3, 4, 5]], batteries, bound: 1)
        #expect(tied.choice == 1)
        #expect(!tied.confident)
        #expect(tied.indistinguishable == [0])
        #expect(tied.line.hasSuffix("not confident: cannot be told apart from A on p90 work latency"))
        // B's battery is near the bound: its upper confidence bound is above it.
        let close = choose([[10, 11, 12, 13, 14], [5, 6, 7, 8, 9], [1, 2, 3, 4, 5]], batteries, bound: 0.85)
        #expect(close.choice == 1 && !close.confident)
        #expect(close.line.contains("app battery use may be above 0.85"))
        // Nothing meets the bound.
        let none = choose([[10, 11, 12, 13, 14], [5, 6, 7, 8, 9], [1, 2, 3, 4, 5]], batteries, bound: 0.1)
        #expect(none.choice == nil)
        #expect(none.line.hasPrefix("Recommendation: none — no arm meets app battery use ≤ 0.1 %/day; the nearest is A"))
        // One seed each: the choice stands on its means but nothing can be confident.
        let single = choose([[10], [5], [1]], [[0.5], [0.8], [2]], bound: 1)
        #expect(single.choice == 1 && !single.confident)
        #expect(single.line.contains("too few seeds to tell whether app battery use stays within 1"))
        // No values at all.
        #expect(choose([[], [], []], [[], [], []], bound: 1).line == "Recommendation: none — p90 work latency does not apply to any arm (no values)")
    }

    @Test("without an objective, a candidate better on something and worse on nothing is recommended; a trade-off is named, a real cost smaller than its margin included")
    func recommendationFromVerdicts() throws {
        let latency = ComparedMetric(key: "x", label: "p90 work latency", unit: "min", margin: 1, better: .lower) { Double($0.seed) }
        let energy = ComparedMetric(key: "e", label: "app energy", unit: "J/day", margin: 5, better: .lower) { _ in 3 }
        let costly = ComparedMetric(key: "c", label: "app energy", unit: "J/day", margin: 1, better: .lower) { Double(200 - $0.seed) }
        let dominant = try comparison([100, 101, 102, 103], [90, 91, 92, 94], [latency, energy])
        #expect(dominant.recommendation().choice == 1)
        #expect(dominant.recommendation().line.hasPrefix("Recommendation: B — better than A on p90 work latency and worse on nothing"))
        let tradeOff = try comparison([100, 101, 102, 103], [90, 91, 92, 94], [latency, costly])
        #expect(tradeOff.recommendation().choice == nil)
        #expect(tradeOff.recommendation().line.hasPrefix("Recommendation: none without an objective — B is better on p90 work latency but worse on app energy"))
        // A real cost perhaps smaller than its margin (energy 9.75 J/day higher, interval 8.95–10.5,
        // margin 9.75) is still a cost: no recommendation without an objective.
        var perhapsCostly = costly
        perhapsCostly.margin = 9.75
        let perhaps = try comparison([100, 101, 102, 103], [90, 91, 92, 94], [latency, perhapsCostly])
        #expect(perhaps.judgement(perhaps.rows[1], candidate: 1) == .perhapsWorse)
        #expect(perhaps.recommendation().choice == nil)
        #expect(perhaps.recommendation().line.hasPrefix(
            "Recommendation: none without an objective — B is better on p90 work latency but worse, perhaps by less than the margin, on app energy"))
    }
}

@Suite("Sweep rankings under noise")
struct SweepRankingTests {
    @Test("a hand-made sweep: the front of the means, the cells the noise cannot rule off it, and the cells tied with the best")
    func handMade() {
        // Costs (lower is better) on 6 seeds, two objectives. Noise patterns: `quiet` is the same
        // on every seed (paired differences without spread), `medium` swings ±1, `loud` ±3.
        // With k = 7, a domination claim is tested at 0.05/12 one-sided (t(5) = 4.4), a tie with
        // the best at 0.05/6 (t(5) = 3.7); the standard errors are 1.095/√6 and 3.29/√6.
        let quiet = [0.0, 0, 0, 0, 0, 0], medium = [1.0, -1, 1, -1, 1, -1], loud = [3.0, -3, 3, -3, 3, -3]
        func cell(_ a: Double, _ b: Double, noise: [Double] = [0, 0, 0, 0, 0, 0]) -> [[Double?]] {
            [noise.map { a + $0 }, noise.map { b + $0 }]
        }
        let cells = [
            cell(1, 10, noise: quiet),  // 0: on the front (best on the first objective)
            cell(10, 1, noise: quiet),  // 1: on the front (best on the second)
            cell(5, 5, noise: quiet),   // 2: on the front
            cell(6, 6, noise: quiet),   // 3: beaten by 2 on both, on every seed: dominated
            cell(5.5, 5.5, noise: medium), // 4: beaten by 2 by 0.5 ± 1: possibly on the front, but no tie with a best
            cell(1.2, 12, noise: loud), // 5: second on the first objective, noisily: tied with the best
            cell(20, 20, noise: loud),  // 6: far behind on both: dominated even with its noise
        ]
        let ranking = SweepRanking(costs: [cells.map { $0[0] }, cells.map { $0[1] }])
        #expect(ranking.front.sorted() == [0, 1, 2])
        #expect(ranking.possibleFront == [0, 1, 2, 4, 5])
        #expect(ranking.dominator(of: 3) == 2)
        #expect(ranking.dominator(of: 6) != nil)
        #expect(ranking.best(0) == 0)
        #expect(ranking.indistinguishable(fromBest: 0) == [5])
        #expect(ranking.best(1) == 1)
        #expect(ranking.indistinguishable(fromBest: 1).isEmpty)
    }
}

@Suite("Comparisons run to a precision")
struct PrecisionTests {
    /// Two one-day scenarios named A and B; the metric is B's paired difference from A: `shift`
    /// plus a noise of −1 … +1 that cycles with the seed (sd 0.79 over whole cycles).
    func run(shift: Double, maximum: Int) throws -> Comparison {
        var a = Scenario(), b = Scenario()
        a.name = "A"
        b.name = "B"
        let metric = ComparedMetric(key: "x", label: "x", unit: "", better: .lower) { result in
            result.scenarioName == "B" ? shift + Double((result.seed * 7) % 5) * 0.5 - 1 : 0
        }
        return try Comparison.run([("A", a), ("B", b)], firstSeed: 1, initialSeeds: 4, maximumSeeds: maximum, deciding: ["x"], days: 1,
                                  jobs: 2, metrics: [metric]).comparison
    }

    @Test("seeds double from the initial count until the verdict is decided, the same way every time")
    func decides() throws {
        #expect(Comparison.looks(initial: 4, maximum: 40) == [4, 8, 16, 32, 40])
        let comparison = try run(shift: 0.8, maximum: 40)
        let precision = try #require(comparison.precision)
        #expect(precision.decided)
        #expect(precision.seeds > 4 && [8, 16, 32, 40].contains(precision.seeds))
        #expect(comparison.seeds.count == precision.seeds)
        // Each look decides at 5 % / 5.
        #expect(abs(comparison.alpha - 0.01) < 1e-15)
        #expect(comparison.judgement(comparison.rows[0], candidate: 1) == .worse)
        #expect(try run(shift: 0.8, maximum: 40).seeds == comparison.seeds)
    }

    @Test("a difference of zero with no margin is never decided: it stops at the maximum and says what is undecided")
    func undecided() throws {
        let comparison = try run(shift: 0, maximum: 16)
        let precision = try #require(comparison.precision)
        #expect(!precision.decided && precision.seeds == 16 && precision.undecided == ["x"])
        #expect(precision.line.hasPrefix("Precision: not decided at the maximum of 16 seeds (3 looks"))
        #expect(precision.line.hasSuffix("still undecided: x"))
    }
}
