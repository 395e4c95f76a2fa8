import BackgroundSim

extension Comparison {
    /// How a comparison run to a precision ended.
    public struct Precision: Sendable {
        /// The metric keys that had to be decided.
        public var keys: [String]
        /// How many times the verdicts were looked at, and the most there could have been.
        public var looks: Int
        public var maximumLooks: Int
        /// Whether every chosen verdict was decided (and, with an objective, the recommendation
        /// confident) before the maximum.
        public var decided: Bool
        /// The labels of the chosen metrics still undecided at the end (inconclusive, or a real
        /// difference not yet told from the margin).
        public var undecided: [String]
        /// The overall error rate, spread over the looks.
        public var overallAlpha: Double
        /// The seeds run, and the most allowed.
        public var seeds: Int
        public var maximumSeeds: Int

        /// "Precision: decided after 80 seeds (look 3 of at most 6 …)".
        public var line: String {
            let spread = "each look at \(Format.significant(overallAlpha * 100)) % ÷ \(maximumLooks), so \(Format.significant((1 - overallAlpha) * 100)) % overall"
            if decided {
                return "Precision: decided after \(seeds) seeds (look \(looks) of at most \(maximumLooks); \(spread))"
            }
            return "Precision: not decided at the maximum of \(maximumSeeds) seeds (\(looks) looks; \(spread)); still undecided: "
                + (undecided.isEmpty ? "the recommendation's confidence" : Recommendation.list(undecided))
        }
    }

    /// The seed counts a run to a precision looks at: `initial`, doubling, ending at `maximum`.
    public static func looks(initial: Int, maximum: Int) -> [Int] {
        var counts = [initial]
        while counts.last! < maximum { counts.append(Swift.min(maximum, counts.last! * 2)) }
        return counts
    }

    /// Runs the scenarios on seeds `firstSeed`, `firstSeed + 1`, … adding seeds until the verdicts
    /// on `keys` are decided for every candidate — and, with an objective, the recommendation is
    /// confident — or `maximumSeeds` is reached.
    ///
    /// The seed counts looked at are `initialSeeds`, then doubling up to `maximumSeeds`
    /// (``looks(initial:maximum:)``), all fixed in advance, so the seeds run and the outcome
    /// depend only on the data. Looking repeatedly would inflate the error rates, so each look
    /// decides at α / L, L the number of possible looks (Bonferroni over looks): the verdicts
    /// and the recommendation at the look that stops hold at 1 − α overall.
    ///
    /// - Parameter keys: Metric keys whose verdicts must be decided; empty for every metric
    ///   with a preferred direction.
    /// - Throws: ``ScenarioError`` before any run for fewer than two scenarios, an invalid
    ///   scenario or `days`, an unknown key, seed counts out of order, or `alpha` outside (0, 0.5).
    public static func run(_ scenarios: [(name: String, scenario: Scenario)], firstSeed: UInt64, initialSeeds: Int, maximumSeeds: Int,
                           deciding keys: [String], days: Int, jobs: Int, metrics: [ComparedMetric] = ComparedMetric.standard,
                           objective: Objective? = nil, alpha: Double = defaultAlpha, modelUncertainty: ModelUncertainty? = nil,
                           progress: (@Sendable () -> Void)? = nil) throws -> (comparison: Comparison, precision: Precision) {
        guard alpha > 0, alpha < 0.5 else {
            throw ScenarioError(source: "Comparison", issues: [ScenarioIssue(path: "alpha", message: "expected 0 < alpha < 0.5, got \(alpha)")])
        }
        guard initialSeeds >= 2, maximumSeeds >= initialSeeds else {
            throw ScenarioError(source: "Comparison", issues: [ScenarioIssue(
                path: "seeds", message: "expected 2 ≤ initial seeds (\(initialSeeds)) ≤ maximum seeds (\(maximumSeeds))")])
        }
        for key in keys where !metrics.contains(where: { $0.key == key }) {
            _ = try Objective.metric(key, in: metrics, source: "--precision", path: "precision")
        }
        try requireComparable(scenarios)
        // A number the scenarios differ in is what they compare: it is not drawn over.
        let modelUncertainty = modelUncertainty.map {
            $0.fixing($0.pathsDiffering(among: scenarios.map(\.scenario))).narrowed(by: scenarios[0].scenario.plausible)
        }
        let chosen = keys.isEmpty ? metrics.filter { $0.better != .neither }.map(\.key) : keys
        let counts = looks(initial: initialSeeds, maximum: maximumSeeds)
        let perLook = alpha / Double(counts.count)
        var arms = scenarios.map { _ in Arm(metrics: metrics) }
        var done = 0
        for (look, count) in counts.enumerated() {
            let seeds = (done..<count).map { firstSeed &+ UInt64($0) }
            try Arm.run(scenarios.map(\.scenario), into: &arms, seeds: seeds, days: days, jobs: jobs,
                        modelUncertainty: modelUncertainty, progress: progress)
            done = count
            var comparison = Comparison(names: scenarios.map(\.name), seeds: (0..<count).map { firstSeed &+ UInt64($0) }, days: days,
                                        arms: arms, metrics: metrics, alpha: perLook)
            comparison.objective = objective
            comparison.modelUncertainty = modelUncertainty
            let undecided = comparison.rows.filter { row in
                chosen.contains(row.metric.key) && (1..<scenarios.count).contains { !comparison.judgement(row, candidate: $0).isDecided }
            }.map(\.metric.label)
            let confident = objective.map { comparison.recommendation($0).confident } ?? true
            let decided = undecided.isEmpty && confident
            if decided || look == counts.count - 1 {
                comparison.precision = Precision(keys: chosen, looks: look + 1, maximumLooks: counts.count, decided: decided,
                                                 undecided: undecided, overallAlpha: alpha, seeds: count, maximumSeeds: maximumSeeds)
                return (comparison, comparison.precision!)
            }
        }
        preconditionFailure("the last look returns")
    }
}
