import BackgroundSim

/// The HTML report of a sweep: the best cell for each objective, the Pareto plot of the two
/// objectives, every cell in a table, and why each cell's pending requests waited.
package enum SweepReport {
    /// The report as a complete HTML document; `command` is shown so a reader can run it again.
    package static func html(_ summary: SweepSummary, command: String? = nil) -> String {
        let definition = summary.definition
        var body = Markup()
        let axes = definition.axes.map { "\($0.path) ∈ {\($0.values.map(JSONWriter.compact).joined(separator: ", "))}" }
        body.element("p", [("class", "setup")],
                     "\(summary.cells.count) of \(definition.cellCount) cells, each \(definition.seeds.count) seeds × \(definition.days) "
                     + "simulated days on the same seeds. Axes: \(axes.joined(separator: "; ")).")
        if let command { body.append(HTMLPage.madeWith(command)) }
        body.element("p", [("class", "recommendation " + (definition.objective == nil ? "tentative" : "confident"))], summary.recommendation)
        if let objective = definition.objective { body.element("p", [("class", "note")], "Objective: \(objective.description).") }
        body.newline()

        body.element("h2", [("id", "best")], "Best cells")
        body.open("ul")
        for line in summary.bestLines { body.element("li", [], line) }
        body.close("ul")
        body.newline()
        body.append(paretoFigure(summary))
        body.append(cellTable(summary))
        if summary.cells.contains(where: { !$0.decisions.isEmpty }) { body.append(decisionTable(summary)) }
        if let uncertainty = summary.definition.drawnUncertainty {
            body.append(Sensitivity.htmlSection(uncertainty, summary.sensitivity, seeds: summary.definition.seeds.count, arm: "cell"))
        }
        return HTMLPage.document(title: "BackgroundSim sweep: \(definition.name)", body: body)
    }

    static func paretoFigure(_ summary: SweepSummary) -> Markup {
        let objectives = summary.definition.objectives
        let rated = summary.cells.filter { $0.objectives[0] != nil && $0.objectives[1] != nil }
        // Cells with equal objectives share one dot on the front, labelled with all their numbers.
        var front: [(cells: [SweepSummary.Cell], point: (x: Double, y: Double))] = []
        for cell in summary.paretoFront {
            if let last = front.last, last.point == (cell.objectives[0]!, cell.objectives[1]!) {
                front[front.count - 1].cells.append(cell)
            } else {
                front.append(([cell], (cell.objectives[0]!, cell.objectives[1]!)))
            }
        }
        func point(_ cell: SweepSummary.Cell) -> (x: Double, y: Double) { (cell.objectives[0]!, cell.objectives[1]!) }
        func hover(_ cell: SweepSummary.Cell) -> String {
            "cell \(cell.index): \(cell.settings) — \(objectives[0].label) \(summary.text(cell, 0)) \(objectives[0].unit), "
                + "\(objectives[1].label) \(summary.text(cell, 1)) \(objectives[1].unit)"
        }
        func interval(_ cell: SweepSummary.Cell, _ objective: Int) -> (low: Double, high: Double) {
            cell.intervals[objective].map { ($0.lowerBound, $0.upperBound) } ?? (cell.objectives[objective]!, cell.objectives[objective]!)
        }
        let possible = summary.possiblyOnFront.filter { $0.objectives[0] != nil && $0.objectives[1] != nil }
        let chart = LineChart(
            label: "Pareto front of \(objectives[0].label) and \(objectives[1].label)",
            x: ChartAxis(title: "\(objectives[0].label) (\(objectives[0].unit))"),
            y: ChartAxis(title: "\(objectives[1].label) (\(objectives[1].unit))"),
            series: [
                LineChart.Series(name: "cells", color: HTMLPage.neutral, points: rated.map(point), style: .dots, hovers: rated.map(hover),
                                 errorBars: rated.map { interval($0, 1) }, horizontalErrorBars: rated.map { interval($0, 0) },
                                 errorBarColor: HTMLPage.faint),
                LineChart.Series(name: "cannot be ruled off the front", color: HTMLPage.color(2), points: possible.map(point), style: .dots,
                                 hovers: possible.map(hover), labels: possible.map { "#\($0.index)" }),
                LineChart.Series(name: "Pareto front of the means", color: HTMLPage.color(5), points: front.map(\.point), style: .lineWithDots,
                                 hovers: front.map { $0.cells.map(hover).joined(separator: "; ") },
                                 labels: front.map { $0.cells.map { "#\($0.index)" }.joined(separator: ", ") }),
            ])
        let direction = { (better: ComparedMetric.Better) in better == .higher ? "higher" : "lower" }
        return HTMLPage.figure(id: "pareto", heading: "Pareto front", chart: chart.svg,
                               caption: "Each dot is a cell's mean across seeds with its 95 % intervals on both objectives (hover for its "
                               + "values). The front joins the cells whose means no other cell beats on both objectives "
                               + "(\(direction(objectives[0].better)) \(objectives[0].label) and \(direction(objectives[1].better)) "
                               + "\(objectives[1].label) are better); the cells marked beside it are not on it but no cell beats them on "
                               + "both with confidence (paired differences, Bonferroni, 95 %), so the noise cannot rule them out. "
                               + zoomNote(rated, objectives))
    }

    /// Says when an axis is zoomed in: its data span less than a tenth of its values' size, so
    /// small differences look large.
    static func zoomNote(_ cells: [SweepSummary.Cell], _ objectives: [ComparedMetric]) -> String {
        let notes = (0..<2).compactMap { objective -> String? in
            let values = cells.compactMap { $0.objectives[objective] }
            guard let low = values.min(), let high = values.max(), high > low else { return nil }
            let size = Swift.max(abs(low), abs(high))
            guard size > 0, (high - low) / size < 0.1 else { return nil }
            return "\(objectives[objective].label) spans only \(Format.significant((high - low) / size * 100)) % of its size "
                + "(\(Format.significant(low))–\(Format.significant(high)) \(objectives[objective].unit))"
        }
        return notes.isEmpty ? "" : "The axes do not start at zero: " + notes.joined(separator: "; ")
            + ", so the differences look larger than they are; the intervals show which are real."
    }

    static func cellTable(_ summary: SweepSummary) -> Markup {
        let definition = summary.definition
        let objectives = definition.objectives
        let marks = summary.frontMarks
        var section = Markup()
        section.element("h2", [("id", "cells")], "Cells")
        let header = ["cell"] + definition.axes.map { String($0.path.split(separator: ".").last ?? "") }
            + objectives.map { "\($0.label) (\($0.unit))" } + ["Pareto front"]
        let rows = summary.cells.map { cell -> [HTMLPage.Cell] in
            var cells = [HTMLPage.Cell(String(cell.index))]
            cells += cell.values.map { HTMLPage.Cell(JSONWriter.compact($0.1)) }
            cells += objectives.indices.map { index in
                let interval = cell.intervals[index].map { " ± " + Format.significant(($0.upperBound - $0.lowerBound) / 2) } ?? ""
                return HTMLPage.Cell(value(cell, index) + interval)
            }
            let mark = marks[cell.index] ?? ""
            cells.append(HTMLPage.Cell(mark, className: mark == "yes" ? "better" : mark.isEmpty ? nil : "equivalent"))
            return cells
        }
        section.append(HTMLPage.table(header: header, rows: rows))
        section.element("p", [("class", "note")], "Values: mean ± half-width of the 95 % confidence interval across seeds. "
                        + "Axis paths: \(definition.axes.map(\.path).joined(separator: ", ")).")
        return section
    }

    /// Each cell's launches a day and the three most frequent reasons its requests waited, per
    /// task kind that had decisions.
    static func decisionTable(_ summary: SweepSummary) -> Markup {
        var section = Markup()
        section.element("h2", [("id", "decisions")], "Why requests waited, by cell")
        let kinds = ["appRefresh", "processing"].filter { kind in
            summary.cells.contains { cell in cell.decisions.contains { $0.kind == kind && ($0.launched > 0 || !$0.waits.isEmpty) } }
        }
        let header = ["cell"] + summary.definition.axes.map { String($0.path.split(separator: ".").last ?? "") }
            + kinds.map { ($0 == "appRefresh" ? "refresh" : "processing") + ": launched; most frequent waits (per day)" }
        let rows = summary.cells.map { cell -> [HTMLPage.Cell] in
            var cells = [HTMLPage.Cell(String(cell.index))] + cell.values.map { HTMLPage.Cell(JSONWriter.compact($0.1)) }
            for kind in kinds {
                guard let decisions = cell.decisions.first(where: { $0.kind == kind }) else {
                    cells.append(HTMLPage.Cell("n/a"))
                    continue
                }
                let waits = decisions.waits.prefix(3).map { "\($0.reason) \(Format.significant($0.perDay))" }
                cells.append(HTMLPage.Cell(Format.significant(decisions.launched) + (waits.isEmpty ? "" : "; " + waits.joined(separator: ", "))))
            }
            return cells
        }
        section.append(HTMLPage.table(header: header, rows: rows))
        section.element("p", [("class", "note")], "Launch decisions per day, the mean across seeds: launched, then the reasons pending "
                        + "requests were not launched (docs/OUTPUT.md lists them), most frequent first.")
        return section
    }

    static func value(_ cell: SweepSummary.Cell, _ objective: Int) -> String {
        cell.objectives[objective].map(Format.significant) ?? "n/a"
    }
}
