import BackgroundSim

extension Sensitivity {
    /// The HTML report's section under model uncertainty: what was drawn, the robustness line,
    /// and the numbers the decision follows, as bars of Spearman's ρ by rank with a table naming
    /// them (`sensitivity` `nil` without an objective or enough seeds).
    package static func htmlSection(_ uncertainty: ModelUncertainty, _ sensitivity: Sensitivity?, seeds: Int, arm: String,
                                    names: [String] = [], unavailable: String = defaultUnavailable) -> Markup {
        var section = Markup()
        section.element("h2", [("id", "model-uncertainty")], "Under model uncertainty")
        section.element("p", [("class", "note")], "\(uncertainty.varied.count) numbers of the iOS model that are our inference or observed "
                        + "in the field were drawn per seed from their plausible ranges (the same draw for every \(arm)); every figure "
                        + "below includes them (docs/OUTPUT.md, \"Under model uncertainty\").")
        guard let sensitivity else {
            section.element("p", [("class", "note")], "Sensitivity: " + unavailable + ".")
            return section
        }
        let robust = sensitivity.verdict == .robust
        section.element("p", [("class", "recommendation " + (robust ? "confident" : "tentative"))], sensitivity.line + ".")
        let shown = Array(sensitivity.entries.prefix(listed))
        let figures = shown.first?.correlations.map(\.figure) ?? []
        let chart = BarChart(label: "Spearman's ρ of the decision's figures with each number drawn, by rank",
                             categories: shown.indices.map { "\($0 + 1)" }, xTitle: "number (by rank, named below)",
                             y: ChartAxis(title: "Spearman ρ", includesZero: true),
                             series: figures.indices.map { index in
                                 (figures[index], HTMLPage.color(index), shown.map { $0.correlations[index].rho })
                             }, unit: "")
        section.append(HTMLPage.figure(id: "sensitivity", heading: "What the decision hangs on", chart: chart.svg,
                                       caption: "Each number's rank correlation over the \(seeds) seeds with the figures the "
                                       + "decision reads; |ρ| below about \(Format.significant((200 / Double(seeds).squareRoot()).rounded() / 100)) may be chance."))
        let rows = shown.enumerated().map { rank, entry in
            ["\(rank + 1)", entry.path, "\(Format.significant(entry.plausible.lowerBound))–\(Format.significant(entry.plausible.upperBound))"]
                + entry.correlations.map { Format.significant(($0.rho * 100).rounded() / 100) }
        }.map { $0.map { HTMLPage.Cell($0) } }
        section.append(HTMLPage.table(header: ["rank", "number", "plausible"] + figures.map { "ρ with \($0)" }, rows: rows))
        section.append(breakEvenHTML(sensitivity, names: names))
        return section
    }

    /// Where the recommendation changes: each number searched, its break-even points, and a
    /// chart of the recommendation's margin — how much the arm recommended on all seeds beats
    /// the best other on the objective — against the number's value.
    static func breakEvenHTML(_ sensitivity: Sensitivity, names: [String]) -> Markup {
        var section = Markup()
        guard !sensitivity.breakEvens.isEmpty, !names.isEmpty else { return section }
        let chosen = sensitivity.choice.map { names[$0] } ?? "none"
        section.element("h3", [("id", "break-even")], "Where the recommendation changes")
        if let robust = sensitivity.robustChoice {
            section.element("p", [], robust.line(names: names, unit: sensitivity.breakEvens.first?.unit ?? "", recommended: sensitivity.choice) + ".")
        }
        section.open("ul")
        for line in breakEvenLines(sensitivity, names: names, markdown: true).filter({ $0.hasPrefix("- ") }) {
            section.element("li", [], String(line.dropFirst(2)))
        }
        section.close("ul")
        section.newline()
        let paths = sensitivity.breakEvens.map(\.path).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for path in paths {
            let searches = sensitivity.breakEvens.filter { $0.path == path }
            guard let first = searches.first else { continue }
            let series = searches.enumerated().map { index, search in
                let points = search.probes.compactMap { probe in probe.advantage.map { (probe.value, $0) } }
                return LineChart.Series(name: search.others.rawValue, color: HTMLPage.color(index), points: points, style: .lineWithDots,
                                        hovers: search.probes.filter { $0.advantage != nil }.map { probe in
                                            "\(Format.significant(probe.value)): \(probe.choice.map { names[$0] } ?? "none")"
                                                + (probe.confident ? ", confidently" : ", not confidently")
                                        })
            }
            let chart = LineChart(label: "The recommendation's margin against \(shortPath(path))",
                                  x: ChartAxis(title: "\(shortPath(path)) (plausible \(Format.significant(first.plausible.lowerBound))–"
                                               + "\(Format.significant(first.plausible.upperBound)))"),
                                  y: ChartAxis(title: "lead on the objective" + (first.unit.isEmpty ? "" : " (\(first.unit))"), includesZero: true),
                                  series: series)
            // The values at which another arm is recommended, whatever the lead says.
            let elsewhere = searches.flatMap { search in
                search.probes.filter { $0.choice != sensitivity.choice }.map { probe in
                    "\(Format.significant(probe.value)) (\(search.others.rawValue): \(probe.choice.map { names[$0] } ?? "no arm within the bounds"))"
                }
            }
            let changes = elsewhere.isEmpty ? " \(chosen) is recommended at every value probed."
                : " Another arm is recommended at \(elsewhere.joined(separator: ", ")): where \(chosen)'s lead is still above zero, it "
                    + "misses a bound there or cannot be told apart from that arm."
            section.append(HTMLPage.figure(id: "break-even-" + shortPath(path).replacingOccurrences(of: ".", with: "-"),
                                           heading: "Margin against \(shortPath(path))", chart: chart.svg,
                                           caption: "How much \(chosen), recommended on all seeds, beats the best other arm on the objective's "
                                           + "mean with \(shortPath(path)) set to each value probed (the scenario's value is "
                                           + "\(Format.significant(first.scenarioValue))); above zero it is the better one on the objective there. "
                                           + "The recommendation also weighs the bounds and the noise." + changes))
        }
        return section
    }
}
