import BackgroundSim

/// A sweep composed in Swift: any list of named scenarios — a parameter's values, or a policy
/// made per cell — run on the same seeds, with each cell's objectives and their Pareto front.
///
///     let cells = [5.0, 30, 120].map { minutes in
///         ("delay \(minutes)", base.running("mine") { MyPolicy(delayMinutes: minutes) })
///     }
///     let sweep = try ScenarioSweep.run(cells, objectives: ["work.latencyMinutes.p90", "energy.appBatteryPercentPerDay"],
///                                       seeds: Array(1...20), days: 90, jobs: 2)
///     print(sweep.paretoFront.map { sweep.cells[$0].name })
///
/// Sweep files (`bgsim sweep`) are the same idea as data, with sharding and resumption.
public struct ScenarioSweep: Sendable {
    /// One cell: its name, each objective's summary across seeds, and each objective's value on
    /// each seed (`nil` where it does not apply).
    public struct Cell: Sendable {
        public var name: String
        public var objectives: [SampleSummary]
        public var perSeed: [[Double?]] = []
    }

    public var objectives: [ComparedMetric]
    public var seeds: [UInt64]
    public var days: Int
    public var cells: [Cell]

    /// Runs every cell on `seeds`; `objectives` are metric keys of ``ComparedMetric/standard``
    /// or of the app's own metrics a cell declares (`app.metrics`).
    ///
    /// - Throws: ``ScenarioError`` before any run if a cell's scenario, `days`, or an objective
    ///   key is invalid.
    public static func run(_ cells: [(name: String, scenario: Scenario)], objectives keys: [String], seeds: [UInt64], days: Int,
                           jobs: Int, progress: (@Sendable () -> Void)? = nil) throws -> ScenarioSweep {
        var objectives: [ComparedMetric] = []
        let known = ComparedMetric.standard(including: cells.map(\.scenario))
        for (index, key) in keys.enumerated() {
            guard let metric = known.first(where: { $0.key == key }) else {
                throw ScenarioError(source: "ScenarioSweep", issues: [ScenarioIssue(
                    path: "objectives[\(index)]", message: "expected one of \(known.map { "\"\($0.key)\"" }.joined(separator: ", ")), got \"\(key)\"")])
            }
            objectives.append(metric)
        }
        try SimulationRunner.requireValid(days: days)
        for cell in cells { try cell.scenario.requireValid() }
        let results = try cells.map { cell in
            let runs = try Replications.run(cell.scenario, seeds: seeds, days: days, jobs: jobs, progress: progress)
            return Cell(name: cell.name, objectives: objectives.map { SampleSummary(runs.compactMap($0.value)) },
                        perSeed: objectives.map { metric in runs.map(metric.value) })
        }
        return ScenarioSweep(objectives: objectives, seeds: seeds, days: days, cells: results)
    }

    /// The indices of the cells no other cell beats on every objective (each oriented so that
    /// its better direction counts), in cell order; cells where an objective does not apply
    /// are on no front.
    public var paretoFront: [Int] {
        let costs: [[Double]?] = cells.map { cell in
            var costs: [Double] = []
            for (metric, summary) in zip(objectives, cell.objectives) {
                guard summary.count > 0 else { return nil }
                costs.append(metric.better == .higher ? -summary.mean : summary.mean)
            }
            return costs
        }
        return ParetoFront.indices(costs)
    }

    /// The rankings under noise, for two objectives (``SweepRanking``).
    var ranking: SweepRanking? {
        guard objectives.count == 2 else { return nil }
        return SweepRanking(costs: objectives.indices.map { objective in
            cells.map { cell in cell.perSeed[objective].map { value in value.map { objectives[objective].better == .higher ? -$0 : $0 } } }
        })
    }

    /// With two objectives, the cells no other cell beats on both with confidence (paired,
    /// Bonferroni; ``SweepRanking``), a superset of ``paretoFront``; otherwise ``paretoFront``.
    public var possibleFront: [Int] { ranking?.possibleFront ?? paretoFront }

    /// With two objectives, the cells that cannot be told apart from the best on objective
    /// `objective` (paired comparisons with the best); empty otherwise.
    public func tiedWithBest(objective: Int) -> [Int] { ranking?.indistinguishable(fromBest: objective) ?? [] }
}

/// The Pareto front of points given as costs (lower is better in every coordinate).
enum ParetoFront {
    /// The indices of the points no other point dominates (no worse in every coordinate and
    /// better in one); `nil` points are on no front and dominate nothing.
    static func indices(_ points: [[Double]?]) -> [Int] {
        points.indices.filter { index in
            guard let point = points[index] else { return false }
            return !points.contains { other in
                guard let other else { return false }
                return zip(other, point).allSatisfy { $0 <= $1 } && zip(other, point).contains { $0 < $1 }
            }
        }
    }
}
