import BackgroundSim

/// What a sweep found: each cell's objectives, the Pareto front of the two with the cells that
/// cannot be ruled off it, the best cell for each with the cells that cannot be told apart from
/// it (``SweepRanking``), and one recommendation.
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
        /// Each metric's value on each seed, by key (`nil` where it does not apply); empty for a
        /// line written before lines carried them.
        package var perSeed: [String: [Double?]] = [:]

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
            if case .object(let series)? = line["perSeed"] {
                for (key, value) in series {
                    if case .array(let items) = value {
                        cell.perSeed[key] = items.map { if case .number(let number) = $0 { number } else { nil } }
                    }
                }
            }
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

    /// The paired rankings, when every cell's line has per-seed values.
    package var ranking: SweepRanking? {
        guard cells.allSatisfy({ cell in definition.objectives.allSatisfy { cell.perSeed[$0.key] != nil } }) else { return nil }
        return SweepRanking(costs: definition.objectives.map { metric in
            cells.map { cell in cell.perSeed[metric.key]!.map { value in value.map { metric.better == .higher ? -$0 : $0 } } }
        })
    }

    /// The cells no other cell beats on both objectives' means, ordered by the first objective.
    package var paretoFront: [Cell] {
        let points = cells.map { cell -> [Double]? in
            guard let first = cost(cell, 0), let second = cost(cell, 1) else { return nil }
            return [first, second]
        }
        let front = ParetoFront.indices(points).map { cells[$0] }
        return front.sorted { (cost($0, 0)!, $0.index) < (cost($1, 0)!, $1.index) }
    }

    /// The cells off the front of the means that no cell dominates with confidence (positions
    /// in ``cells``' order); empty without per-seed values.
    package var possiblyOnFront: [Cell] {
        guard let ranking else { return [] }
        let front = Set(paretoFront.map(\.index))
        return ranking.possibleFront.map { cells[$0] }.filter { !front.contains($0.index) }
    }

    /// The best cell for objective `objective` (lowest cost; the lowest index on ties).
    package func best(for objective: Int) -> Cell? {
        cells.filter { cost($0, objective) != nil }.min { (cost($0, objective)!, $0.index) < (cost($1, objective)!, $1.index) }
    }

    /// The cells that cannot be told apart from the best on `objective`; empty without per-seed values.
    package func tiedWithBest(for objective: Int) -> [Cell] {
        ranking.map { $0.indistinguishable(fromBest: objective).map { cells[$0] } } ?? []
    }

    /// The one line: under the sweep's objective, ``Recommendation/choose(names:objective:values:)``
    /// over the cells; without one, the front and how to choose on it.
    package var recommendation: String {
        let names = cells.map { "cell \($0.index) (\($0.settings))" }
        if let objective = definition.objective {
            guard cells.allSatisfy({ cell in objective.metrics.allSatisfy { cell.perSeed[$0.key] != nil } }) else {
                return "Recommendation: none — the results lines have no per-seed values (written by an older bgsim); run the sweep again"
            }
            return Recommendation.choose(names: names, objective: objective) { metric in cells.map { $0.perSeed[metric.key] ?? [] } }.line
        }
        let o = definition.objectives
        let front = paretoFront.map { "\($0.index)" }
        let possible = possiblyOnFront.count
        guard !front.isEmpty else {
            return "Recommendation: none — no cell has values of both \(o[0].label) and \(o[1].label)"
        }
        let onFront = front.count == 1 ? "cell \(front[0]) is" : "cells \(Recommendation.list(front)) are"
        return "Recommendation: none without an objective — \(onFront) on the Pareto front of \(o[0].label) and \(o[1].label)"
            + (possible > 0 ? " and \(possible) more cannot be ruled off it" : "")
            + "; choose with an objective (--minimize or --maximize, --subject-to)"
    }

    /// Under model uncertainty (`"modelUncertainty": true`) with an objective: the numbers of
    /// the iOS model the recommendation hangs on, and whether it holds across them
    /// (``Sensitivity``); `nil` otherwise or without per-seed values.
    package var sensitivity: Sensitivity? {
        guard let objective = definition.objective, let uncertainty = definition.drawnUncertainty,
              cells.allSatisfy({ cell in objective.metrics.allSatisfy { cell.perSeed[$0.key]?.count == definition.seeds.count } })
        else { return nil }
        let names = cells.map { "cell \($0.index) (\($0.settings))" }
        func values(_ metric: ComparedMetric) -> [[Double?]]? { cells.map { $0.perSeed[metric.key] ?? [] } }
        return Sensitivity.analyse(names: names, seeds: definition.seeds, uncertainty: uncertainty, objective: objective,
                                   values: values) { indices in
            Recommendation.choose(names: names, objective: objective) { metric in
                cells.map { cell in indices.map { (cell.perSeed[metric.key] ?? [])[$0] } }
            }
        }
    }

    /// "12 ± 0.4", or "n/a".
    func text(_ cell: Cell, _ objective: Int) -> String {
        guard let mean = cell.objectives[objective] else { return "n/a" }
        return Format.significant(mean) + (cell.intervals[objective].map { " ± " + Format.significant(($0.upperBound - $0.lowerBound) / 2) } ?? "")
    }

    /// For each cell (by index): "yes" on the front of the means, "possibly" when not
    /// confidently dominated, else "".
    var frontMarks: [Int: String] {
        var marks: [Int: String] = [:]
        for cell in possiblyOnFront { marks[cell.index] = "possibly" }
        for cell in paretoFront { marks[cell.index] = "yes" }
        return marks
    }

    /// "Best p90 work latency: cell 3 (…), 12 min; cannot be told apart: cells 4, 7" per objective.
    var bestLines: [String] {
        let o = definition.objectives
        return o.indices.compactMap { index in
            guard let best = best(for: index) else { return nil }
            let tied = tiedWithBest(for: index).map { "\($0.index)" }
            return "Best \(o[index].label): cell \(best.index) (\(best.settings)), \(text(best, index)) \(o[index].unit)"
                + (tied.isEmpty ? "" : "; cannot be told apart from it: cell\(tied.count == 1 ? "" : "s") \(Recommendation.list(tied))")
        }
    }

    /// A readable summary: the recommendation, every cell, the Pareto front, the best per objective.
    package var table: String {
        let o = definition.objectives
        var lines = [recommendation, "",
                     "Sweep \(definition.name): \(cells.count) of \(definition.cellCount) cells, \(definition.seeds.count) seeds × \(definition.days) days each", ""]
        let header = ["cell", "\(o[0].label) (\(o[0].unit))", "\(o[1].label) (\(o[1].unit))", "Pareto front", "values"]
        let marks = frontMarks
        lines += TextTable.render(header: header, rows: cells.map { cell in
            [String(cell.index), text(cell, 0), text(cell, 1), marks[cell.index] ?? "", cell.settings]
        })
        lines += ["", "Values: mean ± 95 % CI half-width across seeds. Pareto front of \(o[0].label) and \(o[1].label): yes on the front "
                  + "of the means; possibly when no cell beats it on both with confidence (paired, Bonferroni, 95 %)."]
        lines += bestLines
        if let uncertainty = definition.drawnUncertainty {
            lines += [""] + Sensitivity.lines(uncertainty, sensitivity, seeds: definition.seeds.count, arm: "cell")
        }
        return lines.joined(separator: "\n")
    }
}
