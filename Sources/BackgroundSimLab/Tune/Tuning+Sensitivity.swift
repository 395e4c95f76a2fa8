import BackgroundSim

extension Tuning {
    /// The finalists: the configurations that ran to the last look's seeds (those in contention
    /// at the end, and those put out at the last look before it), in order.
    public var finalists: [Int] {
        names.indices.filter { outcome.seedsRun[$0] == outcome.screening.seeds && outcome.summaries[$0].count > 0 }
    }

    /// Under model uncertainty (`"modelUncertainty": true`): the numbers of the iOS model the
    /// choice among the ``finalists`` hangs on, and whether it holds across them
    /// (``Sensitivity``, the choice made by ``Recommendation``'s test over the finalists' seeds);
    /// `nil` otherwise, with fewer than 8 seeds at the last look, or with a single finalist.
    public var sensitivity: Sensitivity? {
        guard let uncertainty = modelUncertainty else { return nil }
        let arms = finalists
        guard arms.count >= 2 else { return nil }
        let objective = procedure.objective
        let seeds = (0..<outcome.screening.seeds).map { firstSeed &+ UInt64($0) }
        func values(_ metric: ComparedMetric) -> [[Double?]]? {
            if metric.key == objective.metric.key { return arms.map { outcome.samples.objective[$0] } }
            guard let bound = objective.bounds.firstIndex(where: { $0.metric.key == metric.key }) else { return nil }
            return arms.map { outcome.samples.bounds[bound][$0] }
        }
        let armNames = arms.map { names[$0] }
        return Sensitivity.analyse(names: armNames, seeds: seeds, uncertainty: uncertainty, objective: objective, values: values) { indices in
            Recommendation.choose(names: armNames, objective: objective) { metric in values(metric)!.map { arm in indices.map { arm[$0] } } }
        }
    }

    /// Why there is no ranking under model uncertainty.
    var sensitivityUnavailable: String {
        "the ranking needs two finalists (configurations run to the last look's seeds) on at least 8 seeds; "
            + "here \(finalists.count) on \(outcome.screening.seeds)"
    }

    /// The lines under model uncertainty, for the text and Markdown formats; `nil` without it.
    func uncertaintyLines(markdown: Bool) -> [String]? {
        modelUncertainty.map {
            Sensitivity.lines($0, sensitivity, seeds: outcome.screening.seeds, arm: "configuration", markdown: markdown,
                              unavailable: sensitivityUnavailable)
        }
    }
}
