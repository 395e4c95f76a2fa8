import BackgroundSim

extension Comparison {
    /// This comparison with the break-even points (``BreakEven``) of its recommendation under
    /// `objective` for the numbers it is most sensitive to (``Sensitivity/testedNumbers``) and
    /// those `named`, each searched with the other numbers at their defaults and drawn; unchanged
    /// without model uncertainty, fewer than 8 seeds or fewer than two scenarios.
    ///
    /// Each probe runs `scenarios` again on the comparison's seeds and days, for the
    /// objective's metrics only.
    ///
    /// - Parameters:
    ///   - scenarios: The scenarios the comparison ran, in its order.
    ///   - named: Paths of further numbers to search, among the model uncertainty's parameters
    ///     (``ModelUncertainty/parameters``).
    ///   - progress: Called with each number and mode as its search starts.
    public func findingBreakEvens(of scenarios: [(name: String, scenario: Scenario)], objective: Objective, jobs: Int,
                                  named: [String] = [], progress: ((String) -> Void)? = nil) throws -> Comparison {
        guard let uncertainty = modelUncertainty, names.count >= 2, let sensitivity = sensitivity(objective) else { return self }
        let base = sensitivity.choice
        let document = ScenarioLoader.document(of: scenarios[0].scenario)
        var found: [BreakEven] = []
        // Every number at the scenarios' own values, the others too, is the plain comparison:
        // run once for every number's search.
        var plain: BreakEven.Probe?
        var paths = sensitivity.entries.prefix(Sensitivity.testedNumbers).map(\.path)
        for path in named where !paths.contains(path) { paths.append(path) }
        for path in paths {
            guard let parameter = uncertainty.parameters.first(where: { $0.path == path }) else { continue }
            let keys = parameter.path.split(separator: ".").map(String.init)
            guard case .number(let scenarioValue)? = ScenarioLoader.value(at: keys, in: document) else { continue }
            let setter = ModelUncertainty(parameters: [parameter])
            for others in BreakEven.Others.allCases {
                progress?("\(Sensitivity.shortPath(parameter.path)), \(others.rawValue)")
                var search = try BreakEven.search(parameter, scenarioValue: scenarioValue, others: others, base: base) { value in
                    let isPlain = others == .atDefaults && value == scenarioValue
                    if isPlain, var known = plain {
                        known.value = value
                        return known
                    }
                    let set = try scenarios.map { ($0.name, try setter.applying([value], to: $0.scenario)) }
                    let probe = try Comparison.run(set, seeds: seeds, days: days, jobs: jobs, metrics: objective.metrics, objective: objective,
                                                   modelUncertainty: others == .drawn ? uncertainty.fixing([parameter.path]) : nil)
                    let recommendation = probe.recommendation(objective)
                    let result = BreakEven.Probe(value: value, choice: recommendation.choice, confident: recommendation.confident,
                                                 advantage: probe.advantage(of: base, on: objective), costs: probe.costs(on: objective))
                    if isPlain { plain = result }
                    return result
                }
                search.unit = objective.metric.unit
                found.append(search)
            }
        }
        var result = self
        result.breakEvens = found
        result.breakEvensSearched = true
        return result
    }

    /// Each arm's objective mean as a cost (``Objective``'s direction), `nil` where its mean of a
    /// bound's metric misses the bound or it has no values.
    func costs(on objective: Objective) -> [Double?] {
        guard let row = rows.first(where: { $0.metric.key == objective.metric.key }) else { return names.map { _ in nil } }
        return names.indices.map { arm in
            let meetsBounds = objective.bounds.allSatisfy { bound in
                guard let boundRow = rows.first(where: { $0.metric.key == bound.metric.key }), boundRow.summaries[arm].count > 0 else { return false }
                return bound.holds(for: boundRow.summaries[arm].mean)
            }
            return meetsBounds && row.summaries[arm].count > 0 ? objective.cost(row.summaries[arm].mean) : nil
        }
    }

    /// How much arm `arm` beats the best other arm on the objective's mean, in its unit:
    /// positive while it is better; `nil` without an arm or values.
    func advantage(of arm: Int?, on objective: Objective) -> Double? {
        guard let arm, let row = rows.first(where: { $0.metric.key == objective.metric.key }) else { return nil }
        let costs = row.summaries.map { $0.count > 0 ? objective.cost($0.mean) : nil }
        guard let own = costs[arm] else { return nil }
        let others = costs.indices.filter { $0 != arm }.compactMap { costs[$0] }
        return others.min().map { $0 - own }
    }
}
