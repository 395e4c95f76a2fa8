import BackgroundSim

/// A sweep's summary as Markdown, CSV or JSON (the readable table is ``SweepSummary/table``).
package enum SweepFormatter {
    /// Markdown: every cell with its objectives, the Pareto front marked, and the best cells.
    package static func markdown(_ summary: SweepSummary) -> String {
        let definition = summary.definition
        let objectives = definition.objectives
        let marks = summary.frontMarks
        var lines = ["# Sweep \(definition.name)", "", "**\(summary.recommendation)**", "",
                     "\(summary.cells.count) of \(definition.cellCount) cells, each \(definition.seeds.count) seeds × \(definition.days) days on the same seeds. "
                     + "Values: mean ± 95 % CI half-width across seeds; ★ marks the Pareto front of the means, ☆ a cell no other "
                     + "beats on both objectives with confidence (paired, Bonferroni, 95 %).", ""]
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
                         + " | \(marks[cell.index] == "yes" ? "★" : marks[cell.index] == "possibly" ? "☆" : "") |")
        }
        lines += ["", "## Best cells", ""]
        lines += summary.bestLines.map { "- " + $0 }
        if let uncertainty = definition.drawnUncertainty {
            lines += ["", "## Under model uncertainty", ""]
            lines += Sensitivity.lines(uncertainty, summary.sensitivity, seeds: definition.seeds.count, arm: "cell", markdown: true)
        }
        return lines.joined(separator: "\n")
    }

    /// CSV: a first line `# Recommendation: …`, then one line per cell, its axis values, each
    /// objective's mean and interval, whether it is on the Pareto front of the means, and
    /// whether it may be (not confidently dominated).
    package static func csv(_ summary: SweepSummary) -> String {
        let definition = summary.definition
        let marks = summary.frontMarks
        var header = ["cell"] + definition.axes.map(\.path)
        for objective in definition.objectives {
            header += [objective.key + ".mean", objective.key + ".ci95_low", objective.key + ".ci95_high"]
        }
        var lines = ["# " + summary.recommendation, (header + ["pareto_front", "possibly_on_front"]).joined(separator: ",")]
        for cell in summary.cells {
            var fields = [String(cell.index)] + cell.values.map { ComparisonFormatter.csvField(JSONWriter.compact($0.1)) }
            for index in definition.objectives.indices {
                fields.append(cell.objectives[index].map(JSONWriter.format) ?? "")
                fields.append(cell.intervals[index].map { JSONWriter.format($0.lowerBound) } ?? "")
                fields.append(cell.intervals[index].map { JSONWriter.format($0.upperBound) } ?? "")
            }
            fields.append(marks[cell.index] == "yes" ? "true" : "false")
            fields.append(marks[cell.index] != nil ? "true" : "false")
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    /// JSON: the sweep's name, its cells with their objectives, the Pareto front and the best cells.
    package static func json(_ summary: SweepSummary) -> JSONValue {
        let objectives = summary.definition.objectives
        let front = summary.paretoFront.map(\.index)
        let marks = summary.frontMarks
        let cellNames = summary.cells.map { "cell \($0.index)" }
        let uncertainty: JSONValue = summary.definition.drawnUncertainty.map { Sensitivity.json($0, summary.sensitivity, names: cellNames) } ?? .null
        return .object([
            ("recommendation", .string(summary.recommendation)),
            ("objective", summary.definition.objective.map { .string($0.description) } ?? .null),
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
                    ("possiblyOnFront", .bool(marks[cell.index] != nil)),
                ])
            })),
            ("modelUncertainty", uncertainty),
            ("paretoFront", .array(front.map { .number(Double($0)) })),
            ("possiblyOnFront", .array(summary.possiblyOnFront.map { .number(Double($0.index)) })),
            ("best", .object(objectives.indices.map { index in
                (objectives[index].key, summary.best(for: index).map { .number(Double($0.index)) } ?? .null)
            })),
            ("tiedWithBest", .object(objectives.indices.map { index in
                (objectives[index].key, .array(summary.tiedWithBest(for: index).map { .number(Double($0.index)) }))
            })),
        ])
    }
}
