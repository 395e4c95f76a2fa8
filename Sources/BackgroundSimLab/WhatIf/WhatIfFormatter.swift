import BackgroundSim

/// A what-if study as readable text, Markdown, CSV or JSON.
package enum WhatIfFormatter {
    static let battery = WhatIfStudy.metric("energy.appBatteryPercentPerDay")

    /// The study's one-line setup.
    static func setup(_ study: WhatIfStudy) -> String {
        let shape = study.grid.dimensions.map { "\($0.levels.count) \($0.name)" }.joined(separator: " × ")
        return "\(study.names.joined(separator: ", ")) in \(study.grid.cellCount) conditions (\(shape)), "
            + "\(study.seeds.count) seeds × \(study.days) days each, the same seeds in every cell"
            + (study.modelUncertainty.map { "; under model uncertainty (\($0.varied.count) numbers of the iOS model drawn per seed from their plausible ranges)" } ?? "")
    }

    /// Why there is no ranking under model uncertainty.
    static let unavailable = "the ranking of what the typical cell's app battery use follows needs at least 8 seeds"

    /// For each scenario: its app battery use in typical conditions and the range across the grid.
    static func headlines(_ study: WhatIfStudy) -> [String] {
        study.names.indices.map { index in
            let typical = study.summaries[index][study.grid.typicalCell][battery]
            let (low, high) = study.extremes(scenario: index, metric: battery)
            func value(_ cell: Int) -> String { Format.significant(study.summaries[index][cell][battery].mean) }
            let weighted = study.weightedMean(scenario: index, metric: battery)
                .map { "; \(Format.significant($0)) weighted by the conditions' shares" } ?? ""
            return "\(study.names[index]): \(ComparisonFormatter.cell(typical)) %/day in typical conditions; "
                + "from \(value(low)) (\(study.grid.describe(cell: low).joined(separator: ", "))) "
                + "to \(value(high)) (\(study.grid.describe(cell: high).joined(separator: ", ")))" + weighted
        }
    }

    /// Rows of one dimension's effect: each level with the others typical, one cell per scenario.
    static func effectRows(_ study: WhatIfStudy, dimension: Int, metric: Int) -> [(level: String, cells: [String])] {
        let grid = study.grid
        return zip(grid.dimensions[dimension].levels.indices, grid.cellsVarying(dimension)).map { level, cell in
            let name = grid.dimensions[dimension].levels[level].name + (level == grid.dimensions[dimension].typical ? " (typical)" : "")
            return (name, study.names.indices.map { ComparisonFormatter.cell(study.summaries[$0][cell][metric]) })
        }
    }

    /// The indices in the study's metrics of the app's own (`app.metrics`), which follow the
    /// standard ones.
    static func appMetrics(_ study: WhatIfStudy) -> Range<Int> {
        WhatIfStudy.standardMetrics.count..<study.metrics.count
    }

    /// Rows of every cell for `metric`: its number, its conditions, one value per scenario.
    static func cellRows(_ study: WhatIfStudy, metric: Int) -> [[String]] {
        (0..<study.grid.cellCount).map { cell in
            [String(cell), study.grid.describe(cell: cell).joined(separator: ", ")]
                + study.names.indices.map { ComparisonFormatter.cell(study.summaries[$0][cell][metric]) }
        }
    }

    /// Readable text: the headlines, each dimension's effect, then every cell.
    package static func table(_ study: WhatIfStudy) -> String {
        let metric = study.metrics[battery]
        var lines = ["What-if: " + setup(study), "", "App battery use (\(metric.unit)), mean ± 95 % CI half-width:"]
        lines += headlines(study).map { "  " + $0 }
        for dimension in study.grid.dimensions.indices {
            lines += ["", "By \(study.grid.dimensions[dimension].name), the rest typical:"]
            lines += TextTable.render(header: [""] + study.names, rows: effectRows(study, dimension: dimension, metric: battery).map { row in
                [row.level] + row.cells
            }).map { "  " + $0 }
        }
        lines += ["", "Every cell (app battery use, \(metric.unit), mean ± 95 % CI half-width):"]
        lines += TextTable.render(header: ["cell", "conditions"] + study.names, rows: cellRows(study, metric: battery)).map { "  " + $0 }
        for index in appMetrics(study) {
            let metric = study.metrics[index]
            lines += ["", "Every cell (\(metric.label), \(metric.unit), mean ± 95 % CI half-width; the app's own metric):"]
            lines += TextTable.render(header: ["cell", "conditions"] + study.names, rows: cellRows(study, metric: index)).map { "  " + $0 }
        }
        if let uncertainty = study.modelUncertainty {
            lines += [""] + Sensitivity.lines(uncertainty, study.sensitivity, seeds: study.seeds.count, arm: "cell",
                                              unavailable: unavailable)
        }
        return lines.joined(separator: "\n")
    }

    /// Markdown: the headlines, a table per dimension, and the grid.
    package static func markdown(_ study: WhatIfStudy) -> String {
        let metric = study.metrics[battery]
        var lines = ["# Battery what-if", "", setup(study) + ". Values: app battery use in \(metric.unit), mean ± 95 % CI half-width across seeds.", ""]
        lines += headlines(study).map { "- " + $0 }
        for dimension in study.grid.dimensions.indices {
            lines += ["", "## By \(study.grid.dimensions[dimension].name), the rest typical", ""]
            lines.append("| \(study.grid.dimensions[dimension].name) | " + study.names.joined(separator: " | ") + " |")
            lines.append("|---|" + String(repeating: "---:|", count: study.names.count))
            for row in effectRows(study, dimension: dimension, metric: battery) {
                lines.append("| \(row.level) | " + row.cells.joined(separator: " | ") + " |")
            }
        }
        lines += ["", "## Every cell", ""]
        lines.append("| cell | " + study.grid.dimensions.map(\.name).joined(separator: " | ") + " | " + study.names.joined(separator: " | ") + " |")
        lines.append("|---:|" + String(repeating: "---|", count: study.grid.dimensions.count) + String(repeating: "---:|", count: study.names.count))
        for cell in 0..<study.grid.cellCount {
            let values = study.names.indices.map { ComparisonFormatter.cell(study.summaries[$0][cell][battery]) }
            lines.append("| \(cell) | " + study.grid.describe(cell: cell).joined(separator: " | ") + " | " + values.joined(separator: " | ") + " |")
        }
        for index in appMetrics(study) {
            let metric = study.metrics[index]
            lines += ["", "## Every cell: \(metric.label) (\(metric.unit)), the app's own metric", ""]
            lines.append("| cell | conditions | " + study.names.joined(separator: " | ") + " |")
            lines.append("|---:|---|" + String(repeating: "---:|", count: study.names.count))
            for row in cellRows(study, metric: index) { lines.append("| " + row.joined(separator: " | ") + " |") }
        }
        if let uncertainty = study.modelUncertainty {
            lines += ["", "## Under model uncertainty", ""]
            lines += Sensitivity.lines(uncertainty, study.sensitivity, seeds: study.seeds.count, arm: "cell", markdown: true,
                                       unavailable: unavailable)
        }
        return lines.joined(separator: "\n")
    }

    /// CSV: one line per scenario, cell and metric.
    package static func csv(_ study: WhatIfStudy) -> String {
        let dimensions = study.grid.dimensions.map { $0.name.replacingOccurrences(of: " ", with: "_") }
        var lines = ((["scenario", "cell"] + dimensions + ["metric", "unit", "mean", "ci95_low", "ci95_high", "p10", "median", "p90", "count"])
            .joined(separator: ","))
        for (index, name) in study.names.enumerated() {
            for cell in 0..<study.grid.cellCount {
                let prefix = [name, String(cell)] + study.grid.describe(cell: cell)
                for (metric, summary) in zip(study.metrics, study.summaries[index][cell]) {
                    let numbers = [summary.mean, summary.mean - summary.halfWidth95, summary.mean + summary.halfWidth95,
                                   summary.p10, summary.median, summary.p90].map(JSONWriter.format)
                    let fields = prefix + [metric.key, metric.unit] + numbers + [String(summary.count)]
                    lines += "\n" + fields.map(ComparisonFormatter.csvField).joined(separator: ",")
                }
            }
        }
        return lines
    }

    /// JSON: the grid's dimensions and levels, and for each cell each scenario's metric summaries.
    package static func json(_ study: WhatIfStudy) -> JSONValue {
        .object([
            ("scenarios", .array(study.names.map { .string($0) })),
            ("seeds", .array(study.seeds.map { .string(String($0)) })),
            ("days", .number(Double(study.days))),
            ("modelUncertainty", study.modelUncertainty.map { Sensitivity.json($0, study.sensitivity, names: study.names) } ?? .null),
            ("dimensions", .array(study.grid.dimensions.map { dimension in
                .object([
                    ("name", .string(dimension.name)),
                    ("typical", .string(dimension.levels[dimension.typical].name)),
                    ("levels", .array(dimension.levels.map { level in
                        .object([("name", .string(level.name)), ("share", level.share.map(JSONValue.number) ?? .null),
                                 ("settings", .object(level.settings.map { ($0.path, $0.value) }))])
                    })),
                ])
            })),
            ("weighted", study.grid.cellWeights == nil ? .null : .object(study.metrics.enumerated().map { metric in
                (metric.element.key, .array(study.names.indices.map { index in
                    study.weightedMean(scenario: index, metric: metric.offset).map(JSONValue.number) ?? .null
                }))
            })),
            ("cells", .array((0..<study.grid.cellCount).map { cell in
                .object([
                    ("cell", .number(Double(cell))),
                    ("levels", .array(study.grid.describe(cell: cell).map { .string($0) })),
                    ("metrics", .object(study.metrics.enumerated().map { metric in
                        (metric.element.key, .array(study.names.indices.map { index in
                            let summary = study.summaries[index][cell][metric.offset]
                            return summary.count == 0 ? .null : .object([
                                ("mean", .number(summary.mean)),
                                ("ci95", .array([.number(summary.mean - summary.halfWidth95), .number(summary.mean + summary.halfWidth95)])),
                            ])
                        }))
                    })),
                ])
            })),
        ])
    }
}
