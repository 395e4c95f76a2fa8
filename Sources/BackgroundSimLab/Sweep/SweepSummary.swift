import BackgroundSim

/// What a sweep found: each cell's objectives, the Pareto front of the two, and the best cell
/// for each.
package struct SweepSummary: Sendable {
    package struct Cell: Sendable {
        package var index: Int
        package var values: [(String, JSONValue)]
        /// The two objectives' means; `nil` where an objective does not apply.
        package var objectives: [Double?]
        /// The 95 % confidence intervals of the objectives' means; `nil` where they do not apply.
        package var intervals: [ClosedRange<Double>?]
        /// Launch decisions per day by task kind ("appRefresh", "processing"): launched, and the
        /// reasons requests waited, most frequent first. Empty for a line written before cells
        /// recorded them.
        package var decisions: [(kind: String, launched: Double, waits: [(reason: String, perDay: Double)])] = []

        /// The cell's axis values by the last part of their paths: "meanDelayMinutes=5 messagesPerRun=1".
        package var settings: String {
            values.map { "\($0.0.split(separator: ".").last ?? "")=\(JSONWriter.compact($0.1))" }.joined(separator: " ")
        }
    }

    package var definition: SweepDefinition
    package var cells: [Cell]

    package init(definition: SweepDefinition, results: [SweepRunner.CellResult]) throws {
        self.definition = definition
        cells = try results.map { result in
            let line = try JSONParser.parse(result.line)
            guard case .object(let values)? = line["values"], case .object(let metrics)? = line["metrics"] else {
                throw SweepFileError(message: "cell \(result.index): a line without values or metrics")
            }
            let summaries = definition.objectives.map { metric -> JSONValue? in
                guard let summary = metrics.first(where: { $0.key == metric.key })?.value,
                      case .number(let count)? = summary["count"], count > 0 else { return nil }
                return summary
            }
            let objectives = summaries.map { summary -> Double? in
                guard case .number(let mean)? = summary?["mean"] else { return nil }
                return mean
            }
            let intervals = summaries.map { summary -> ClosedRange<Double>? in
                guard case .array(let bounds)? = summary?["ci95"], bounds.count == 2,
                      case .number(let low) = bounds[0], case .number(let high) = bounds[1], low <= high else { return nil }
                return low...high
            }
            var cell = Cell(index: result.index, values: values, objectives: objectives, intervals: intervals)
            if case .object(let kinds)? = line["launchDecisions"] {
                cell.decisions = kinds.compactMap { kind, value in
                    guard case .number(let launched)? = value["launched"], case .object(let reasons)? = value["notLaunched"] else { return nil }
                    let waits = reasons.compactMap { reason, count -> (reason: String, perDay: Double)? in
                        if case .number(let perDay) = count { return (reason, perDay) } else { return nil }
                    }
                    return (kind, launched, waits.enumerated().sorted { ($0.element.perDay, -$0.offset) > ($1.element.perDay, -$1.offset) }.map(\.element))
                }
            }
            return cell
        }
    }

    /// An objective's value oriented so that lower is better.
    private func cost(_ cell: Cell, _ objective: Int) -> Double? {
        guard let value = cell.objectives[objective] else { return nil }
        return definition.objectives[objective].better == .higher ? -value : value
    }

    /// The cells no other cell beats on both objectives, ordered by the first objective.
    package var paretoFront: [Cell] {
        let points = cells.map { cell -> [Double]? in
            guard let first = cost(cell, 0), let second = cost(cell, 1) else { return nil }
            return [first, second]
        }
        let front = ParetoFront.indices(points).map { cells[$0] }
        return front.sorted { (cost($0, 0)!, $0.index) < (cost($1, 0)!, $1.index) }
    }

    /// The best cell for objective `objective` (lowest cost; the lowest index on ties).
    package func best(for objective: Int) -> Cell? {
        cells.filter { cost($0, objective) != nil }.min { (cost($0, objective)!, $0.index) < (cost($1, objective)!, $1.index) }
    }

    /// A readable summary: every cell, the Pareto front, the best per objective.
    package var table: String {
        let o = definition.objectives
        func objective(_ value: Double?) -> String { value.map(Format.significant) ?? "n/a" }
        var lines = ["Sweep \(definition.name): \(cells.count) of \(definition.cellCount) cells, \(definition.seeds.count) seeds × \(definition.days) days each", ""]
        lines.append("cell  " + "\(o[0].label) (\(o[0].unit))".column(28)
                     + "\(o[1].label) (\(o[1].unit))".column(28) + "values")
        let front = Set(paretoFront.map(\.index))
        for cell in cells {
            lines.append(String(cell.index).column(4) + (front.contains(cell.index) ? "* " : "  ")
                         + objective(cell.objectives[0]).column(28)
                         + objective(cell.objectives[1]).column(28) + cell.settings)
        }
        lines += ["", "* on the Pareto front of \(o[0].label) and \(o[1].label)."]
        for index in 0..<2 {
            if let best = best(for: index) {
                lines.append("Best \(o[index].label): cell \(best.index) (\(objective(best.objectives[index])) \(o[index].unit)), \(best.settings)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
