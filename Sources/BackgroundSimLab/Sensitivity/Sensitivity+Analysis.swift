import BackgroundSim

extension Sensitivity {
    /// The sensitivity of a decision under `objective` among arms `names` run on `seeds` that
    /// drew `uncertainty`'s numbers; `nil` on fewer than 8 seeds or with nothing drawn.
    ///
    /// - Parameters:
    ///   - values: Each metric's value per arm and seed, `[arm][seed]` (`nil` where it does not
    ///     apply), for the objective's and the bounds' metrics.
    ///   - breakEvens: The break-even points searched (``BreakEven``), or `nil` if none were
    ///     searched: then the line never says "Robust", since quarters alone cannot show that
    ///     the recommendation holds at every value inside the ranges.
    ///   - decide: The recommendation on the seeds at the given indices alone.
    package static func analyse(names: [String], seeds: [UInt64], uncertainty: ModelUncertainty, objective: Objective,
                                values: (ComparedMetric) -> [[Double?]]?, breakEvens searched: [BreakEven]? = nil,
                                decide: ([Int]) -> Recommendation) -> Sensitivity? {
        guard seeds.count >= 8, !uncertainty.varied.isEmpty, names.count >= 1 else { return nil }
        let breakEvens = searched ?? []
        let draws = seeds.map { uncertainty.draw(seed: $0) }
        let chosen = decide(Array(seeds.indices)).choice
        // The figures the decision reads, per seed.
        var figures: [(label: String, values: [Double?])] = []
        if let objectiveValues = values(objective.metric), names.count == 1 {
            // One arm: no decision between arms, only what its figure follows.
            figures.append(("\(objective.metric.label), \(names[0])", objectiveValues[0]))
        } else if let objectiveValues = values(objective.metric) {
            let arm = chosen ?? 0
            func mean(_ arm: Int) -> Double {
                let present = objectiveValues[arm].compactMap { $0 }
                return present.isEmpty ? .infinity : objective.cost(present.reduce(0, +) / Double(present.count))
            }
            let rival = names.indices.filter { $0 != arm }.min { (mean($0), $0) < (mean($1), $1) }!
            figures.append(("\(objective.metric.label), \(names[arm]) − \(names[rival])", seeds.indices.map { seed in
                objectiveValues[arm][seed].flatMap { a in objectiveValues[rival][seed].map { a - $0 } }
            }))
        }
        for bound in objective.bounds {
            guard let boundValues = values(bound.metric) else { continue }
            figures.append(("\(bound.metric.label), \(names[chosen ?? 0])", boundValues[chosen ?? 0]))
        }
        let entries = uncertainty.parameters.indices.filter { !uncertainty.fixedPaths.contains(uncertainty.parameters[$0].path) }.map { index in
            Entry(path: uncertainty.parameters[index].path, plausible: uncertainty.parameters[index].plausible,
                  correlations: figures.map { figure in
                      let pairs = zip(draws.map { $0[index] }, figure.values).compactMap { x, y in y.map { (x, $0) } }
                      return (figure.label, spearman(pairs.map(\.0), pairs.map(\.1)))
                  })
        }.sorted { ($0.strength, $1.path) > ($1.strength, $0.path) }
        guard names.count >= 2 else {
            return Sensitivity(entries: entries, quarters: [], choice: chosen, verdict: .oneScenario,
                               detail: "the numbers its \(objective.metric.label) follows most are ranked")
        }
        // The decision on each quarter of the seeds, by the most sensitive numbers' draws.
        var quarters: [Quarter] = []
        for entry in entries.prefix(testedNumbers) {
            let index = uncertainty.parameters.firstIndex { $0.path == entry.path }!
            let order = seeds.indices.sorted { (draws[$0][index], $0) < (draws[$1][index], $1) }
            for quarter in 0..<4 {
                let part = Array(order[(quarter * order.count / 4)..<((quarter + 1) * order.count / 4)])
                guard let first = part.first, let last = part.last else { continue }
                let decision = decide(part.sorted())
                quarters.append(Quarter(path: entry.path, values: draws[first][index]...draws[last][index],
                                        seeds: part.count, choice: decision.choice, confident: decision.confident))
            }
        }
        let tested = entries.prefix(testedNumbers).map { "`\(shortPath($0.path))`" }
        let verdict: Verdict, detail: String
        func quarterText(_ quarter: Quarter) -> String {
            let plausible = entries.first { $0.path == quarter.path }!.plausible
            return "with \(shortPath(quarter.path)) drawn in \(Format.significant(quarter.values.lowerBound))–"
                + "\(Format.significant(quarter.values.upperBound)) (\(quarter.seeds) seeds; plausible "
                + "\(Format.significant(plausible.lowerBound))–\(Format.significant(plausible.upperBound))) the recommendation is "
                + "\(quarter.choice.map { names[$0] } ?? "none"), not \(chosen.map { names[$0] } ?? "none")"
        }
        let points = breakEvens.flatMap { breakEven in [breakEven.above, breakEven.below].compactMap { $0 }.map { (breakEven, $0) } }
        let confidentPoints = points.filter { $0.1.confident && $0.1.choice != nil }
        let confidentFlips = quarters.filter { $0.choice != chosen && $0.confident && $0.choice != nil }
        if !confidentPoints.isEmpty || !confidentFlips.isEmpty {
            let said = confidentPoints.map { $0.0.text($0.1, names: names) } + confidentFlips.prefix(1).map(quarterText)
            (verdict, detail) = (.dependsOnTheModel, said.joined(separator: "; "))
        } else if let point = points.first {
            (verdict, detail) = (.unsettled, point.0.text(point.1, names: names) + "; more seeds would tell whether the decision depends on it")
        } else if let lean = quarters.first(where: { $0.choice != chosen }) {
            (verdict, detail) = (.unsettled, quarterText(lean) + ", though not confidently; more seeds would tell whether the decision depends on it")
        } else if let weak = quarters.first(where: { !$0.confident }) {
            (verdict, detail) = (.unsettled, "the recommendation (\(chosen.map { names[$0] } ?? "none")) is the same in every quarter of the seeds ordered by "
                + "each of the \(tested.count) numbers it is most sensitive to (\(tested.joined(separator: ", "))), but not confidently with "
                + "\(shortPath(weak.path)) drawn in \(Format.significant(weak.values.lowerBound))–\(Format.significant(weak.values.upperBound)); "
                + "more seeds would tell")
        } else if searched == nil {
            (verdict, detail) = (.holdsInEveryQuarter, "the recommendation (\(chosen.map { names[$0] } ?? "none")) is the same, confidently, in every "
                + "quarter of the seeds ordered by each of the \(tested.count) numbers it is most sensitive to (\(tested.joined(separator: ", "))); "
                + "whether it changes at some value inside their plausible ranges was not searched (`bgsim compare --model-uncertainty` "
                + "of the recommendation and its nearest rival searches it)")
        } else {
            let searched = breakEvens.isEmpty ? "" : ", and it changes nowhere in their plausible ranges, the others at their defaults or drawn"
            (verdict, detail) = (.robust, "the recommendation (\(chosen.map { names[$0] } ?? "none")) holds across the plausible model — the same, confidently, in "
                + "every quarter of the seeds ordered by each of the \(tested.count) numbers it is most sensitive to (\(tested.joined(separator: ", ")))"
                + searched)
        }
        var sensitivity = Sensitivity(entries: entries, quarters: quarters, choice: chosen, verdict: verdict, detail: detail)
        sensitivity.breakEvens = breakEvens
        sensitivity.robustChoice = RobustChoice.choose(arms: names.count, breakEvens: breakEvens)
        return sensitivity
    }

    /// `system.heuristic.refreshBasePerDay` → `heuristic.refreshBasePerDay`.
    static func shortPath(_ path: String) -> String {
        path.hasPrefix("system.") ? String(path.dropFirst("system.".count)) : path
    }

    /// Spearman's rank correlation (ties at their mean rank); 0 with fewer than 3 pairs or no spread.
    static func spearman(_ x: [Double], _ y: [Double]) -> Double {
        guard x.count == y.count, x.count >= 3 else { return 0 }
        func ranks(_ values: [Double]) -> [Double] {
            let order = values.indices.sorted { (values[$0], $0) < (values[$1], $1) }
            var result = [Double](repeating: 0, count: values.count)
            var start = 0
            while start < order.count {
                var end = start
                while end + 1 < order.count && values[order[end + 1]] == values[order[start]] { end += 1 }
                for position in start...end { result[order[position]] = Double(start + end) / 2 + 1 }
                start = end + 1
            }
            return result
        }
        let rx = ranks(x), ry = ranks(y)
        let mx = rx.reduce(0, +) / Double(rx.count), my = ry.reduce(0, +) / Double(ry.count)
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for (a, b) in zip(rx, ry) {
            sxy += (a - mx) * (b - my)
            sxx += (a - mx) * (a - mx)
            syy += (b - my) * (b - my)
        }
        return sxx > 0 && syy > 0 ? sxy / (sxx * syy).squareRoot() : 0
    }
}
