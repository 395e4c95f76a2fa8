import BackgroundSim
import SimKernel

/// One line a team can act on: which arm to choose under an objective, and how sure that is.
///
/// Among the arms whose means meet every bound, the one with the best mean on the objective's
/// metric is recommended. The recommendation is **confident** when every statement it rests on
/// holds at a joint confidence of 1 − α (α = 0.05), each statement tested one-sided at α / m
/// with m the number of statements (Bonferroni, valid whatever the correlation between arms
/// run on the same seeds) by a confidence limit widened for skewed metrics
/// (``SampleSummary/confidenceLimit(_:level:upper:)``, ``SkewnessAllowance``):
/// - the chosen arm meets each bound (its one-sided confidence bound is on the right side);
/// - it beats every other arm that meets the bounds on the objective (paired differences,
///   seed by seed, since every arm runs the same seeds);
/// - every arm that misses a bound does miss it (on the bound it misses most).
///
/// Arms for which the second statement fails "cannot be told apart" from the chosen one; arms
/// for which the third fails "may meet the bounds". Both are listed.
public struct Recommendation: Sendable {
    /// The index of the recommended arm, if any meets the bounds.
    public var choice: Int?
    /// Whether every statement holds at the joint confidence.
    public var confident: Bool
    /// Arms that cannot be told apart from the choice on the objective, or that may meet the
    /// bounds although their means do not.
    public var indistinguishable: [Int]
    /// The line, starting "Recommendation:".
    public var line: String

    /// The default joint error rate of a confident recommendation.
    public static let defaultAlpha = 0.05

    /// Chooses among arms.
    ///
    /// - Parameters:
    ///   - names: The arms' names.
    ///   - objective: What to optimise and the bounds.
    ///   - alpha: The joint error rate of a confident recommendation.
    ///   - values: For a metric, each arm's value on each seed (`nil` where it does not apply),
    ///     `values[arm][seed]`, the same seeds for every arm.
    public static func choose(names: [String], objective: Objective, alpha: Double = defaultAlpha,
                              values: (ComparedMetric) -> [[Double?]]) -> Recommendation {
        let objectiveValues = values(objective.metric)
        let boundValues = objective.bounds.map { values($0.metric) }
        func mean(_ samples: [Double?]) -> Double? {
            let present = samples.compactMap { $0 }
            return present.isEmpty ? nil : SampleSummary(present).mean
        }
        let arms = names.indices.filter { mean(objectiveValues[$0]) != nil }
        // How far an arm's means are from meeting the bounds: 0 when it meets them all.
        func violation(_ arm: Int) -> Double {
            zip(objective.bounds, boundValues).reduce(0) { worst, entry in
                guard let value = mean(entry.1[arm]) else { return .infinity }
                let bound = entry.0
                let gap = bound.atMost ? value - bound.value : bound.value - value
                return Swift.max(worst, gap / Swift.max(abs(bound.value), 1e-12))
            }
        }
        guard !arms.isEmpty else {
            return Recommendation(choice: nil, confident: false, indistinguishable: [],
                                  line: "Recommendation: none — \(objective.metric.label) does not apply to any arm (no values)")
        }
        let feasible = arms.filter { violation($0) <= 0 }
        let unit = objective.metric.unit.isEmpty ? "" : " " + objective.metric.unit
        guard let best = feasible.min(by: { (objective.cost(mean(objectiveValues[$0])!), $0) < (objective.cost(mean(objectiveValues[$1])!), $1) }) else {
            let nearest = arms.min { (violation($0), $0) < (violation($1), $1) }
            let bounds = objective.bounds.map(\.description).joined(separator: " and ")
            let line = "Recommendation: none — no arm meets \(bounds)"
                + (nearest.map { "; the nearest is \(names[$0]) (" + boundSummary(objective, boundValues, arm: $0) + ")" } ?? "")
            return Recommendation(choice: nil, confident: false, indistinguishable: [], line: line)
        }
        let rivals = feasible.filter { $0 != best }
        let infeasible = arms.filter { violation($0) > 0 }
        let statements = objective.bounds.count + rivals.count + infeasible.count
        let level = alpha / Double(Swift.max(1, statements))

        // The chosen arm meets each bound.
        var doubtful: [String] = []
        for (bound, samples) in zip(objective.bounds, boundValues) {
            guard let limit = SampleSummary.confidenceLimit(samples[best].compactMap { $0 }, level: level, upper: bound.atMost) else {
                doubtful.append("too few seeds to tell whether \(bound.metric.label) stays within \(Format.significant(bound.value))")
                continue
            }
            if !bound.holds(for: limit) {
                doubtful.append("\(bound.metric.label) may be \(bound.atMost ? "above" : "below") \(Format.significant(bound.value)) (\(bound.atMost ? "upper" : "lower") bound \(Format.significant(limit)))")
            }
        }
        // It beats every rival: the upper bound of cost(best) − cost(rival) is below zero.
        var tied: [Int] = []
        for rival in rivals {
            let differences = zip(objectiveValues[best], objectiveValues[rival]).compactMap { b, r -> Double? in
                guard let b, let r else { return nil }
                return objective.cost(b) - objective.cost(r)
            }
            if !(SampleSummary.confidenceLimit(differences, level: level, upper: true).map { $0 < 0 } ?? false) { tied.append(rival) }
        }
        // Every infeasible arm does miss a bound.
        var perhapsFeasible: [Int] = []
        for arm in infeasible {
            let misses = zip(objective.bounds, boundValues).contains { bound, samples in
                guard let value = mean(samples[arm]), !bound.holds(for: value),
                      let limit = SampleSummary.confidenceLimit(samples[arm].compactMap { $0 }, level: level, upper: !bound.atMost) else { return false }
                return !bound.holds(for: limit)
            }
            if !misses { perhapsFeasible.append(arm) }
        }

        let bestMean = mean(objectiveValues[best])!
        let superlative = objective.goal == .minimize ? "lowest" : "highest"
        var line = "Recommendation: \(names[best]) — \(superlative) \(objective.metric.label), \(Format.significant(bestMean))\(unit)"
        if let runnerUp = rivals.min(by: { (objective.cost(mean(objectiveValues[$0])!), $0) < (objective.cost(mean(objectiveValues[$1])!), $1) }) {
            let gap = abs(mean(objectiveValues[runnerUp])! - bestMean)
            let gapUnit = objective.metric.differenceUnit.isEmpty ? "" : " " + objective.metric.differenceUnit
            line += " (\(Format.significant(gap))\(gapUnit) \(objective.goal == .minimize ? "below" : "above") \(names[runnerUp]))"
        }
        if !objective.bounds.isEmpty {
            let held = zip(objective.bounds, boundValues).map { bound, samples in
                let value = mean(samples[best]).map(Format.significant) ?? "n/a"
                return "\(bound.metric.label) \(value)\(bound.metric.unit.isEmpty ? "" : " " + bound.metric.unit) \(bound.atMost ? "≤" : "≥") \(Format.significant(bound.value))"
            }
            let plural = objective.bounds.count == 1 ? "the bound" : "the bounds"
            line += ", with \(Recommendation.list(held)) (\(feasible.count) of \(arms.count) arms meet \(plural))"
        }
        let confident = doubtful.isEmpty && tied.isEmpty && perhapsFeasible.isEmpty
        if confident {
            line += "; confident at \(Format.significant((1 - alpha) * 100)) % jointly over \(statements) statement\(statements == 1 ? "" : "s")"
        } else {
            var reasons = doubtful
            if !tied.isEmpty { reasons.append("cannot be told apart from \(list(tied.map { names[$0] })) on \(objective.metric.label)") }
            if !perhapsFeasible.isEmpty { reasons.append("\(list(perhapsFeasible.map { names[$0] })) may also meet the bounds") }
            line += "; not confident: " + reasons.joined(separator: "; ")
        }
        return Recommendation(choice: best, confident: confident, indistinguishable: tied + perhapsFeasible, line: line)
    }

    /// "app battery use 0.041 %/day" for every bound of `arm`.
    static func boundSummary(_ objective: Objective, _ boundValues: [[[Double?]]], arm: Int) -> String {
        zip(objective.bounds, boundValues).map { bound, samples in
            let present = samples[arm].compactMap { $0 }
            let value = present.isEmpty ? "n/a" : Format.significant(SampleSummary(present).mean)
            return "\(bound.metric.label) \(value)\(bound.metric.unit.isEmpty ? "" : " " + bound.metric.unit)"
        }.joined(separator: ", ")
    }

    /// "a", "a and b", "a, b and c".
    static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}
