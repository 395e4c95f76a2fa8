import BackgroundSim

extension Comparison {
    /// The sensitivity of the decision under `objective` to the iOS model's uncertain numbers
    /// (``Sensitivity``), with the break-even points found (``breakEvens``); `nil` unless the
    /// runs drew them (``modelUncertainty``) on at least 8 seeds.
    public func sensitivity(_ objective: Objective) -> Sensitivity? {
        guard let uncertainty = modelUncertainty else { return nil }
        return Sensitivity.analyse(names: names, seeds: seeds, uncertainty: uncertainty, objective: objective,
                                   values: { metric in rows.first { $0.metric.key == metric.key }?.values },
                                   breakEvens: breakEvensSearched ? breakEvens : nil) { indices in
            restricted(toSeedsAt: indices).recommendation(objective)
        }
    }
}
