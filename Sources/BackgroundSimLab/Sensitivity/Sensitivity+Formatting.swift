import BackgroundSim

extension Sensitivity {
    /// What the model's uncertainty does to a decision, for the text and Markdown formats: what
    /// was drawn, the robustness line, and the numbers ranked (`sensitivity` `nil` without an
    /// objective or enough seeds). `arm` names an arm: "scenario", "cell", "configuration".
    package static func lines(_ uncertainty: ModelUncertainty, _ sensitivity: Sensitivity?, seeds: Int, arm: String,
                              names: [String] = [], markdown: Bool = false, unavailable: String = defaultUnavailable) -> [String] {
        let fixed = uncertainty.parameters.map(\.path).filter(uncertainty.fixedPaths.contains)
        var lines = ["Model uncertainty: \(uncertainty.varied.count) numbers of the iOS model drawn per seed from their plausible "
                     + "ranges (the same draw for every \(arm)); the intervals include them."
                     + (fixed.isEmpty ? "" : " Left as the \(arm)s set them, since they differ in them: \(fixed.joined(separator: ", ")).")]
        guard let sensitivity else { return lines + ["Sensitivity: " + unavailable + "."] }
        lines.append(markdown ? "**\(sensitivity.line).**" : sensitivity.line + ".")
        lines += breakEvenLines(sensitivity, names: names, markdown: markdown)
        let figures = sensitivity.entries.first?.correlations.map(\.figure) ?? []
        let chance = rho(2 / Double(seeds).squareRoot())
        if markdown {
            lines += ["", "Spearman ρ over the seeds; |ρ| below about \(chance) may be chance.",
                      "", "| number | plausible | " + figures.map { "ρ with \($0)" }.joined(separator: " | ") + " |",
                      "|---|---|" + String(repeating: "---:|", count: figures.count)]
            for entry in sensitivity.entries.prefix(listed) {
                lines.append("| `\(entry.path)` | \(Format.significant(entry.plausible.lowerBound))–\(Format.significant(entry.plausible.upperBound)) | "
                             + entry.correlations.map { rho($0.rho) }.joined(separator: " | ") + " |")
            }
        } else {
            lines.append("Most sensitive to (Spearman ρ over the seeds with " + figures.joined(separator: "; ")
                         + "; |ρ| below about \(chance) may be chance):")
            for entry in sensitivity.entries.prefix(listed) {
                lines.append("  \(entry.path) (\(Format.significant(entry.plausible.lowerBound))–\(Format.significant(entry.plausible.upperBound))): "
                             + entry.correlations.map { rho($0.rho) }.joined(separator: ", "))
            }
        }
        return lines
    }

    /// The break-even points searched (``BreakEven``), one line per number and mode: where the
    /// recommendation changes, or that it holds over the whole plausible range.
    static func breakEvenLines(_ sensitivity: Sensitivity, names: [String], markdown: Bool) -> [String] {
        guard !sensitivity.breakEvens.isEmpty, !names.isEmpty else { return [] }
        var lines: [String] = []
        if let robust = sensitivity.robustChoice {
            let text = robust.line(names: names, unit: sensitivity.breakEvens.first?.unit ?? "", recommended: sensitivity.choice) + "."
            lines += ["", text]
        }
        lines += ["", "Break-even points (the recommendation on all seeds: \(sensitivity.choice.map { names[$0] } ?? "none"); "
                     + "each number set across its plausible range, the comparison run again):"]
        for breakEven in sensitivity.breakEvens {
            let said = breakEven.description(names: names)
            let text = said.isEmpty
                ? "\(shortPath(breakEven.path)): holds over the whole plausible range \(Format.significant(breakEven.plausible.lowerBound))–"
                    + "\(Format.significant(breakEven.plausible.upperBound)), \(breakEven.others.rawValue)"
                : "\(shortPath(breakEven.path)): " + said.joined(separator: "; ")
            lines.append((markdown ? "- " : "  ") + text)
        }
        return lines
    }

    /// Why there is no ranking, for a comparison or a sweep.
    package static let defaultUnavailable = "give an objective (--minimize or --maximize) and at least 8 seeds to rank the numbers it hangs on"

    /// ρ to two decimals.
    static func rho(_ value: Double) -> String { Format.significant((value * 100).rounded() / 100) }

    /// The JSON `modelUncertainty` object: what was drawn and fixed, the line, the ranking and
    /// the quarters (their choices by `names`).
    package static func json(_ uncertainty: ModelUncertainty, _ sensitivity: Sensitivity?, names: [String]) -> JSONValue {
        .object([
            ("fixed", .array(uncertainty.parameters.map(\.path).filter(uncertainty.fixedPaths.contains).map(JSONValue.string))),
            ("parameters", .array(uncertainty.varied.map { parameter in
                .object([("path", .string(parameter.path)), ("plausible", .array([.number(parameter.plausible.lowerBound), .number(parameter.plausible.upperBound)])),
                         ("logarithmic", .bool(parameter.isLogarithmic))])
            })),
            ("verdict", sensitivity.map { .string(String(describing: $0.verdict)) } ?? .null),
            ("line", sensitivity.map { .string($0.line) } ?? .null),
            ("sensitivity", .array((sensitivity?.entries ?? []).map { entry in
                .object([("path", .string(entry.path)), ("strength", .number(entry.strength)),
                         ("correlations", .array(entry.correlations.map { .object([("figure", .string($0.figure)), ("rho", .number($0.rho))]) }))])
            })),
            ("breakEvens", .array((sensitivity?.breakEvens ?? []).map { breakEven in
                func point(_ point: BreakEven.Point?) -> JSONValue {
                    point.map { .object([("holdsAt", .number($0.holdsAt)), ("changesAt", .number($0.changesAt)),
                                         ("choice", $0.choice.map { .string(names[$0]) } ?? .null), ("confident", .bool($0.confident))]) } ?? .null
                }
                return .object([
                    ("path", .string(breakEven.path)), ("others", .string(breakEven.others == .drawn ? "drawn" : "atDefaults")),
                    ("plausible", .array([.number(breakEven.plausible.lowerBound), .number(breakEven.plausible.upperBound)])),
                    ("scenarioValue", .number(breakEven.scenarioValue)), ("above", point(breakEven.above)), ("below", point(breakEven.below)),
                    ("probes", .array(breakEven.probes.map { probe in
                        .object([("value", .number(probe.value)), ("choice", probe.choice.map { .string(names[$0]) } ?? .null),
                                 ("confident", .bool(probe.confident)), ("advantage", probe.advantage.map(JSONValue.number) ?? .null)])
                    })),
                ])
            })),
            ("robustChoice", sensitivity?.robustChoice.map { robust in
                .object([("choice", robust.choice.map { .string(names[$0]) } ?? .null),
                         ("maximumRegret", robust.maximumRegret.map(JSONValue.number) ?? .null),
                         ("probes", .number(Double(robust.probes)))])
            } ?? .null),
            ("quarters", .array((sensitivity?.quarters ?? []).map { quarter in
                .object([("path", .string(quarter.path)), ("values", .array([.number(quarter.values.lowerBound), .number(quarter.values.upperBound)])),
                         ("seeds", .number(Double(quarter.seeds))), ("choice", quarter.choice.map { .string(names[$0]) } ?? .null),
                         ("confident", .bool(quarter.confident))])
            })),
        ])
    }
}
