import BackgroundSim
import SimKernel

/// Selecting the best of k configurations under an objective with bounds: a fully sequential
/// procedure with common random numbers, and its guarantee.
///
/// Every configuration runs on the same seeds (common random numbers), so configurations are
/// compared by paired differences seed by seed. With α = 1 − confidence, split as α_f for the
/// bounds (α/3 when there are bounds, else 0) and α_c = α − α_f for selection, and
/// h²(p) = (n₀ − 1)[(2p)^(−2/(n₀ − 1)) − 1] (Kim & Nelson's constant, c = 1):
///
/// 1. **First stage.** Every configuration runs the first n₀ seeds. From them: Sᵢₗ², the variance
///    of the paired differences of i's and l's objective (oriented so that lower is better),
///    and s²ᵢⱼ, the variance of i's values on bound j.
/// 2. **Looks.** The configurations still in contention are looked at after n₀, 2n₀, 4n₀, …
///    seeds and at N, the seeds at which every test below must have ended:
///    N = max(n₀, ⌈h²(α_c/(k − 1)) Sᵢₗ²/δ²⌉ over pairs, ⌈h²(β) s²ᵢⱼ/ε²⌉ over undecided bounds),
///    β = α_f/(k·b), capped at the maximum seeds. Between looks they run the seeds in between.
/// 3. **Bounds** (Andradóttir, S. & Kim, S.-H. (2010), "Fully sequential procedures for
///    comparing constrained systems via simulation", *Naval Research Logistics* 57(5):403–421).
///    At a look after r seeds, with Rᵢⱼ the sum over them of (yᵢⱼ − q) for a bound y ≤ q (of
///    (q − y) for y ≥ q) and wᵢⱼ = max(0, h²(β) s²ᵢⱼ/(2ε) − εr/2): i *meets* j when
///    Rᵢⱼ < −wᵢⱼ and *misses* it when Rᵢⱼ > wᵢⱼ, while wᵢⱼ > 0; a configuration that misses a
///    bound is out.
/// 4. **Elimination** (Kim, S.-H. & Nelson, B. L. (2001), "A fully sequential procedure for
///    indifference-zone selection in simulation", *ACM TOMACS* 11(3):251–273, procedure KN,
///    which allows common random numbers). At a look after r seeds before the last, i is out when
///    some configuration l in contention that meets every bound has
///    Σ (Xᵢ − Xₗ) > max(0, h²(α_c/(k − 1)) Sᵢₗ²/(2δ) − δr/2) over the r seeds.
/// 5. **Selection.** The procedure ends at N, or earlier once at most one configuration is in
///    contention and no bound of one in contention is undecided. A bound still undecided is
///    decided by the mean over the seeds run. Among the configurations in contention that meet
///    every bound, the one with the best mean is chosen.
///
/// **Guarantee.** If each configuration's per-seed values are normally distributed (a year's
/// average of many days is close to it) and N was not capped, then with probability at least
/// 1 − α: every configuration's mean more than ε from a bound is on the side it was classified,
/// and the chosen configuration's mean is within δ (the indifference zone) of the best mean
/// among the configurations that meet the bounds. The parts' errors add (Bonferroni). Kim and
/// Nelson's bound is for a look after every seed; the looks here are a subset of those seeds, and
/// past a pair's or a bound's last seed (where w reaches 0) the test reads the sign of the sum.
/// The test suite checks the probability of correct selection by Monte Carlo. When N is capped
/// the guarantee does not hold, and the outcome says so.
///
/// Configurations in contention at the end that cannot be told apart from the chosen one —
/// whose paired difference from it is not shown positive at level α_c/(k − 1) over the seeds
/// run (comparisons with the best, Hsu 1984) — are listed with it.
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
    var selectionAlpha: Double { alpha - feasibilityAlpha }

    /// Kim and Nelson's h² for an error `p` from n₀ seeds: (n₀ − 1)[(2p)^(−2/(n₀ − 1)) − 1].
    func hSquared(_ p: Double) -> Double {
        let df = Double(firstStageSeeds - 1)
        return df * (PortableMath.exp(-2 / df * PortableMath.log(2 * p)) - 1)
    }

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

    /// Where the procedure stands after a look.
    public struct Screening: Sendable {
        /// `feasibility[configuration][bound]` as the sequential tests have decided it.
        public var feasibility: [[Feasibility]]
        /// The configurations still in contention, in order.
        public var survivors: [Int]
        /// For a configuration eliminated on the objective: one that beat it.
        public var eliminatedBy: [Int: Int]
        /// How many seeds each configuration has run (where it stopped, for those out).
        public var seedsRun: [Int]
        /// N as the procedure asks for it, and as it will run (capped).
        public var requiredSeeds: Int
        public var finalSeeds: Int
        /// The seeds of the latest look, and how many looks there have been.
        public var seeds: Int
        public var looks: Int
        /// Whether the procedure has ended: at N, or with at most one configuration in
        /// contention and nothing undecided.
        public var isFinished: Bool
        public var isCapped: Bool { requiredSeeds > finalSeeds }
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

    /// The per-pair error of elimination, α_c/(k − 1), and the per-bound error β = α_f/(k·b).
    private func pairError(_ k: Int) -> Double { selectionAlpha / Double(Swift.max(1, k - 1)) }
    private func boundError(_ k: Int) -> Double { feasibilityAlpha / Double(Swift.max(1, k * objective.bounds.count)) }

    /// The first look, after the first stage's `samples` (n₀ seeds): N, then the tests at n₀.
    public func screen(_ samples: Samples) -> Screening {
        let k = samples.objective.count
        let n0 = firstStageSeeds
        let stage = samples.prefix(n0)
        let applicable = (0..<k).filter { stage.objective[$0].compactMap { $0 }.count >= 2 }
        var state = Screening(feasibility: (0..<k).map { _ in objective.bounds.map { _ in .undecided } }, survivors: applicable,
                              eliminatedBy: [:], seedsRun: (0..<k).map { _ in n0 }, requiredSeeds: n0, finalSeeds: n0,
                              seeds: n0, looks: 0, isFinished: false)
        var required = n0
        let hPair = hSquared(pairError(k)), hBound = hSquared(boundError(k))
        for (position, i) in applicable.enumerated() {
            for l in applicable[(position + 1)...] {
                let spread = SampleSummary(differences(stage, i, l)).standardDeviation
                required = Swift.max(required, Self.seedsFor((hPair.squareRoot() * spread / indifferenceZone)))
            }
            for bound in objective.bounds.indices {
                let spread = SampleSummary(stage.bounds[bound][i].compactMap { $0 }).standardDeviation
                required = Swift.max(required, Self.seedsFor(hBound.squareRoot() * spread / tolerances[bound]))
            }
        }
        state.requiredSeeds = required
        state.finalSeeds = Swift.min(required, maximumSeeds)
        return look(samples, after: state, at: n0)
    }

    /// The seeds of the next look, or `nil` when the procedure has ended: twice the last, at
    /// most N.
    public func nextLook(after state: Screening) -> Int? {
        state.isFinished ? nil : Swift.min(state.finalSeeds, state.seeds * 2)
    }

    /// Every look's seeds up to `finalSeeds`: n₀, 2n₀, 4n₀, … and `finalSeeds`.
    public func lookSeeds(finalSeeds: Int) -> [Int] {
        var seeds = [firstStageSeeds]
        while seeds.last! < finalSeeds { seeds.append(Swift.min(finalSeeds, seeds.last! * 2)) }
        return seeds
    }

    /// The look after `r` seeds: the bounds' tests, then elimination, from `samples` (every
    /// configuration in contention has run at least `r` seeds).
    public func look(_ samples: Samples, after previous: Screening, at r: Int) -> Screening {
        var state = previous
        let k = samples.objective.count
        let stage = samples.prefix(firstStageSeeds)
        let current = samples.prefix(r)
        state.seeds = r
        state.looks += 1
        let last = r >= state.finalSeeds
        // Bounds: the triangular test of each undecided bound.
        let hBound = hSquared(boundError(k))
        for i in state.survivors {
            for (index, bound) in objective.bounds.enumerated() where state.feasibility[i][index] == .undecided {
                let values = current.bounds[index][i].compactMap { $0 }
                let spread = SampleSummary(stage.bounds[index][i].compactMap { $0 }).standardDeviation
                let excess = values.reduce(0) { $0 + (bound.atMost ? $1 - bound.value : bound.value - $1) }
                let width = Swift.max(0, hBound * spread * spread / (2 * tolerances[index]) - tolerances[index] * Double(values.count) / 2)
                guard values.count >= 2 else { continue }
                if width == 0 {
                    // The region has closed: the side the mean is on decides.
                    state.feasibility[i][index] = excess > 0 ? .misses : .meets
                } else if excess < -width {
                    state.feasibility[i][index] = .meets
                } else if excess > width {
                    state.feasibility[i][index] = .misses
                }
            }
        }
        var out = state.survivors.filter { state.feasibility[$0].contains(.misses) }
        // Elimination on the objective, by configurations known to meet every bound.
        if !last {
            let hPair = hSquared(pairError(k))
            let eliminators = state.survivors.filter { !out.contains($0) && state.feasibility[$0].allSatisfy { $0 == .meets } }
            for i in state.survivors where !out.contains(i) {
                for l in eliminators where l != i {
                    let d = differences(current, i, l)
                    guard d.count >= 2 else { continue }
                    let spread = SampleSummary(differences(stage, i, l)).standardDeviation
                    let width = Swift.max(0, hPair * spread * spread / (2 * indifferenceZone) - indifferenceZone * Double(d.count) / 2)
                    if d.reduce(0, +) > width {
                        state.eliminatedBy[i] = l
                        out.append(i)
                        break
                    }
                }
            }
        }
        state.survivors.removeAll { out.contains($0) }
        for i in 0..<k where state.survivors.contains(i) || out.contains(i) { state.seedsRun[i] = r }
        // Ended at N, or with nothing left to decide.
        let undecided = state.survivors.contains { state.feasibility[$0].contains(.undecided) }
        state.isFinished = last || (state.survivors.count <= 1 && !undecided)
        return state
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
        /// over the seeds run, for those in contention).
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
        /// Each configuration's values on the seeds it ran.
        public var samples: Samples
        /// Whether the guarantee holds: N was not capped, or the procedure ended before the cap
        /// (every other configuration out and nothing undecided), so the cap never bound.
        public var guaranteeHolds: Bool { !(screening.isCapped && screening.seeds >= screening.finalSeeds) }
    }

    /// Step 5, from every configuration's samples (each has run `screening.seedsRun` seeds).
    public func select(_ samples: Samples, screening: Screening) -> Outcome {
        let k = samples.objective.count
        let seedsRun = screening.seedsRun
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
            let tc = t(pairError(k), screening.seeds)
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
                       summaries: summaries, boundMeans: boundMeans, seedsRun: seedsRun,
                       samples: Samples(objective: full.map { $0.objective[0] }, bounds: objective.bounds.indices.map { bound in full.map { $0.bounds[bound][0] } }))
    }

    /// Runs the whole procedure: `run(configurations, seeds)` runs the given configurations on
    /// the seeds at the given indices (0-based, in order) and returns their samples, one entry
    /// per configuration given. The first stage runs every configuration; each later look runs
    /// those still in contention from the last look's seeds to its own.
    public func run(_ count: Int, _ runSeeds: (_ configurations: [Int], _ seeds: Range<Int>) throws -> [Samples]) rethrows -> Outcome {
        var samples = Samples(objective: Array(repeating: [], count: count),
                              bounds: objective.bounds.map { _ in Array(repeating: [], count: count) })
        func add(_ configurations: [Int], _ seeds: Range<Int>) throws {
            for (configuration, more) in zip(configurations, try runSeeds(configurations, seeds)) {
                samples.objective[configuration] += more.objective[0]
                for bound in objective.bounds.indices { samples.bounds[bound][configuration] += more.bounds[bound][0] }
            }
        }
        try add(Array(0..<count), 0..<firstStageSeeds)
        var state = screen(samples)
        while let next = nextLook(after: state) {
            try add(state.survivors, state.seeds..<next)
            state = look(samples, after: state, at: next)
        }
        return select(samples, screening: state)
    }
}
