import BackgroundSim

extension Sensitivity {
    /// The HTML report's section under model uncertainty: what was drawn, the robustness line,
    /// and the numbers the decision follows, as bars of Spearman's ρ by rank with a table naming
    /// them (`sensitivity` `nil` without an objective or enough seeds).
    package static func htmlSection(_ uncertainty: ModelUncertainty, _ sensitivity: Sensitivity?, seeds: Int, arm: String,
                                    unavailable: String = defaultUnavailable) -> Markup {
        var section = Markup()
        section.element("h2", [("id", "model-uncertainty")], "Under model uncertainty")
        section.element("p", [("class", "note")], "\(uncertainty.varied.count) numbers of the iOS model that are our inference or observed "
                        + "in the field were drawn per seed from their plausible ranges (the same draw for every \(arm)); every figure "
                        + "below includes them (docs/OUTPUT.md, \"Under model uncertainty\").")
        guard let sensitivity else {
            section.element("p", [("class", "note")], "Sensitivity: " + unavailable + ".")
            return section
        }
        let robust = sensitivity.line.hasPrefix("Robust")
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
        return section
    }
}
