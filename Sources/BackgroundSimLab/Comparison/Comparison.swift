import BackgroundSim

/// Two or more scenarios run on the same seeds (common random numbers: the same user days,
/// charging and network), each compared with the first by paired differences.
///
/// For every metric: each scenario's summary across seeds; the paired difference (candidate −
/// baseline, seed by seed) with its 95 % confidence interval; the unpaired (Welch) interval it
/// would have had without pairing; and a plain-language verdict.
public struct Comparison: Sendable {
    public struct Row: Sendable {
        public var metric: ComparedMetric
        /// One summary per scenario, baseline first.
        public var summaries: [SampleSummary]
        /// For each candidate (index 1…): the paired difference from the baseline.
        public var differences: [SampleSummary]
        /// For each candidate: the Welch 95 % half-width without pairing.
        public var unpairedHalfWidths: [Double]
        /// For each candidate: the tests behind its verdict.
        public var tests: [DifferenceTest]
        /// Each scenario's value on each seed (`nil` where the metric does not apply), for
        /// comparisons between candidates.
        public var values: [[Double?]]
    }

    /// The default family-wise error rate of the verdicts: 0.05.
    public static let defaultAlpha = 0.05

    public var names: [String]
    public var seeds: [UInt64]
    public var days: Int
    public var rows: [Row]
    /// The family-wise error rate of the verdicts (``defaultAlpha`` unless a run to a precision
    /// spreads it over its looks).
    public var alpha: Double
    /// How many claims Holm's correction covered: three for every candidate on every metric
    /// that applies to both sides — a real difference, equivalence, beyond the margin — and one
    /// where the margin is zero or the difference is zero on every seed.
    public var testCount: Int
    /// What the team wants, if said: the recommendation follows it (``recommendation(_:)``).
    public var objective: Objective?
    /// The iOS model's uncertain numbers each seed drew, when the runs drew them
    /// (`--model-uncertainty`): the intervals then include what we do not know about iOS, and
    /// ``sensitivity`` says which numbers the decision hangs on.
    public var modelUncertainty: ModelUncertainty?
    /// How a run to a precision ended (``run(_:firstSeed:initialSeeds:maximumSeeds:deciding:days:jobs:metrics:objective:alpha:progress:)``); `nil` for a fixed number of seeds.
    public var precision: Precision?
    /// Where the recommendation changes inside the plausible ranges of the numbers it is most
    /// sensitive to, when searched (``findingBreakEvens(of:objective:jobs:named:progress:)``).
    public var breakEvens: [BreakEven] = []
    /// Whether ``breakEvens`` were searched (``findingBreakEvens(of:objective:jobs:named:progress:)``):
    /// without a search the sensitivity line never says "Robust".
    public var breakEvensSearched = false
    /// One profile per scenario, for the charts of the HTML report.
    package var profiles: [ScenarioProfile]

    /// Runs every scenario on `seeds` and compares.
    ///
    /// - Throws: ``ScenarioError`` before any run if there are fewer than two scenarios, or one
    ///   of them or `days` is invalid.
    public static func run(_ scenarios: [(name: String, scenario: Scenario)], seeds: [UInt64], days: Int, jobs: Int,
                           metrics: [ComparedMetric] = ComparedMetric.standard, objective: Objective? = nil,
                           modelUncertainty: ModelUncertainty? = nil, progress: (@Sendable () -> Void)? = nil) throws -> Comparison {
        try requireComparable(scenarios)
        let modelUncertainty = modelUncertainty.map {
            $0.fixing($0.pathsDiffering(among: scenarios.map(\.scenario))).narrowed(by: scenarios[0].scenario.plausible)
        }
        var arms = scenarios.map { _ in Arm(metrics: metrics) }
        try Arm.run(scenarios.map(\.scenario), into: &arms, seeds: seeds, days: days, jobs: jobs, modelUncertainty: modelUncertainty, progress: progress)
        var comparison = Comparison(names: scenarios.map(\.name), seeds: seeds, days: days, arms: arms, metrics: metrics)
        comparison.objective = objective
        comparison.modelUncertainty = modelUncertainty
        return comparison
    }

    /// Throws unless there are at least two scenarios, each valid.
    static func requireComparable(_ scenarios: [(name: String, scenario: Scenario)]) throws {
        guard scenarios.count >= 2 else {
            throw ScenarioError(source: "Comparison", issues: [ScenarioIssue(path: "scenarios", message: "expected at least two scenarios, got \(scenarios.count)")])
        }
        for entry in scenarios { try entry.scenario.requireValid() }
    }

    /// Compares results already run, `results[scenario][seed]`, on `metrics` with their margins.
    ///
    /// - Precondition: one row of results per name (at least two), each with a result per seed in
    ///   the order of `seeds` (the pairing the verdicts rest on) of `days` days, and
    ///   0 < `alpha` < 1.
    public init(names: [String], seeds: [UInt64], days: Int, results: [[RunResult]], metrics: [ComparedMetric],
                alpha: Double = Comparison.defaultAlpha) {
        precondition(names.count == results.count && names.count >= 2, "Comparison: \(names.count) names for \(results.count) rows of results")
        precondition(results.allSatisfy { $0.count == seeds.count && $0.allSatisfy { $0.days == days } },
                     "Comparison: every scenario needs a result per seed, each of \(days) days")
        let arms = results.map { runs in
            var arm = Arm(metrics: metrics)
            for run in runs { arm.add(run) }
            return arm
        }
        self.init(names: names, seeds: seeds, days: days, arms: arms, metrics: metrics, alpha: alpha)
    }

    /// Compares arms already run and reduced, one per name, each with a run per seed in the
    /// order of `seeds` and of `days` days.
    package init(names: [String], seeds: [UInt64], days: Int, arms: [Arm], metrics: [ComparedMetric],
                 alpha: Double = Comparison.defaultAlpha) {
        precondition(names.count == arms.count && names.count >= 2, "Comparison: \(names.count) names for \(arms.count) arms")
        precondition(arms.allSatisfy { $0.seedCount == seeds.count }, "Comparison: every scenario needs a run per seed")
        precondition(alpha > 0 && alpha < 1, "Comparison: alpha must be in (0, 1), got \(alpha)")
        self.names = names
        self.alpha = alpha
        self.seeds = seeds
        self.days = days
        profiles = arms.map(\.profile.profile)
        (rows, testCount) = Self.rows(metrics: metrics, values: metrics.indices.map { metric in arms.map { $0.values[metric] } }, alpha: alpha)
    }

    /// One scenario's runs as a comparison keeps them, added a seed at a time: each metric's
    /// value and the report's profile sample (a few hundred bytes a seed), not the runs.
    package struct Arm: Sendable {
        private let metrics: [ComparedMetric]
        /// `values[metric][seed]`, in the order of the metrics and of the seeds added.
        private(set) var values: [[Double?]]
        fileprivate(set) var profile = ScenarioProfile.Accumulator()
        /// How many seeds have been added.
        private(set) var seedCount = 0

        package init(metrics: [ComparedMetric]) {
            self.metrics = metrics
            values = metrics.map { _ in [] }
        }

        /// Adds the next seed's run.
        package mutating func add(_ result: RunResult) {
            for index in metrics.indices { values[index].append(metrics[index].value(result)) }
            profile.add(result)
            seedCount += 1
        }

        /// Runs `scenarios[i]` on `seeds` into `arms[i]`, a batch of seeds at a time (a scenario's
        /// batch, then the next scenario's), so that memory holds one batch of runs.
        static func run(_ scenarios: [Scenario], into arms: inout [Arm], seeds: [UInt64], days: Int, jobs: Int,
                        modelUncertainty: ModelUncertainty?, progress: (@Sendable () -> Void)?) throws {
            let batch = 256 * Swift.max(1, jobs)
            for start in stride(from: 0, to: seeds.count, by: batch) {
                let part = Array(seeds[start..<Swift.min(seeds.count, start + batch)])
                for index in scenarios.indices {
                    for result in try Replications.run(scenarios[index], seeds: part, days: days, jobs: jobs,
                                                       modelUncertainty: modelUncertainty, progress: progress) {
                        arms[index].add(result)
                    }
                }
            }
        }
    }

    /// The comparison on the seeds at `indices` of ``seeds`` alone (their values, the margins
    /// as resolved on every seed): what the decision would be on part of the runs.
    public func restricted(toSeedsAt indices: [Int]) -> Comparison {
        var subset = self
        subset.seeds = indices.map { seeds[$0] }
        let metrics = rows.map { row -> ComparedMetric in
            var metric = row.metric
            metric.relativeMargin = nil
            metric.comparisonDefaultShare = nil
            return metric
        }
        (subset.rows, subset.testCount) = Self.rows(metrics: metrics, values: rows.map { row in row.values.map { arm in indices.map { arm[$0] } } },
                                                   alpha: alpha)
        subset.precision = nil
        return subset
    }

    /// Each metric's row from its values (`values[metric][arm][seed]`), the verdicts decided
    /// by Holm over every claim; and how many claims.
    static func rows(metrics: [ComparedMetric], values allValues: [[[Double?]]], alpha: Double) -> (rows: [Row], testCount: Int) {
        var rows = zip(metrics, allValues).map { given, values in
            let baseline = values[0]
            // A relative margin, given or the comparison's default, becomes its share of the
            // baseline's mean.
            var metric = given
            if let share = given.relativeMargin ?? given.comparisonDefaultShare {
                metric.margin = share * abs(SampleSummary(baseline.compactMap { $0 }).mean)
            }
            var differences: [SampleSummary] = []
            var unpaired: [Double] = []
            var tests: [DifferenceTest] = []
            for candidate in values.dropFirst() {
                // Pairs where the metric applies on both sides.
                let pairs = zip(candidate, baseline).compactMap { c, b in c.flatMap { c in b.map { (c, $0) } } }
                let difference = SampleSummary(pairs.map { $0.0 - $0.1 })
                differences.append(difference)
                unpaired.append(Self.welchHalfWidth(baseline.compactMap { $0 }, candidate.compactMap { $0 }))
                let applies = baseline.contains { $0 != nil } && candidate.contains { $0 != nil }
                let largest = DifferenceTest.largestPerSeedDifference(unit: metric.unit, values: pairs.flatMap { [$0.0, $0.1] })
                tests.append(DifferenceTest(difference, margin: metric.margin, applies: applies, largestPerSeedDifference: largest,
                                            zeroDifferences: pairs.count { $0.0 == $0.1 }))
            }
            return Row(metric: metric, summaries: values.map { SampleSummary($0.compactMap { $0 }) },
                       differences: differences, unpairedHalfWidths: unpaired, tests: tests, values: values)
        }
        // Holm's correction over every claim of every test that can claim something: a real
        // difference, equivalence, beyond the margin (one claim with a zero margin, or a
        // difference of zero on every seed), in one family.
        let family = rows.indices.flatMap { r in rows[r].tests.indices.map { (r, $0) } }.filter { rows[$0.0].tests[$0.1].isInFamily }
        let entries = family.map { rows[$0.0].tests[$0.1].familyPValues }
        let adjusted = HolmCorrection.adjusted(entries.flatMap { $0 })
        var start = 0
        for ((r, c), entry) in zip(family, entries) {
            rows[r].tests[c].decide(adjusted: adjusted[start..<(start + entry.count)], alpha: alpha, better: rows[r].metric.better)
            start += entry.count
        }
        return (rows, adjusted.count)
    }

    /// The half-width of the Welch 95 % interval for the difference of two means.
    static func welchHalfWidth(_ a: [Double], _ b: [Double]) -> Double {
        let sa = SampleSummary(a), sb = SampleSummary(b)
        guard a.count > 1, b.count > 1 else { return 0 }
        let va = sa.standardDeviation * sa.standardDeviation / Double(a.count)
        let vb = sb.standardDeviation * sb.standardDeviation / Double(b.count)
        guard va + vb > 0 else { return 0 }
        let df = (va + vb) * (va + vb) / (va * va / Double(a.count - 1) + vb * vb / Double(b.count - 1))
        return StudentT.quantile975(degreesOfFreedom: Swift.max(1, Int(df.rounded(.down)))) * (va + vb).squareRoot()
    }

    /// How a candidate's paired difference on a metric reads, after Holm's correction.
    public enum Judgement: Sendable, CaseIterable {
        /// A difference of at least the margin, on the side the metric prefers.
        case better
        /// A difference of at least the margin, on the other side.
        case worse
        /// A difference of at least the margin, on a metric with no preferred direction.
        case different
        /// A real difference on the side the metric prefers, perhaps smaller than the margin.
        case perhapsBetter
        /// A real difference on the other side, perhaps smaller than the margin.
        case perhapsWorse
        /// A real difference on a metric with no preferred direction, perhaps smaller than the
        /// margin.
        case perhapsDifferent
        /// The difference is within the margin (an equivalence test), or zero on every seed.
        case equivalent
        /// Nothing shown yet.
        case inconclusive
        /// No values on one side.
        case notApplicable

        /// Whether the verdict is settled: beyond the margin, or within it. (A real difference
        /// perhaps smaller than the margin may still turn out either.)
        public var isDecided: Bool { [.better, .worse, .different, .equivalent, .notApplicable].contains(self) }
    }

    /// How candidate `index` (1…) compares with the baseline on `row`.
    public func judgement(_ row: Row, candidate index: Int) -> Judgement { row.tests[index - 1].judgement }

    /// The verdict for candidate `index` (1…) on `row`: which way it moves the metric, by how
    /// much — in the metric's difference unit (percentage points for a percentage) and relative
    /// to the baseline's mean — with the interval, and the judgement with its Holm-adjusted
    /// p-value.
    public func verdict(_ row: Row, candidate index: Int) -> String {
        let difference = row.differences[index - 1]
        let test = row.tests[index - 1]
        let name = names[index]
        let label = row.metric.label
        let unit = row.metric.differenceUnit.isEmpty ? "" : " " + row.metric.differenceUnit
        // "1 point", not "1 points".
        let marginUnit = Format.significant(row.metric.margin) == "1" && unit.hasPrefix(" points")
            ? " point" + unit.dropFirst(" points".count) : unit
        let margin = "±\(Format.significant(row.metric.margin))\(marginUnit)"
        if test.judgement == .notApplicable {
            return "\(name): \(label) does not apply (no values for \(row.summaries[0].count == 0 ? names[0] : name))"
        }
        if let zero = test.zeroOnEverySeed {
            return "\(name): \(label) the same on every seed — " + Self.zeroDifferenceReason(zero, test: test, margin: row.metric.margin,
                                                                                      marginText: margin, unit: unit)
        }
        let low = difference.mean - difference.halfWidth95, high = difference.mean + difference.halfWidth95
        let p = "Holm-adjusted p " + Self.pValue(test.adjustedPValue)
        // The change relative to the baseline's mean, when that is not zero.
        let baseline = row.summaries[0].mean
        let relative = baseline != 0 ? "\(Format.significant(abs(difference.mean / baseline) * 100)) % relative; " : ""
        let direction = difference.mean < 0 ? "lower" : "higher"
        // The interval of the change's size, in the direction stated; signed where it spans zero.
        let interval = if low > 0 || high < 0 {
            difference.mean < 0 ? "95 % CI \(Format.significant(-high))–\(Format.significant(-low))"
                : "95 % CI \(Format.significant(low))–\(Format.significant(high))"
        } else {
            "95 % CI \(Format.signed(low)) to \(Format.signed(high))"
        }
        let change = difference.mean == 0 ? "\(name): \(label) unchanged on average (\(interval))"
            : "\(name): \(label) \(Format.significant(abs(difference.mean)))\(unit) \(direction) (\(relative)\(interval))"
        switch test.judgement {
        case .better, .worse, .different:
            let size = row.metric.margin > 0 ? " by at least \(Format.significant(row.metric.margin))\(marginUnit)" : ""
            return "\(change) — \(test.judgement)\(size) (\(p))"
        case .perhapsBetter, .perhapsWorse, .perhapsDifferent:
            let side = test.judgement == .perhapsBetter ? "better" : test.judgement == .perhapsWorse ? "worse" : "different"
            return "\(change) — \(side), but perhaps by less than \(margin) (a real difference; \(p))"
        case .equivalent:
            return "\(change) — equivalent: within \(margin) (\(p))"
        case .inconclusive, .notApplicable:
            return "\(change) — inconclusive: " + SeedsToDecide.reason(difference, margin: row.metric.margin, seeds: difference.count, marginText: margin)
        }
    }

    /// Why a difference of zero on every seed is or is not equivalent (``DifferenceTest``'s rule):
    /// the share of users a difference of the margin needs, against what the seeds could show.
    static func zeroDifferenceReason(_ zero: DifferenceTest.ZeroOnEverySeed, test: DifferenceTest, margin: Double,
                                     marginText: String, unit: String) -> String {
        let largest = zero.largestPerSeedDifference
        if test.judgement == .equivalent {
            if largest == 0 {
                return "equivalent: 0 on every seed of both"
            }
            if largest <= margin {
                return "equivalent: no seed could differ by more than \(marginText) (every value within \(Format.significant(largest))\(unit) of zero)"
            }
            return "equivalent: a difference beyond \(marginText) needs \(Format.significant(margin / largest * 100)) % of users to differ "
                + "(each by at most \(Format.significant(largest))\(unit)), and none of \(zero.seeds) did (Holm-adjusted p \(pValue(test.adjustedPValue)))"
        }
        guard margin > 0, largest.isFinite else {
            return "inconclusive: with a zero margin, no number of seeds without a difference shows there is none"
        }
        let needed = DifferenceTest.seedsToShowNoDifference(margin: margin, largest: largest).map { "about \($0) seeds without a difference would tell" }
            ?? "no number of seeds would tell"
        return "inconclusive: a difference beyond \(marginText) needs only \(Format.significant(margin / largest * 100)) % of users to differ "
            + "(each by up to \(Format.significant(largest))\(unit)), which \(zero.seeds) seeds can miss; \(needed)"
    }

    /// "< 0.001" or "= 0.012".
    static func pValue(_ p: Double) -> String {
        p < 0.001 ? "< 0.001" : "= " + Format.significant((p * 1_000).rounded() / 1_000)
    }

    /// How much pairing narrowed candidate `index`'s interval on `row`, as a fraction (0.6 = 60 %
    /// narrower than unpaired); `nil` when the unpaired interval is zero.
    public func narrowing(_ row: Row, candidate index: Int) -> Double? {
        let unpaired = row.unpairedHalfWidths[index - 1]
        let paired = row.differences[index - 1]
        // Nothing to narrow when the metric is the same on every seed.
        guard unpaired > 0, paired.mean != 0 || paired.halfWidth95 != 0 else { return nil }
        return 1 - row.differences[index - 1].halfWidth95 / unpaired
    }
}
