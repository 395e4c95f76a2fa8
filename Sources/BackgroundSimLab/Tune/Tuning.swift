import BackgroundSim

/// A tuning: configurations of a policy searched for the best under an objective by
/// ``TuningProcedure``, with its outcome.
///
/// In Swift, any configurations — a user's own policy made per configuration included — run
/// in this process:
///
///     let configurations = [5.0, 10, 30, 60].map { minutes in
///         ("delay \(minutes)", base.running("mine") { MyPolicy(meanDelayMinutes: minutes) })
///     }
///     let objective = try Objective.parse(goal: "minimize", key: "work.latencyMinutes.p90",
///                                         bounds: "energy.appBatteryPercentPerDay<=0.05", source: "tuning")
///     let tuning = try Tuning.run(configurations, procedure: TuningProcedure(objective: objective), days: 90, jobs: 2)
///     print(tuning.recommendation)
///
/// Tuning files (`bgsim tune`) are the same as data, with sharding and resumption.
public struct Tuning: Sendable {
    /// Each configuration's name ("meanDelayMinutes=30 minimumRunIntervalMinutes=60").
    public var names: [String]
    public var procedure: TuningProcedure
    public var outcome: TuningProcedure.Outcome
    public var days: Int
    public var firstSeed: UInt64
    /// The iOS model's uncertain numbers each seed drew, when the runs drew them: then
    /// ``sensitivity`` says which numbers the choice among the finalists hangs on.
    public var modelUncertainty: ModelUncertainty?

    public init(names: [String], procedure: TuningProcedure, outcome: TuningProcedure.Outcome, days: Int, firstSeed: UInt64) {
        self.names = names
        self.procedure = procedure
        self.outcome = outcome
        self.days = days
        self.firstSeed = firstSeed
    }

    /// Runs the procedure on `configurations`: the first stage's seeds on all, then each look's
    /// seeds on those still in contention; seeds are `firstSeed`, `firstSeed + 1`, … for every
    /// configuration.
    ///
    /// - Throws: ``ScenarioError`` before any run if a scenario, `days` or the procedure's
    ///   settings are invalid.
    public static func run(_ configurations: [(name: String, scenario: Scenario)], procedure: TuningProcedure, days: Int,
                           firstSeed: UInt64 = 1, jobs: Int, modelUncertainty: ModelUncertainty? = nil,
                           progress: (@Sendable () -> Void)? = nil) throws -> Tuning {
        guard !configurations.isEmpty else {
            throw ScenarioError(source: "Tuning", issues: [ScenarioIssue(path: "configurations", message: "expected at least one configuration")])
        }
        guard procedure.issues.isEmpty else { throw ScenarioError(source: "Tuning", issues: procedure.issues) }
        for entry in configurations { try entry.scenario.requireValid() }
        let modelUncertainty = modelUncertainty?.narrowed(by: configurations[0].scenario.plausible)
        let outcome = try procedure.run(configurations.count) { indices, range in
            try indices.map { index in
                let runs = try Replications.run(configurations[index].scenario, seeds: range.map { firstSeed &+ UInt64($0) }, days: days,
                                                jobs: jobs, modelUncertainty: modelUncertainty, progress: progress)
                return samples([runs], procedure.objective)
            }
        }
        var tuning = Tuning(names: configurations.map(\.name), procedure: procedure, outcome: outcome, days: days, firstSeed: firstSeed)
        tuning.modelUncertainty = modelUncertainty
        return tuning
    }

    /// The objective's and bounds' values of each configuration's runs.
    static func samples(_ runs: [[RunResult]], _ objective: Objective) -> TuningProcedure.Samples {
        TuningProcedure.Samples(objective: runs.map { $0.map(objective.metric.value) },
                                bounds: objective.bounds.map { bound in runs.map { $0.map(bound.metric.value) } })
    }

    /// Whether a bound the chosen configuration meets is met only within its tolerance: its
    /// mean is within `tolerance` of the bound, where the guarantee does not say which side the
    /// true mean is on (it covers means more than the tolerance away).
    static func metOnlyWithinTolerance(mean: Double?, bound: Double, tolerance: Double) -> Bool {
        guard let mean else { return false }
        return abs(mean - bound) <= tolerance
    }

    /// What the procedure ran: "10 seeds for all 16; looks at 20, 40, 80, 160 and 200 seeds for
    /// those in contention; 1234 configuration-seeds in all (450410 device-days)".
    var effort: String {
        let screening = outcome.screening
        let total = outcome.seedsRun.reduce(0, +)
        let looks = procedure.lookSeeds(finalSeeds: screening.finalSeeds).dropFirst().filter { $0 <= screening.seeds }
        let later = looks.isEmpty ? "no further look needed"
            : "look\(looks.count == 1 ? "" : "s") at \(Recommendation.list(looks.map(String.init))) seeds for those in contention"
        return "\(procedure.firstStageSeeds) seeds for all \(names.count); \(later); \(total) configuration-seeds in all (\(total * days) device-days)"
    }

    /// The chosen configuration's 95 % interval for its objective's mean, widened for having
    /// been picked from all the configurations: the interval the chosen one would have among
    /// simultaneous 95 % intervals for every configuration (Bonferroni: each at level
    /// 1 − 0.05/k for k configurations, Student's t on the seeds it ran). Whichever was picked,
    /// its interval then covers its true mean with probability ≥ 95 %, where the plain interval
    /// on the seeds that picked it is too narrow and leans the way it was picked (the winner's
    /// curse). Approximate, as the number of seeds each ran depended on the data [Inf]. `nil`
    /// without a choice or with fewer than 2 values.
    public var chosenInterval95: ClosedRange<Double>? {
        outcome.best.flatMap { Self.interval95(outcome.summaries[$0], pickedFrom: names.count) }
    }

    /// A 95 % interval for the mean of `summary`'s values that holds whichever of
    /// `configurations` was picked: the Bonferroni-simultaneous one, Student's t at
    /// 1 − 0.025/k; `nil` with fewer than 2 values.
    static func interval95(_ summary: SampleSummary, pickedFrom configurations: Int) -> ClosedRange<Double>? {
        guard summary.count >= 2 else { return nil }
        let level = 1 - 0.05 / (2 * Double(max(1, configurations)))
        let halfWidth = StudentT.quantile(level, degreesOfFreedom: Double(summary.count - 1)) * summary.standardDeviation
            / Double(summary.count).squareRoot()
        return (summary.mean - halfWidth)...(summary.mean + halfWidth)
    }

    /// The one line: the chosen configuration, its objective with interval and bounds, the
    /// guarantee (or why it does not hold), and the configurations it cannot be told apart from.
    public var recommendation: String {
        let objective = procedure.objective
        let unit = objective.metric.unit.isEmpty ? "" : " " + objective.metric.unit
        let differenceUnit = objective.metric.differenceUnit.isEmpty ? "" : " " + objective.metric.differenceUnit
        guard let best = outcome.best else {
            guard !objective.bounds.isEmpty else {
                return "Recommendation: none — \(objective.metric.label) has no values for any configuration"
            }
            let bounds = objective.bounds.map(\.description).joined(separator: " and ")
            return "Recommendation: none — no configuration meets \(bounds)"
        }
        let summary = outcome.summaries[best]
        let superlative = objective.goal == .minimize ? "lowest" : "highest"
        var line = "Recommendation: \(names[best]) — \(superlative) \(objective.metric.label), \(Format.significant(summary.mean))\(unit)"
            + (chosenInterval95.map { " (95 % CI \(Format.significant($0.lowerBound))–\(Format.significant($0.upperBound)), widened for "
                + "being picked from \(names.count))" } ?? "")
        if !objective.bounds.isEmpty {
            let held = objective.bounds.indices.map { index -> String in
                let bound = objective.bounds[index], mean = outcome.boundMeans[best][index]
                let text = "\(bound.metric.label) \(mean.map(Format.significant) ?? "n/a")\(bound.metric.unit.isEmpty ? "" : " " + bound.metric.unit) \(bound.atMost ? "≤" : "≥") \(Format.significant(bound.value))"
                return text + (Self.metOnlyWithinTolerance(mean: mean, bound: bound.value, tolerance: procedure.tolerances[index])
                    ? " only within the tolerance (±\(Format.significant(procedure.tolerances[index])): a mean this close may be on either side)" : "")
            }
            line += ", with \(Recommendation.list(held))"
        }
        let confidence = Int((procedure.confidence * 100).rounded())
        let stages = effort
        if outcome.guaranteeHolds {
            line += "; with probability ≥ \(confidence) % within \(Format.significant(procedure.indifferenceZone))\(differenceUnit)"
                + " of the best configuration meeting the bounds (\(stages))"
        } else {
            line += "; the guarantee does not hold: the procedure asked for \(outcome.screening.requiredSeeds) seeds and ran \(outcome.screening.seeds)"
                + " (maximumSeeds; \(stages))"
        }
        if !outcome.indistinguishable.isEmpty {
            let shown = outcome.indistinguishable.prefix(3).map { names[$0] }
            let more = outcome.indistinguishable.count > 3 ? " and \(outcome.indistinguishable.count - 3) more" : ""
            line += "; cannot be told apart from \(Recommendation.list(shown))\(more)"
        }
        return line
    }
}
