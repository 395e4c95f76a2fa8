import BackgroundSim

/// The HTML report of a tuning: the recommendation, the procedure and its guarantee, the
/// objective and each bound against the first parameter with 95 % intervals, and every
/// configuration in a table.
package enum TuningReport {
    /// The report as a complete HTML document; `axes` are the parameters' paths and values of
    /// each configuration (`values[configuration][parameter]`), `command` the command line.
    package static func html(_ tuning: Tuning, name: String, axes: [String], values: [[JSONValue]], command: String? = nil) -> String {
        var body = Markup()
        body.element("p", [("class", "recommendation " + (tuning.outcome.guaranteeHolds && tuning.outcome.best != nil ? "confident" : "tentative"))],
                     tuning.recommendation)
        body.element("p", [("class", "setup")], "Objective: \(tuning.procedure.objective.description). " + TuningFormatter.procedure(tuning))
        body.element("p", [("class", "note")],
                     "Guarantee: if each configuration's per-seed values are normally distributed and the seeds were not capped before the "
                     + "procedure ended, then with probability at least \(Int((tuning.procedure.confidence * 100).rounded())) % every configuration more than "
                     + "its tolerance from a bound is classified on the right side of it, and the chosen configuration's mean is within the "
                     + "indifference zone of the best mean among those meeting the bounds (docs/TUNING.md: Kim & Nelson 2001; "
                     + "Andradóttir & Kim 2010).")
        if let command { body.append(HTMLPage.madeWith(command)) }
        body.newline()
        let objective = tuning.procedure.objective
        body.append(chart(tuning, axes: axes, values: values, title: objective.metric.label, unit: objective.metric.unit, bound: nil) { index in
            let summary = tuning.outcome.summaries[index]
            return summary.count == 0 ? nil : (summary.mean, summary.mean - summary.halfWidth95, summary.mean + summary.halfWidth95)
        })
        for (position, bound) in objective.bounds.enumerated() {
            body.append(chart(tuning, axes: axes, values: values, title: bound.metric.label, unit: bound.metric.unit, bound: bound.value) { index in
                tuning.outcome.boundMeans[index][position].map { ($0, $0, $0) }
            })
        }
        body.element("h2", [("id", "configurations")], "Configurations")
        let (header, rows) = TuningFormatter.rows(tuning)
        body.append(HTMLPage.table(header: header, rows: rows.enumerated().map { index, row in
            row.enumerated().map { column, text in
                HTMLPage.Cell(text, className: column == row.count - 1 || column == row.count - 2 ? "text" : (column == 0 ? nil : statusClass(tuning, index)))
            }
        }))
        if let uncertainty = tuning.modelUncertainty {
            body.append(Sensitivity.htmlSection(uncertainty, tuning.sensitivity, seeds: tuning.outcome.screening.seeds, arm: "configuration",
                                                unavailable: tuning.sensitivityUnavailable))
        }
        return HTMLPage.document(title: "BackgroundSim tuning: \(name)", body: body)
    }

    static func statusClass(_ tuning: Tuning, _ index: Int) -> String? {
        switch tuning.status(of: index) {
        case .chosen: "better"
        case .indistinguishable: "equivalent"
        default: nil
        }
    }

    /// One metric against the first parameter (or the configuration's number when that is not a
    /// number), a series per combination of the other parameters, with error bars; the chosen
    /// configuration ringed; a bound as a dashed line.
    static func chart(_ tuning: Tuning, axes: [String], values: [[JSONValue]], title: String, unit: String, bound: Double?,
                      value: (Int) -> (mean: Double, low: Double, high: Double)?) -> Markup {
        let numeric = values.allSatisfy { if case .number = $0.first { true } else { false } }
        func x(_ index: Int) -> Double {
            if numeric, case .number(let number) = values[index][0] { return number }
            return Double(index)
        }
        var groups: [(key: String, members: [Int])] = []
        for index in tuning.names.indices {
            let key = values[index].dropFirst().enumerated().map { "\(axes[$0.offset + 1].split(separator: ".").last ?? "")=\(JSONWriter.compact($0.element))" }
                .joined(separator: " ")
            if let position = groups.firstIndex(where: { $0.key == key }) { groups[position].members.append(index) } else { groups.append((key, [index])) }
        }
        var series = groups.enumerated().map { position, group -> LineChart.Series in
            let rated = group.members.filter { value($0) != nil }
            return LineChart.Series(name: group.key.isEmpty ? "configurations" : group.key, color: HTMLPage.color(position),
                                    points: rated.map { (x($0), value($0)!.mean) }, style: .lineWithDots,
                                    hovers: rated.map { "\(tuning.names[$0]): \(Format.significant(value($0)!.mean)) \(unit) — \(tuning.statusText(of: $0))" },
                                    errorBars: rated.map { (value($0)!.low, value($0)!.high) })
        }
        if let best = tuning.outcome.best, let chosen = value(best) {
            series.append(LineChart.Series(name: "chosen", color: HTMLPage.emphasis, points: [(x(best), chosen.mean)], style: .dots,
                                           hovers: ["chosen: \(tuning.names[best])"]))
        }
        if let bound {
            let xs = tuning.names.indices.map(x)
            series.append(LineChart.Series(name: "bound", color: HTMLPage.neutral, points: [(xs.min() ?? 0, bound), (xs.max() ?? 1, bound)],
                                           style: .dashedLine))
        }
        let xTitle = numeric ? String(axes[0].split(separator: ".").last ?? "") : "configuration"
        let chart = LineChart(label: "\(title) by configuration", x: ChartAxis(title: xTitle),
                              y: ChartAxis(title: "\(title)\(unit.isEmpty ? "" : " (\(unit))")", includesZero: false), series: series)
        var figure = Markup()
        figure.element("h2", [], title.prefix(1).uppercased() + title.dropFirst())
        figure.open("figure")
        figure.append(chart.svg)
        figure.element("figcaption", [], bound == nil
            ? "The mean across the seeds each configuration ran, with its 95 % interval (wider for configurations that stopped at an early look). "
                + "The axis spans the values, not from zero, so that differences between configurations show."
            : "The mean across the seeds each configuration ran; the dashed line is the bound. The axis spans the values and the bound, not from zero.")
        figure.close("figure")
        figure.newline()
        return figure
    }
}
