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
    }

    public var names: [String]
    public var seeds: [UInt64]
    public var days: Int
    public var rows: [Row]
    /// One profile per scenario, for the charts of the HTML report.
    package var profiles: [ScenarioProfile]

    /// Runs every scenario on `seeds` and compares.
    ///
    /// - Throws: ``ScenarioError`` before any run if there are fewer than two scenarios, or one
    ///   of them or `days` is invalid.
    public static func run(_ scenarios: [(name: String, scenario: Scenario)], seeds: [UInt64], days: Int, jobs: Int,
                           metrics: [ComparedMetric] = ComparedMetric.standard,
                           progress: (@Sendable () -> Void)? = nil) throws -> Comparison {
        guard scenarios.count >= 2 else {
            throw ScenarioError(source: "Comparison", issues: [ScenarioIssue(path: "scenarios", message: "expected at least two scenarios, got \(scenarios.count)")])
        }
        for entry in scenarios { try entry.scenario.requireValid() }
        let results = try scenarios.map { try Replications.run($0.scenario, seeds: seeds, days: days, jobs: jobs, progress: progress) }
        return Comparison(names: scenarios.map(\.name), seeds: seeds, days: days, results: results, metrics: metrics)
    }

    /// Compares results already run, `results[scenario][seed]`.
    public init(names: [String], seeds: [UInt64], days: Int, results: [[RunResult]], metrics: [ComparedMetric]) {
        self.names = names
        self.seeds = seeds
        self.days = days
        profiles = results.map(ScenarioProfile.init)
        rows = metrics.map { metric in
            let values = results.map { $0.map(metric.value) }
            let baseline = values[0]
            var differences: [SampleSummary] = []
            var unpaired: [Double] = []
            for candidate in values.dropFirst() {
                // Pairs where the metric applies on both sides.
                let pairs = zip(candidate, baseline).compactMap { c, b in c.flatMap { c in b.map { (c, $0) } } }
                differences.append(SampleSummary(pairs.map { $0.0 - $0.1 }))
                unpaired.append(Self.welchHalfWidth(baseline.compactMap { $0 }, candidate.compactMap { $0 }))
            }
            return Row(metric: metric, summaries: values.map { SampleSummary($0.compactMap { $0 }) },
                       differences: differences, unpairedHalfWidths: unpaired)
        }
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

    /// How a candidate's paired difference on a metric reads.
    public enum Judgement: Sendable {
        /// The interval excludes zero on the side the metric prefers.
        case better
        /// The interval excludes zero on the other side.
        case worse
        /// The interval excludes zero on a metric with no preferred direction.
        case different
        /// The interval includes zero, or the metric is the same on every seed.
        case unclear
        /// No values on one side.
        case notApplicable
    }

    /// How candidate `index` (1…) compares with the baseline on `row`.
    public func judgement(_ row: Row, candidate index: Int) -> Judgement {
        let difference = row.differences[index - 1]
        guard row.summaries[0].count > 0, row.summaries[index].count > 0 else { return .notApplicable }
        let low = difference.mean - difference.halfWidth95, high = difference.mean + difference.halfWidth95
        guard difference.count > 1, low > 0 || high < 0 else { return .unclear }
        switch (row.metric.better, difference.mean < 0) {
        case (.lower, true), (.higher, false): return .better
        case (.lower, false), (.higher, true): return .worse
        case (.neither, _): return .different
        }
    }

    /// The verdict for candidate `index` (1…) on `row`: which way it moves the metric, by how
    /// much — in the metric's difference unit (percentage points for a percentage) and relative
    /// to the baseline's mean — with the interval, or that no difference is clear.
    public func verdict(_ row: Row, candidate index: Int) -> String {
        let difference = row.differences[index - 1]
        let name = names[index]
        let label = row.metric.label
        let unit = row.metric.differenceUnit.isEmpty ? "" : " " + row.metric.differenceUnit
        let low = difference.mean - difference.halfWidth95, high = difference.mean + difference.halfWidth95
        let judgement = judgement(row, candidate: index)
        switch judgement {
        case .notApplicable:
            return "\(name): \(label) does not apply (no values for \(row.summaries[0].count == 0 ? names[0] : name))"
        case .unclear:
            if difference.mean == 0 && difference.halfWidth95 == 0 { return "\(name): \(label) the same on every seed" }
            let interval = "95 % CI \(Format.signed(low)) to \(Format.signed(high))"
            return "\(name): no clear difference in \(label) (\(Format.signed(difference.mean))\(unit), \(interval))"
        case .better, .worse, .different:
            let direction = difference.mean < 0 ? "lower" : "higher"
            // The interval of the change's size, in the direction stated.
            let sizes = difference.mean < 0 ? (-high, -low) : (low, high)
            let interval = "95 % CI \(Format.significant(sizes.0))–\(Format.significant(sizes.1))"
            // The change relative to the baseline's mean, when that is not zero.
            let baseline = row.summaries[0].mean
            let relative = baseline != 0 ? "\(Format.significant(abs(difference.mean / baseline) * 100)) % relative; " : ""
            return "\(name): \(label) \(Format.significant(abs(difference.mean)))\(unit) \(direction) (\(relative)\(interval)) — \(judgement)"
        }
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
