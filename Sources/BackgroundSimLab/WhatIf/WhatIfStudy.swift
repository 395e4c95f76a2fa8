import BackgroundSim

/// One or more scenarios run in every cell of a ``WhatIfGrid`` on the same seeds: what each
/// policy costs in battery, and how well its work goes, across the conditions users live in.
public struct WhatIfStudy: Sendable {
    /// The figures every what-if reports, in order: the app's battery use first.
    public static let standardMetrics: [ComparedMetric] = ["energy.appBatteryPercentPerDay", "energy.appJoulesPerDay",
                                                           "device.batteryDrainPercentPerDay", "work.allItemsLatencyMinutes.p90",
                                                           "work.completionPercent"].map { key in
        ComparedMetric.standard.first { $0.key == key }!
    }

    /// ``standardMetrics``, then the app's own metrics the scenarios declare (`app.metrics`),
    /// each key once: the figures this study holds for every cell, in `summaries`' order.
    public static func metrics(including scenarios: [Scenario]) -> [ComparedMetric] {
        let standardKeys = Set(ComparedMetric.standard.map(\.key))
        return standardMetrics + ComparedMetric.standard(including: scenarios).filter { !standardKeys.contains($0.key) }
    }

    /// The figures this study holds for every cell: ``standardMetrics`` and the app's own.
    public var metrics: [ComparedMetric] = standardMetrics

    public var grid: WhatIfGrid
    public var names: [String]
    public var seeds: [UInt64]
    public var days: Int
    /// `summaries[scenario][cell][metric]`: each metric's summary across seeds.
    public var summaries: [[[SampleSummary]]]
    /// For each scenario, its runs in the typical cell (``WhatIfGrid/typicalCell``) as the
    /// reports draw them: the launch decisions per day by reason among the rest.
    package var typicalProfiles: [ScenarioProfile] = []
    /// The iOS model's uncertain numbers each seed drew, if the runs drew them: every interval
    /// then includes what we do not know about iOS.
    public var modelUncertainty: ModelUncertainty?
    /// Each scenario's app battery use on each seed in the typical cell, `[scenario][seed]`.
    package var typicalBattery: [[Double?]] = []

    /// Runs every scenario in every cell of `grid` with `seeds`.
    ///
    /// - Throws: ``ScenarioError`` before any run when a base scenario is invalid or a cell's
    ///   settings do not make a valid scenario with it.
    public static func run(_ scenarios: [(name: String, scenario: Scenario)], grid: WhatIfGrid = .standard, seeds: [UInt64],
                           days: Int, jobs: Int, modelUncertainty: ModelUncertainty? = nil,
                           progress: (@Sendable () -> Void)? = nil) throws -> WhatIfStudy {
        try SimulationRunner.requireValid(days: days)
        let cells = try scenarios.map { entry in
            try entry.scenario.requireValid()
            return try (0..<grid.cellCount).map { cell in try grid.scenario(entry.scenario, cell: cell) }
        }
        // A number a condition sets is the condition: it is not drawn over.
        let modelUncertainty = modelUncertainty.map {
            $0.fixing(grid.dimensions.flatMap { $0.levels.flatMap { $0.settings.map(\.path) } }).narrowed(by: scenarios.first?.scenario.plausible ?? [])
        }
        var typicalProfiles: [ScenarioProfile] = []
        var typicalBattery: [[Double?]] = []
        // A cell's runs are taken a batch at a time and reduced to the metrics' values (and, in
        // the typical cell, the report's profile): memory holds one batch of runs, not a cell's.
        let batch = 256 * Swift.max(1, jobs)
        let metrics = metrics(including: scenarios.map(\.scenario))
        let summaries = try cells.map { scenarioCells in
            try scenarioCells.enumerated().map { cell, scenario in
                var values = metrics.map { _ in [Double]() }
                var profile = ScenarioProfile.Accumulator()
                var battery: [Double?] = []
                for start in stride(from: 0, to: seeds.count, by: batch) {
                    let part = Array(seeds[start..<Swift.min(seeds.count, start + batch)])
                    for result in try Replications.run(scenario, seeds: part, days: days, jobs: jobs, modelUncertainty: modelUncertainty,
                                                       progress: progress) {
                        for (index, metric) in metrics.enumerated() {
                            if let value = metric.value(result) { values[index].append(value) }
                        }
                        if cell == grid.typicalCell {
                            profile.add(result)
                            battery.append(metrics[0].value(result))
                        }
                    }
                }
                if cell == grid.typicalCell {
                    typicalProfiles.append(profile.profile)
                    typicalBattery.append(battery)
                }
                return values.map(SampleSummary.init)
            }
        }
        var study = WhatIfStudy(grid: grid, names: scenarios.map(\.name), seeds: seeds, days: days, summaries: summaries)
        study.metrics = metrics
        study.typicalProfiles = typicalProfiles
        study.typicalBattery = typicalBattery
        study.modelUncertainty = modelUncertainty
        return study
    }

    /// Scenario `scenario`'s mean of `metric` over the cells weighted by the grid's shares
    /// (``WhatIfGrid/cellWeights``): what the population the shares describe sees on average.
    /// `nil` if the grid has no shares, or no cell has the metric.
    public func weightedMean(scenario: Int, metric: Int) -> Double? {
        guard let weights = grid.cellWeights else { return nil }
        var total = 0.0, weight = 0.0
        for (cell, w) in weights.enumerated() where summaries[scenario][cell][metric].count > 0 {
            total += w * summaries[scenario][cell][metric].mean
            weight += w
        }
        return weight > 0 ? total / weight : nil
    }

    /// Under model uncertainty: the numbers of the iOS model the app battery use in typical
    /// conditions follows most, and — with two or more scenarios — whether the one that uses the
    /// least stays so across them (``Sensitivity``); `nil` without model uncertainty or with
    /// fewer than 8 seeds.
    public var sensitivity: Sensitivity? {
        guard let uncertainty = modelUncertainty, typicalBattery.count == names.count else { return nil }
        let battery = metrics[0]
        let objective = Objective(.minimize, battery)
        let values = typicalBattery
        return Sensitivity.analyse(names: names, seeds: seeds, uncertainty: uncertainty, objective: objective,
                                   values: { $0.key == battery.key ? values : nil }) { indices in
            Recommendation.choose(names: names, objective: objective) { _ in values.map { arm in indices.map { arm[$0] } } }
        }
    }

    /// The index of `key` in ``standardMetrics``, which lead every study's ``metrics``.
    static func metric(_ key: String) -> Int { standardMetrics.firstIndex { $0.key == key }! }

    /// The cells of scenario `scenario` with the lowest and highest mean of `metric`.
    public func extremes(scenario: Int, metric: Int) -> (lowest: Int, highest: Int) {
        let means = summaries[scenario].map { $0[metric].mean }
        let cells = Array(means.indices)
        let lowest = cells.min { (means[$0], $0) < (means[$1], $1) }!
        let highest = cells.max { (means[$0], -$0) < (means[$1], -$1) }!
        return (lowest, highest)
    }
}
