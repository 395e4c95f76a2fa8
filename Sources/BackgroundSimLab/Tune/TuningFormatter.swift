import BackgroundSim

/// A tuning's outcome as a text table, Markdown, CSV or JSON; each starts with the
/// recommendation line.
package enum TuningFormatter {
    /// The procedure and its settings in a sentence.
    static func procedure(_ tuning: Tuning) -> String {
        let p = tuning.procedure
        let screening = tuning.outcome.screening
        let objective = p.objective
        let unit = objective.metric.differenceUnit.isEmpty ? "" : " " + objective.metric.differenceUnit
        var text = "Fully sequential selection (Kim–Nelson) with common random numbers at \(Int((p.confidence * 100).rounded())) % confidence, "
            + "indifference zone \(Format.significant(p.indifferenceZone))\(unit)"
        if !objective.bounds.isEmpty {
            text += ", tolerance " + zip(objective.bounds, p.tolerances).map { bound, tolerance in
                "\(Format.significant(tolerance)) on \(bound.metric.label)"
            }.joined(separator: ", ")
        }
        text += ". \(tuning.days) days per seed; \(tuning.effort)"
        if screening.isCapped {
            text += tuning.outcome.guaranteeHolds
                ? " (N was \(screening.requiredSeeds) seeds, over maximumSeeds, but the procedure ended at \(screening.seeds), before the cap bound)"
                : " (the procedure asked for \(screening.requiredSeeds) seeds; capped by maximumSeeds, so the guarantee does not hold)"
        }
        return text + ". Seeds start at \(tuning.firstSeed)."
    }

    /// Each configuration's row: index, objective mean ± half-width, each bound's mean, seeds,
    /// status, settings.
    static func rows(_ tuning: Tuning) -> (header: [String], rows: [[String]]) {
        let objective = tuning.procedure.objective
        func labelled(_ metric: ComparedMetric) -> String { metric.label + (metric.unit.isEmpty ? "" : " (\(metric.unit))") }
        let header = ["config", labelled(objective.metric)] + objective.bounds.map { labelled($0.metric) } + ["seeds", "status", "settings"]
        let rows = tuning.names.indices.map { index -> [String] in
            let summary = tuning.outcome.summaries[index]
            let value = summary.count == 0 ? "n/a" : "\(Format.significant(summary.mean)) ± \(Format.significant(summary.halfWidth95))"
            let bounds = tuning.outcome.boundMeans[index].map { $0.map(Format.significant) ?? "n/a" }
            return [String(index), value] + bounds + [String(tuning.outcome.seedsRun[index]), tuning.statusText(of: index), tuning.names[index]]
        }
        return (header, rows)
    }

    package static func table(_ tuning: Tuning, name: String) -> String {
        var lines = [tuning.recommendation, "", "Tuning \(name): \(tuning.procedure.objective.description).", procedure(tuning), ""]
        let (header, rows) = rows(tuning)
        lines += TextTable.render(header: header, rows: rows)
        lines += ["", "Values: the objective's mean ± 95 % CI half-width over the seeds each configuration ran; the bounds' means."]
        if let uncertainty = tuning.uncertaintyLines(markdown: false) { lines += [""] + uncertainty }
        return lines.joined(separator: "\n")
    }

    package static func markdown(_ tuning: Tuning, name: String) -> String {
        var lines = ["# Tuning \(name)", "", "**\(tuning.recommendation)**", "",
                     "Objective: \(tuning.procedure.objective.description). \(procedure(tuning))", ""]
        let (header, rows) = rows(tuning)
        lines.append("| " + header.joined(separator: " | ") + " |")
        lines.append("|" + header.indices.map { $0 >= header.count - 2 ? "---|" : "---:|" }.joined())
        lines += rows.map { "| " + $0.joined(separator: " | ") + " |" }
        if let uncertainty = tuning.uncertaintyLines(markdown: true) { lines += ["", "## Under model uncertainty", ""] + uncertainty }
        return lines.joined(separator: "\n")
    }

    /// CSV: a first line `# Recommendation: …`, then one line per configuration, with each
    /// parameter's value (`values[configuration][parameter]`, as JSON).
    package static func csv(_ tuning: Tuning, axes: [String], values: [[JSONValue]]) -> String {
        let objective = tuning.procedure.objective
        var header = ["configuration"] + axes + ["\(objective.metric.key).mean", "\(objective.metric.key).ci95_low", "\(objective.metric.key).ci95_high"]
        header += objective.bounds.map { "\($0.metric.key).mean" } + ["seeds", "status", "screened_out_by"]
        var lines = ["# " + tuning.recommendation, header.joined(separator: ",")]
        for index in tuning.names.indices {
            let summary = tuning.outcome.summaries[index]
            var fields = [String(index)] + values[index].map(JSONWriter.compact)
            fields += summary.count == 0 ? ["", "", ""]
                : [summary.mean, summary.mean - summary.halfWidth95, summary.mean + summary.halfWidth95].map { JSONWriter.format($0) }
            fields += tuning.outcome.boundMeans[index].map { $0.map { JSONWriter.format($0) } ?? "" }
            fields += [String(tuning.outcome.seedsRun[index]), tuning.status(of: index).rawValue,
                       tuning.outcome.screening.eliminatedBy[index].map(String.init) ?? ""]
            lines.append(fields.map(ComparisonFormatter.csvField).joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    package static func json(_ tuning: Tuning, name: String) -> JSONValue {
        let p = tuning.procedure
        let screening = tuning.outcome.screening
        let finalistNames = tuning.finalists.map { tuning.names[$0] }
        let uncertainty: JSONValue = tuning.modelUncertainty.map { Sensitivity.json($0, tuning.sensitivity, names: finalistNames) } ?? .null
        return .object([
            ("recommendation", .object([("line", .string(tuning.recommendation)),
                                        ("choice", tuning.outcome.best.map { .number(Double($0)) } ?? .null),
                                        ("guaranteeHolds", .bool(tuning.outcome.guaranteeHolds)),
                                        ("ci95", tuning.chosenInterval95.map { .array([.number($0.lowerBound), .number($0.upperBound)]) } ?? .null),
                                        ("indistinguishable", .array(tuning.outcome.indistinguishable.map { .number(Double($0)) }))])),
            ("name", .string(name)),
            ("objective", .string(p.objective.description)),
            ("procedure", .object([
                ("method", .string("fully sequential selection (Kim–Nelson) with common random numbers")),
                ("confidence", .number(p.confidence)), ("indifferenceZone", .number(p.indifferenceZone)),
                ("tolerances", .array(p.tolerances.map(JSONValue.number))),
                ("firstStageSeeds", .number(Double(p.firstStageSeeds))), ("maximumSeeds", .number(Double(p.maximumSeeds))),
                ("requiredSeeds", .number(Double(screening.requiredSeeds))), ("finalSeeds", .number(Double(screening.seeds))),
                ("looks", .number(Double(screening.looks))),
                ("configurationSeeds", .number(Double(tuning.outcome.seedsRun.reduce(0, +)))),
                ("survivors", .array(screening.survivors.map { .number(Double($0)) })),
            ])),
            ("modelUncertainty", uncertainty),
            ("days", .number(Double(tuning.days))),
            ("firstSeed", .string(String(tuning.firstSeed))),
            ("configurations", .array(tuning.names.indices.map { index in
                let summary = tuning.outcome.summaries[index]
                return .object([
                    ("configuration", .number(Double(index))), ("settings", .string(tuning.names[index])),
                    ("status", .string(tuning.status(of: index).rawValue)),
                    ("seeds", .number(Double(tuning.outcome.seedsRun[index]))),
                    ("objective", summary.count == 0 ? .null : .object([
                        ("mean", .number(summary.mean)),
                        ("ci95", .array([.number(summary.mean - summary.halfWidth95), .number(summary.mean + summary.halfWidth95)])),
                    ])),
                    ("bounds", .array(tuning.outcome.boundMeans[index].map { $0.map(JSONValue.number) ?? .null })),
                    ("feasibility", .array(tuning.outcome.feasibility[index].map { .string($0.rawValue) })),
                ])
            })),
        ])
    }
}
