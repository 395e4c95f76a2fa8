import BackgroundSim
import SimKernel

/// Selecting the best of k configurations under an objective with bounds: a two-stage
/// screen-and-select procedure with common random numbers, and its guarantee.
///
/// Every configuration runs on the same seeds (common random numbers), so configurations are
/// compared by paired differences seed by seed. With α = 1 − confidence, split as α_f for the
/// bounds (α/3 when there are bounds, else 0) and the rest equally between screening (α_s) and
/// selection (α_c):
///
/// 1. **First stage.** Every configuration runs the first n₀ seeds.
/// 2. **Bounds.** For each configuration and bound, with the n₀ values' mean ȳ and standard
///    deviation s, and t = t(1 − β, n₀ − 1), β = α_f / (k · b): the configuration *meets* the
///    bound when ȳ ± t·s/√n₀ is entirely on its right side, *misses* it when entirely on the
///    wrong side, and is *undecided* otherwise. A configuration that misses a bound is out.
/// 3. **Screening** (Nelson, Swann, Goldsman & Song (2001), "Simple procedures for selecting the
///    best simulated system when the number of alternatives is large", *Operations Research*
///    49(6):950–963, with the paired variances that common random numbers call for). With the
///    objective oriented so that lower is better, d̄ᵢₗ and Sᵢₗ the mean and standard deviation of
///    the paired differences of i and l over n₀ seeds, and t₁ = t(1 − α_s/(k − 1), n₀ − 1),
///    configuration i is out when some configuration l that meets every bound has
///    d̄ᵢₗ > max(0, t₁·Sᵢₗ/√n₀ − δ).
/// 4. **Second stage** (Stein's two-stage sampling in the Bonferroni form valid under any
///    correlation: Clark & Yang (1986), "A Bonferroni selection procedure when using common
///    random numbers with unknown variances", *Proceedings of the 1986 Winter Simulation
///    Conference*, 313–315). Every survivor runs up to N seeds, N the largest of n₀,
///    ⌈(t₂·Sᵢₗ/δ)²⌉ over pairs of survivors with t₂ = t(1 − α_c/(k − 1), n₀ − 1), and, for an
///    undecided bound, ⌈(t·s/ε)²⌉ with the bound's tolerance ε — capped at the maximum seeds.
/// 5. **Selection.** An undecided bound is decided by the mean over N seeds. Among the survivors
///    that meet every bound, the one with the best mean is chosen.
///
/// **Guarantee.** If each configuration's per-seed values are normally distributed (a year's
/// average of many days is close to it) and N was not capped, then with probability at least
/// 1 − α: every configuration's mean more than ε from a bound is on the side it was classified,
/// and the chosen configuration's mean is within δ (the indifference zone) of the best mean
/// among the configurations that meet the bounds. The three parts' errors add (Bonferroni), so
/// the combination holds whatever the dependence between stages. When N is capped the guarantee
/// does not hold, and the outcome says so.
///
/// Configurations that cannot be told apart from the chosen one — whose paired difference from
/// it is not shown positive at level α_c/(k − 1) over N seeds (comparisons with the best, Hsu
/// 1984) — are listed with it.
public struct TuningProcedure: Sendable {
    /// What to optimise and the bounds.
    public var objective: Objective
    /// δ: a difference in the objective's mean smaller than this does not matter, in the
    /// objective's difference unit. Default: the metric's margin.
    public var indifferenceZone: Double
    /// ε for each bound: a mean this close to a bound may be classified either way. Default:
    /// each bound metric's margin.
    public var tolerances: [Double]
    /// 1 − α. Valid 0.5–0.999. Default 0.95.
    public var confidence: Double = 0.95
    /// n₀. Valid 5–10,000. Default 10.
    public var firstStageSeeds: Int = 10
    /// The cap on N. Valid n₀–100,000. Default 200.
    public var maximumSeeds: Int = 200

    public init(objective: Objective, indifferenceZone: Double? = nil, tolerances: [Double]? = nil) {
        self.objective = objective
        self.indifferenceZone = indifferenceZone ?? objective.metric.margin
        self.tolerances = tolerances ?? objective.bounds.map(\.metric.margin)
    }

    /// What is wrong with the settings, as field paths and messages; empty when valid.
    public var issues: [ScenarioIssue] {
        var issues: [ScenarioIssue] = []
        if !(indifferenceZone > 0 && indifferenceZone.isFinite) {
            issues.append(ScenarioIssue(path: "indifferenceZone", message: "expected a finite number > 0 in the objective's unit, got \(indifferenceZone)"))
        }
        if tolerances.count != objective.bounds.count {
            issues.append(ScenarioIssue(path: "tolerances", message: "expected one tolerance per bound (\(objective.bounds.count)), got \(tolerances.count)"))
        }
        for (index, tolerance) in tolerances.enumerated() where !(tolerance > 0 && tolerance.isFinite) {
            issues.append(ScenarioIssue(path: "tolerances[\(index)]", message: "expected a finite number > 0, got \(tolerance)"))
        }
        if !(0.5...0.999).contains(confidence) {
            issues.append(ScenarioIssue(path: "confidence", message: "expected 0.5–0.999, got \(confidence)"))
        }
        if !(5...10_000).contains(firstStageSeeds) {
            issues.append(ScenarioIssue(path: "firstStageSeeds", message: "expected 5–10,000, got \(firstStageSeeds)"))
        }
        if !(firstStageSeeds...100_000).contains(maximumSeeds) {
            issues.append(ScenarioIssue(path: "maximumSeeds", message: "expected \(firstStageSeeds) (firstStageSeeds) to 100,000, got \(maximumSeeds)"))
        }
        return issues
    }

    var alpha: Double { 1 - confidence }
    var feasibilityAlpha: Double { objective.bounds.isEmpty ? 0 : alpha / 3 }
    var screeningAlpha: Double { (alpha - feasibilityAlpha) / 2 }
    var selectionAlpha: Double { (alpha - feasibilityAlpha) / 2 }

    /// Each configuration's values on each seed, `nil` where a metric does not apply.
    public struct Samples: Sendable {
        /// `objective[configuration][seed]`.
        public var objective: [[Double?]]
        /// `bounds[bound][configuration][seed]`.
        public var bounds: [[[Double?]]]

        public init(objective: [[Double?]], bounds: [[[Double?]]]) {
            self.objective = objective
            self.bounds = bounds
        }

        /// Only the first `seeds` seeds.
        func prefix(_ seeds: Int) -> Samples {
            Samples(objective: objective.map { Array($0.prefix(seeds)) }, bounds: bounds.map { $0.map { Array($0.prefix(seeds)) } })
        }
    }

    /// How a configuration stands against a bound.
    public enum Feasibility: String, Sendable {
        case meets, misses, undecided
    }

    /// What the first stage decided.
    public struct Screening: Sendable {
        /// `feasibility[configuration][bound]` after the first stage.
        public var feasibility: [[Feasibility]]
        /// The configurations that go on, in order.
        public var survivors: [Int]
        /// For a configuration screened out on the objective: one that beat it.
        public var eliminatedBy: [Int: Int]
        /// N as the procedure asks for it, and as run (capped).
        public var requiredSeeds: Int
        public var seeds: Int
        public var isCapped: Bool { requiredSeeds > seeds }
    }

    /// The cost (lower is better) of each seed's objective value.
    private func costs(_ values: [Double?]) -> [Double?] { values.map { $0.map(objective.cost) } }

    /// Paired differences of two configurations' costs, on the seeds where both apply.
    private func differences(_ samples: Samples, _ i: Int, _ l: Int) -> [Double] {
        zip(costs(samples.objective[i]), costs(samples.objective[l])).compactMap { a, b in a.flatMap { a in b.map { a - $0 } } }
    }

    private func t(_ level: Double, _ count: Int) -> Double {
        StudentT.quantile(1 - level, degreesOfFreedom: Double(Swift.max(1, count - 1)))
    }

    /// Steps 2–4: classifies the bounds, screens on the objective and sets N, from the first
    /// stage's `samples` (n₀ seeds).
    public func screen(_ samples: Samples) -> Screening {
        let k = samples.objective.count
        let n0 = firstStageSeeds
        let stage = samples.prefix(n0)
        let beta = feasibilityAlpha / Double(Swift.max(1, k * objective.bounds.count))
        var feasibility = (0..<k).map { configuration in
            objective.bounds.indices.map { bound -> Feasibility in
                let values = stage.bounds[bound][configuration].compactMap { $0 }
                guard values.count >= 2 else { return .undecided }
                let summary = SampleSummary(values)
                let width = t(beta, values.count) * summary.standardDeviation / Double(values.count).squareRoot()
                let limit = objective.bounds[bound]
                let (worst, best) = limit.atMost ? (summary.mean + width, summary.mean - width) : (summary.mean - width, summary.mean + width)
                if limit.holds(for: worst) { return .meets }
                if !limit.holds(for: best) { return .misses }
                return .undecided
            }
        }
        let applicable = (0..<k).filter { stage.objective[$0].compactMap { $0 }.count >= 2 }
        for configuration in 0..<k where !applicable.contains(configuration) {
            feasibility[configuration] = feasibility[configuration].map { $0 == .meets ? .undecided : $0 }
        }
        let candidates = applicable.filter { !feasibility[$0].contains(.misses) }
        let eliminators = candidates.filter { feasibility[$0].allSatisfy { $0 == .meets } }
        var eliminatedBy: [Int: Int] = [:]
        if k > 1 {
            let t1 = t(screeningAlpha / Double(k - 1), n0)
            for i in candidates {
                for l in eliminators where l != i {
                    let d = differences(stage, i, l)
                    guard d.count >= 2 else { continue }
                    let summary = SampleSummary(d)
                    if summary.mean > Swift.max(0, t1 * summary.standardDeviation / Double(d.count).squareRoot() - indifferenceZone) {
                        eliminatedBy[i] = l
                        break
                    }
                }
            }
        }
        let survivors = candidates.filter { eliminatedBy[$0] == nil }
        var required = n0
        if survivors.count >= 2 {
            let t2 = t(selectionAlpha / Double(k - 1), n0)
            for (position, i) in survivors.enumerated() {
                for l in survivors[(position + 1)...] {
                    let spread = SampleSummary(differences(stage, i, l)).standardDeviation
                    required = Swift.max(required, Self.seedsFor(t2 * spread / indifferenceZone))
                }
            }
        }
        for i in survivors where !objective.bounds.isEmpty {
            let tf = t(beta, n0)
            for (bound, state) in feasibility[i].enumerated() where state == .undecided {
                let spread = SampleSummary(stage.bounds[bound][i].compactMap { $0 }).standardDeviation
                required = Swift.max(required, Self.seedsFor(tf * spread / tolerances[bound]))
            }
        }
        return Screening(feasibility: feasibility, survivors: survivors, eliminatedBy: eliminatedBy,
                         requiredSeeds: required, seeds: Swift.min(required, maximumSeeds))
    }

    /// ⌈x²⌉, saturating instead of overflowing.
    static func seedsFor(_ ratio: Double) -> Int {
        let squared = (ratio * ratio).rounded(.up)
        return squared.isFinite && squared < 1e9 ? Int(squared) : 1_000_000_000
    }

    /// What the procedure chose.
    public struct Outcome: Sendable {
        public var screening: Screening
        /// `feasibility[configuration][bound]` at the end (undecided bounds decided by the mean
        /// over N seeds for survivors).
        public var feasibility: [[Feasibility]]
        /// The chosen configuration, if any survivor meets every bound.
        public var best: Int?
        /// Survivors meeting every bound that cannot be told apart from the best.
        public var indistinguishable: [Int]
        /// Each configuration's objective over the seeds it ran: mean and 95 % interval.
        public var summaries: [SampleSummary]
        /// Each configuration's bounds' means, `boundMeans[configuration][bound]`.
        public var boundMeans: [[Double?]]
        /// How many seeds each configuration ran.
        public var seedsRun: [Int]
        /// Whether the guarantee holds (N was not capped).
        public var guaranteeHolds: Bool { !screening.isCapped }
    }

    /// Step 5, from every configuration's samples: n₀ seeds for all, N for the survivors.
    public func select(_ samples: Samples, screening: Screening) -> Outcome {
        let k = samples.objective.count
        let survivors = Set(screening.survivors)
        let seedsRun = (0..<k).map { survivors.contains($0) ? screening.seeds : firstStageSeeds }
        let full = (0..<k).map { configuration in
            Samples(objective: [Array(samples.objective[configuration].prefix(seedsRun[configuration]))],
                    bounds: samples.bounds.map { [Array($0[configuration].prefix(seedsRun[configuration]))] })
        }
        func mean(_ values: [Double?]) -> Double? {
            let present = values.compactMap { $0 }
            return present.isEmpty ? nil : SampleSummary(present).mean
        }
        var feasibility = screening.feasibility
        for i in screening.survivors {
            for bound in objective.bounds.indices where feasibility[i][bound] == .undecided {
                let value = mean(full[i].bounds[bound][0])
                feasibility[i][bound] = value.map { objective.bounds[bound].holds(for: $0) ? .meets : .misses } ?? .misses
            }
        }
        let summaries = full.map { SampleSummary($0.objective[0].compactMap { $0 }) }
        let feasible = screening.survivors.filter { feasibility[$0].allSatisfy { $0 == .meets } && summaries[$0].count > 0 }
        let best = feasible.min { (objective.cost(summaries[$0].mean), $0) < (objective.cost(summaries[$1].mean), $1) }
        var indistinguishable: [Int] = []
        if let best, k > 1 {
            let finalStage = samples.prefix(screening.seeds)
            let tc = t(selectionAlpha / Double(k - 1), screening.seeds)
            for l in feasible where l != best {
                let d = differences(finalStage, l, best)
                let summary = SampleSummary(d)
                if d.count < 2 || summary.mean - tc * summary.standardDeviation / Double(d.count).squareRoot() <= 0 {
                    indistinguishable.append(l)
                }
            }
        }
        let boundMeans = full.map { configuration in configuration.bounds.map { mean($0[0]) } }
        return Outcome(screening: screening, feasibility: feasibility, best: best, indistinguishable: indistinguishable,
                       summaries: summaries, boundMeans: boundMeans, seedsRun: seedsRun)
    }
}
