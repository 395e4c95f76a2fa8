import BackgroundSim

/// The HTML report of a battery what-if: what each policy costs in typical conditions, how each
/// condition moves that, every cell of the grid shaded by cost, and why pending requests waited in
/// the typical cell.
package enum WhatIfReport {
    /// The report as a complete HTML document; `command` is shown so a reader can run it again.
    package static func html(_ study: WhatIfStudy, command: String? = nil) -> String {
        let battery = WhatIfFormatter.battery
        var body = Markup()
        body.element("p", [("class", "setup")], WhatIfFormatter.setup(study) + ". App battery use is the energy the app's work "
                     + "(its uploads, sends and syncs, in the foreground and in the background, with their CPU, radio and launch "
                     + "costs) drew from the battery, not the charger, as a share of the battery's capacity per day; "
                     + "values are means across seeds ± the half-width of their 95 % confidence interval.")
        if let command { body.append(HTMLPage.madeWith(command)) }
        body.element("h2", [("id", "cost")], "App battery use")
        body.open("ul")
        for line in WhatIfFormatter.headlines(study) { body.element("li", [], line) }
        body.close("ul")
        body.newline()

        for (index, dimension) in study.grid.dimensions.enumerated() {
            let cells = study.grid.cellsVarying(index)
            let chart = BarChart(
                label: "App battery use by \(dimension.name)", categories: dimension.levels.map(\.name),
                xTitle: "\(dimension.name) (the other conditions typical)", y: ChartAxis(title: "app battery use (%/day)", includesZero: true),
                series: study.names.indices.map { scenario in
                    (study.names[scenario], HTMLPage.color(scenario), cells.map { study.summaries[scenario][$0][battery].mean })
                },
                unit: "%/day",
                errors: study.names.indices.map { scenario in cells.map { study.summaries[scenario][$0][battery].halfWidth95 } })
            body.append(HTMLPage.figure(
                id: "by-" + dimension.name.replacingOccurrences(of: " ", with: "-"), heading: "By \(dimension.name)", chart: chart.svg,
                caption: "Each level of \(dimension.name) with every other condition at its typical level "
                + "(\(study.grid.dimensions.map { $0.levels[$0.typical].name }.joined(separator: ", "))); whiskers are 95 % confidence intervals."))
        }
        body.append(grid(study))
        for metric in WhatIfFormatter.appMetrics(study) { body.append(grid(study, metric: metric)) }
        if study.typicalProfiles.count == study.names.count {
            let typical = study.grid.dimensions.map { $0.levels[$0.typical].name }.joined(separator: ", ")
            body.append(ComparisonReport.decisions(names: study.names, profiles: study.typicalProfiles,
                                                   context: "In the typical cell (\(typical)). "))
        }
        if let uncertainty = study.modelUncertainty {
            body.append(Sensitivity.htmlSection(uncertainty, study.sensitivity, seeds: study.seeds.count, arm: "cell",
                                                unavailable: WhatIfFormatter.unavailable))
        }
        return HTMLPage.document(title: "BackgroundSim battery what-if: " + study.names.joined(separator: ", "), body: body)
    }

    /// Every cell, one row each, with metric `metric` (by default the app battery use), the
    /// scenarios' values shaded from white (their lowest) to orange (their highest).
    static func grid(_ study: WhatIfStudy, metric: Int = WhatIfFormatter.battery) -> Markup {
        let isBattery = metric == WhatIfFormatter.battery
        let compared = study.metrics[metric]
        var section = Markup()
        if isBattery {
            section.element("h2", [("id", "grid")], "Every condition")
        } else {
            section.element("h2", [("id", "grid-" + compared.key.replacingOccurrences(of: ".", with: "-"))],
                            "Every condition: \(compared.label) (the app's own metric)")
        }
        let ranges = study.names.indices.map { scenario in
            study.extremes(scenario: scenario, metric: metric)
        }.enumerated().map { scenario, extremes in
            (study.summaries[scenario][extremes.lowest][metric].mean, study.summaries[scenario][extremes.highest][metric].mean)
        }
        let rows = (0..<study.grid.cellCount).map { cell -> [HTMLPage.Cell] in
            var cells = [HTMLPage.Cell(String(cell))] + study.grid.describe(cell: cell).map { HTMLPage.Cell($0, className: "text") }
            for scenario in study.names.indices {
                let summary = study.summaries[scenario][cell][metric]
                let (low, high) = ranges[scenario]
                let shade = high > low ? (summary.mean - low) / (high - low) : 0
                cells.append(HTMLPage.Cell(ComparisonFormatter.cell(summary),
                                           style: "background-color: rgba(213, 94, 0, \(Format.significant(shade * 0.6)))"))
            }
            return cells
        }
        section.append(HTMLPage.table(header: ["cell"] + study.grid.dimensions.map(\.name) + study.names.map { "\($0) (\(compared.unit))" },
                                      rows: rows))
        section.element("p", [("class", "note")], "Means across seeds ± the half-width of their 95 % confidence interval. "
                        + (isBattery ? "Shading (by the mean) runs from each scenario's cheapest condition (white) to its costliest (orange)."
                           : "Shading (by the mean) runs from each scenario's lowest value (white) to its highest (orange)."))
        return section
    }
}
