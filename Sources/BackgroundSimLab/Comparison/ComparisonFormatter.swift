import BackgroundSim

/// A comparison as a table, Markdown, CSV or JSON.
package enum ComparisonFormatter {
    /// Readable text: a line per metric with each scenario's mean ± half-width, then the verdicts.
    /// Every column is as wide as its widest name or cell plus two spaces, so nothing is cut and
    /// no two columns touch, whatever the names and numbers.
    package static func table(_ comparison: Comparison) -> String {
        var lines = [comparison.recommendation(comparison.objective).line, ""]
        if let precision = comparison.precision { lines += [precision.line, ""] }
        if let objective = comparison.objective { lines += ["Objective: \(objective.description)", ""] }
        if let uncertainty = uncertaintyLines(comparison) { lines += uncertainty + [""] }
        lines += ["Comparison over \(comparison.seeds.count) seeds × \(comparison.days) days (the same seeds for every scenario)", ""]
        let labelWidth = (comparison.rows.map { $0.metric.label.count + $0.metric.unit.count + 3 }.max() ?? 10) + 2
        let widestCell = comparison.rows.flatMap { $0.summaries.map { cell($0).count } }.max() ?? 0
        let columnWidth = Swift.max(20, (comparison.names.map(\.count).max() ?? 0) + 2, widestCell + 2)
        lines.append("".column(labelWidth)
                     + comparison.names.map { $0.column(columnWidth) }.joined())
        for row in comparison.rows {
            let label = row.metric.label + (row.metric.unit.isEmpty ? "" : " (\(row.metric.unit))")
            let cells = row.summaries.map { cell($0).column(columnWidth) }
            lines.append(label.column(labelWidth) + cells.joined())
        }
        lines += ["", "Verdicts (\(verdictsMethod(comparison))):"]
        lines += verdicts(comparison).map { "  " + $0.verdict + ($0.narrowing.map { "; pairing narrowed the interval by \($0)" } ?? "") }
        return lines.joined(separator: "\n")
    }

    /// How the verdicts were reached, in a phrase.
    static func verdictsMethod(_ comparison: Comparison) -> String {
        "paired differences against \(comparison.names[0]) with 95 % CIs; each judged against its metric's margin — a real difference "
            + "(paired t-test), one of at least the margin, or equivalence (TOST) — Holm-corrected over \(comparison.testCount) claims at "
            + "\(Format.significant(comparison.alpha * 100)) % family-wise"
    }

    /// Every candidate's verdict on every metric, with how much pairing narrowed the interval
    /// ("62 %") where it did.
    static func verdicts(_ comparison: Comparison) -> [(verdict: String, narrowing: String?)] {
        (1..<comparison.names.count).flatMap { index in
            comparison.rows.map { row in
                // Never "100 %": pairing narrows an interval, it does not close it.
                let narrowing = comparison.narrowing(row, candidate: index).flatMap { share -> String? in
                    share > 0.995 ? "more than 99 %" : share > 0.005 ? "\(Int((share * 100).rounded())) %" : nil
                }
                return (comparison.verdict(row, candidate: index), narrowing)
            }
        }
    }

    /// What the model's uncertainty does to the decision, for the text and Markdown formats;
    /// `nil` unless the runs drew the iOS model's uncertain numbers.
    static func uncertaintyLines(_ comparison: Comparison, markdown: Bool = false) -> [String]? {
        guard let uncertainty = comparison.modelUncertainty else { return nil }
        return Sensitivity.lines(uncertainty, comparison.objective.flatMap(comparison.sensitivity), seeds: comparison.seeds.count,
                                 arm: "scenario", names: comparison.names, markdown: markdown)
    }

    static func uncertaintyJSON(_ comparison: Comparison, _ uncertainty: ModelUncertainty) -> JSONValue {
        Sensitivity.json(uncertainty, comparison.objective.flatMap(comparison.sensitivity), names: comparison.names)
    }

    /// "mean ± half-width", or "n/a" where the metric does not apply.
    static func cell(_ summary: SampleSummary) -> String {
        summary.count == 0 ? "n/a" : "\(Format.significant(summary.mean)) ± \(Format.significant(summary.halfWidth95))"
    }

    /// Markdown: a summary table and the verdicts.
    package static func markdown(_ comparison: Comparison) -> String {
        var lines = ["# Comparison", "", "**\(comparison.recommendation(comparison.objective).line)**", ""]
        if let precision = comparison.precision { lines += [precision.line + ".", ""] }
        if let objective = comparison.objective { lines += ["Objective: \(objective.description).", ""] }
        if let uncertainty = uncertaintyLines(comparison, markdown: true) { lines += uncertainty + [""] }
        lines += ["\(comparison.seeds.count) seeds × \(comparison.days) days; the same seeds for every scenario (common random numbers). Values: mean ± 95 % CI half-width across seeds.", ""]
        lines.append("| metric | margin | " + comparison.names.joined(separator: " | ") + " |")
        lines.append("|---|---:|" + String(repeating: "---:|", count: comparison.names.count))
        for row in comparison.rows {
            let label = row.metric.label + (row.metric.unit.isEmpty ? "" : " (\(row.metric.unit))")
            lines.append("| \(label) | ±\(Format.significant(row.metric.margin)) | " + row.summaries.map(cell).joined(separator: " | ") + " |")
        }
        lines += ["", "## Verdicts", "", "By \(verdictsMethod(comparison)).", ""]
        lines += verdicts(comparison).map { "- " + $0.verdict + ($0.narrowing.map { " (pairing narrowed the interval by \($0))" } ?? "") }
        return lines.joined(separator: "\n")
    }

    /// CSV: one line per scenario and metric, after a first line starting `#` with the
    /// recommendation (read it with a CSV reader's comment option, such as pandas' `comment="#"`).
    package static func csv(_ comparison: Comparison) -> String {
        var lines = ["# " + comparison.recommendation(comparison.objective).line]
        if let precision = comparison.precision { lines.append("# " + precision.line) }
        if let uncertainty = comparison.modelUncertainty {
            lines.append("# Model uncertainty: \(uncertainty.varied.count) numbers of the iOS model drawn per seed from their plausible ranges")
            if let sensitivity = comparison.objective.flatMap(comparison.sensitivity) { lines.append("# " + sensitivity.line) }
        }
        lines.append("scenario,metric,unit,margin,mean,ci95_low,ci95_high,sd,p10,median,p90,paired_difference,paired_ci95_low,paired_ci95_high,unpaired_ci95_half_width,judgement,holm_adjusted_p")
        for row in comparison.rows {
            for (index, summary) in row.summaries.enumerated() {
                var fields = [comparison.names[index], row.metric.key, row.metric.unit, JSONWriter.format(row.metric.margin)]
                fields += [summary.mean, summary.mean - summary.halfWidth95, summary.mean + summary.halfWidth95,
                           summary.standardDeviation, summary.p10, summary.median, summary.p90].map { JSONWriter.format($0) }
                if index > 0 {
                    let d = row.differences[index - 1]
                    fields += [d.mean, d.mean - d.halfWidth95, d.mean + d.halfWidth95, row.unpairedHalfWidths[index - 1]].map { JSONWriter.format($0) }
                    let test = row.tests[index - 1]
                    fields += ["\(test.judgement)", JSONWriter.format(test.adjustedPValue)]
                } else {
                    fields += ["", "", "", "", "", ""]
                }
                lines.append(fields.map(csvField).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n")
    }

    package static func csvField(_ text: String) -> String {
        text.contains(",") || text.contains("\"") ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    /// JSON: scenarios, seeds, days, and per metric the summaries, paired differences and verdicts.
    package static func json(_ comparison: Comparison) -> JSONValue {
        func summary(_ s: SampleSummary) -> JSONValue {
            .object([("mean", .number(s.mean)), ("sd", .number(s.standardDeviation)),
                     ("ci95", .array([.number(s.mean - s.halfWidth95), .number(s.mean + s.halfWidth95)])),
                     ("p10", .number(s.p10)), ("median", .number(s.median)), ("p90", .number(s.p90))])
        }
        let recommendation = comparison.recommendation(comparison.objective)
        let uncertainty: JSONValue = comparison.modelUncertainty.map { uncertaintyJSON(comparison, $0) } ?? .null
        let metrics: [JSONValue] = comparison.rows.map { row in
            let verdicts: [JSONValue] = (1..<comparison.names.count).map { .string(comparison.verdict(row, candidate: $0)) }
            return .object([
                ("key", .string(row.metric.key)),
                ("unit", .string(row.metric.unit)),
                ("margin", .number(row.metric.margin)),
                ("summaries", .array(row.summaries.map(summary))),
                ("pairedDifferences", .array(row.differences.map(summary))),
                ("unpairedCI95HalfWidths", .array(row.unpairedHalfWidths.map { .number($0) })),
                ("judgements", .array(row.tests.map { .string("\($0.judgement)") })),
                ("holmAdjustedPValues", .array(row.tests.map { .number($0.adjustedPValue) })),
                ("verdicts", .array(verdicts)),
                // Each scenario's value on each seed, in `seeds`' order (null where the metric
                // does not apply): what every figure above is computed from.
                ("perSeed", .array(row.values.map { arm in .array(arm.map { $0.map(JSONValue.number) ?? .null }) })),
            ])
        }
        return .object([
            ("recommendation", .object([("line", .string(recommendation.line)),
                                        ("choice", recommendation.choice.map { .string(comparison.names[$0]) } ?? .null),
                                        ("confident", .bool(recommendation.confident))])),
            ("objective", comparison.objective.map { .string($0.description) } ?? .null),
            ("modelUncertainty", uncertainty),
            ("precision", comparison.precision.map { precision in
                .object([("line", .string(precision.line)), ("decided", .bool(precision.decided)),
                         ("looks", .number(Double(precision.looks))), ("maximumLooks", .number(Double(precision.maximumLooks))),
                         ("seeds", .number(Double(precision.seeds))), ("maximumSeeds", .number(Double(precision.maximumSeeds))),
                         ("metrics", .array(precision.keys.map(JSONValue.string))),
                         ("undecided", .array(precision.undecided.map(JSONValue.string)))])
            } ?? .null),
            ("multipleComparisons", .object([("method", .string("Holm")), ("tests", .number(Double(comparison.testCount))),
                                             ("familyWiseError", .number(comparison.alpha))])),
            ("scenarios", .array(comparison.names.map { .string($0) })),
            ("seeds", .array(comparison.seeds.map { .string(String($0)) })),
            ("days", .number(Double(comparison.days))),
            ("metrics", .array(metrics)),
        ])
    }
}
