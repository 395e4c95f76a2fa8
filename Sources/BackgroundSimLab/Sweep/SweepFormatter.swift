import BackgroundSim

/// A sweep's summary as Markdown, CSV or JSON (the readable table is ``SweepSummary/table``).
package enum SweepFormatter {
    /// Markdown: every cell with its objectives, the Pareto front marked, and the best cells.
    package static func markdown(_ summary: SweepSummary) -> String {
        let definition = summary.definition
        let objectives = definition.objectives
        let front = Set(summary.paretoFront.map(\.index))
        var lines = ["# Sweep \(definition.name)", "",
                     "\(summary.cells.count) of \(definition.cellCount) cells, each \(definition.seeds.count) seeds × \(definition.days) days on the same seeds. "
                     + "Values: mean ± 95 % CI half-width across seeds; ★ marks the Pareto front.", ""]
        let axes = definition.axes.map { String($0.path.split(separator: ".").last ?? "") }
        lines.append("| cell | " + (axes + objectives.map { "\($0.label) (\($0.unit))" }).joined(separator: " | ") + " | front |")
        lines.append("|---:|" + String(repeating: "---:|", count: axes.count + objectives.count) + ":---:|")
        for cell in summary.cells {
            let objectiveCells = objectives.indices.map { index in
                cell.objectives[index].map { mean in
                    Format.significant(mean) + (cell.intervals[index].map { " ± " + Format.significant(($0.upperBound - $0.lowerBound) / 2) } ?? "")
                } ?? "n/a"
            }
            lines.append("| \(cell.index) | " + (cell.values.map { JSONWriter.compact($0.1) } + objectiveCells).joined(separator: " | ")
                         + " | \(front.contains(cell.index) ? "★" : "") |")
        }
        lines += ["", "## Best cells", ""]
        for index in objectives.indices {
            if let best = summary.best(for: index), let mean = best.objectives[index] {
                lines.append("- \(objectives[index].label): cell \(best.index) (\(best.settings)), \(Format.significant(mean)) \(objectives[index].unit)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// CSV: one line per cell, its axis values, each objective's mean and interval, and whether
    /// it is on the Pareto front.
    package static func csv(_ summary: SweepSummary) -> String {
        let definition = summary.definition
        let front = Set(summary.paretoFront.map(\.index))
        var header = ["cell"] + definition.axes.map(\.path)
        for objective in definition.objectives {
            header += [objective.key + ".mean", objective.key + ".ci95_low", objective.key + ".ci95_high"]
        }
        var lines = [(header + ["pareto_front"]).joined(separator: ",")]
        for cell in summary.cells {
            var fields = [String(cell.index)] + cell.values.map { ComparisonFormatter.csvField(JSONWriter.compact($0.1)) }
            for index in definition.objectives.indices {
                fields.append(cell.objectives[index].map(JSONWriter.format) ?? "")
                fields.append(cell.intervals[index].map { JSONWriter.format($0.lowerBound) } ?? "")
                fields.append(cell.intervals[index].map { JSONWriter.format($0.upperBound) } ?? "")
            }
            fields.append(front.contains(cell.index) ? "true" : "false")
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    /// JSON: the sweep's name, its cells with their objectives, the Pareto front and the best cells.
    package static func json(_ summary: SweepSummary) -> JSONValue {
        let objectives = summary.definition.objectives
        let front = summary.paretoFront.map(\.index)
        return .object([
            ("name", .string(summary.definition.name)),
            ("cells", .array(summary.cells.map { cell in
                .object([
                    ("cell", .number(Double(cell.index))),
                    ("values", .object(cell.values)),
                    ("objectives", .object(objectives.indices.map { index in
                        (objectives[index].key, cell.objectives[index].map { mean in
                            .object([("mean", .number(mean)),
                                      ("ci95", cell.intervals[index].map { .array([.number($0.lowerBound), .number($0.upperBound)]) } ?? .null)])
                        } ?? .null)
                    })),
                    ("paretoFront", .bool(front.contains(cell.index))),
                ])
            })),
            ("paretoFront", .array(front.map { .number(Double($0)) })),
            ("best", .object(objectives.indices.map { index in
                (objectives[index].key, summary.best(for: index).map { .number(Double($0.index)) } ?? .null)
            })),
        ])
    }
}
