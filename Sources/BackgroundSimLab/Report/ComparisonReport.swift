import BackgroundSim
import SimKernel

/// The HTML report of a comparison: the verdicts, a summary table, charts of the battery over a
/// typical day, the app's energy by component, the latency of its work and its launches by hour
/// of day, and the launch decisions per day by reason.
package enum ComparisonReport {
    /// The report as a complete HTML document; `command` (the command line that made it) is
    /// shown so a reader can run it again.
    package static func html(_ comparison: Comparison, command: String? = nil) -> String {
        var body = Markup()
        let scenarios = comparison.names.joined(separator: ", ")
        body.element("p", [("class", "setup")],
                     "\(scenarios): \(comparison.seeds.count) seeds × \(comparison.days) simulated days each, on the same seeds "
                     + "(the same user days, charging and network for every scenario: common random numbers). "
                     + "Every figure is a mean across seeds with its 95 % confidence interval unless stated otherwise.")
        if let command { body.append(HTMLPage.madeWith(command)) }
        body.newline()
        let recommendation = comparison.recommendation(comparison.objective)
        body.element("p", [("class", "recommendation " + (recommendation.confident ? "confident" : "tentative"))], recommendation.line)
        if let precision = comparison.precision { body.element("p", [("class", "note")], precision.line + ".") }
        if let objective = comparison.objective { body.element("p", [("class", "note")], "Objective: \(objective.description).") }
        body.newline()
        body.append(modelUncertainty(comparison))
        body.append(verdicts(comparison))
        body.append(summaryTable(comparison))
        body.append(battery(comparison))
        body.append(energy(comparison))
        body.append(latency(comparison))
        body.append(launches(comparison))
        body.append(decisions(comparison))
        return HTMLPage.document(title: "BackgroundSim comparison: " + comparison.names.joined(separator: " vs "), body: body)
    }

    /// Under model uncertainty: the robustness line, and the numbers the decision follows
    /// (``Sensitivity/htmlSection(_:_:seeds:arm:)``).
    static func modelUncertainty(_ comparison: Comparison) -> Markup {
        guard let uncertainty = comparison.modelUncertainty else { return Markup() }
        return Sensitivity.htmlSection(uncertainty, comparison.objective.flatMap(comparison.sensitivity), seeds: comparison.seeds.count,
                                       arm: "scenario", names: comparison.names)
    }

    static func verdicts(_ comparison: Comparison) -> Markup {
        var list = Markup()
        list.element("h2", [("id", "verdicts")], "Verdicts")
        list.element("p", [("class", "note")], "By \(ComparisonFormatter.verdictsMethod(comparison)). "
                     + "A verdict is equivalent when the change is shown to be within the metric's margin (the smallest "
                     + "difference that matters; see the summary's margin column), better or worse when a change at least "
                     + "that large is shown, and inconclusive otherwise.")
        list.open("ul", [("class", "verdicts")])
        for index in 1..<comparison.names.count {
            for row in comparison.rows {
                let judgement = comparison.judgement(row, candidate: index)
                var text = comparison.verdict(row, candidate: index)
                if let narrowing = comparison.narrowing(row, candidate: index), narrowing > 0.005 {
                    text += "; pairing narrowed the interval by \(Int((narrowing * 100).rounded())) %"
                }
                list.element("li", [("class", "\(judgement)")], text)
            }
        }
        list.close("ul")
        list.newline()
        return list
    }

    static func summaryTable(_ comparison: Comparison) -> Markup {
        var section = Markup()
        section.element("h2", [("id", "summary")], "Summary")
        let header = ["metric", "margin"] + comparison.names + comparison.names.dropFirst().map { "\($0) − \(comparison.names[0])" }
        let rows = comparison.rows.map { row -> [HTMLPage.Cell] in
            let label = row.metric.label + (row.metric.unit.isEmpty ? "" : " (\(row.metric.unit))")
            var cells = [HTMLPage.Cell(label), HTMLPage.Cell("±" + Format.significant(row.metric.margin))]
            cells += row.summaries.map { HTMLPage.Cell(ComparisonFormatter.cell($0)) }
            for index in 1..<comparison.names.count {
                let difference = row.differences[index - 1]
                let text = difference.count == 0 ? "n/a" : "\(Format.signed(difference.mean)) ± \(Format.significant(difference.halfWidth95))"
                cells.append(HTMLPage.Cell(text, className: "\(comparison.judgement(row, candidate: index))"))
            }
            return cells
        }
        section.append(HTMLPage.table(header: header, rows: rows))
        section.element("p", [("class", "note")], "Values: mean ± half-width of the 95 % confidence interval across seeds. "
                        + "Differences are paired (candidate − baseline on each seed), a percentage's in percentage points; "
                        + "green is better, red worse, blue equivalent, grey inconclusive.")
        return section
    }

    /// The battery over a typical day: the levels, when they differ visibly, and always each
    /// candidate's paired difference from the baseline by hour with its 95 % band.
    static func battery(_ comparison: Comparison) -> Markup {
        let hours = stride(from: 0, through: 24, by: 3).map { (Double($0), ($0 < 10 ? "0" : "") + "\($0):00") }
        // The largest gap between two scenarios' medians in any hour.
        let gap = (0..<24).map { hour in
            let medians = comparison.profiles.map { $0.batteryPercentByHour[hour].median }
            return (medians.max() ?? 0) - (medians.min() ?? 0)
        }.max() ?? 0
        var section = Markup()
        if gap >= 1 {
            let series = comparison.profiles.enumerated().map { index, profile in
                LineChart.Series(name: comparison.names[index], color: HTMLPage.color(index),
                                 points: profile.batteryPercentByHour.enumerated().map { (Double($0.offset) + 0.5, $0.element.median) },
                                 band: profile.batteryPercentByHour.enumerated().map { (Double($0.offset) + 0.5, $0.element.p10, $0.element.p90) })
            }
            let chart = LineChart(label: "Battery level over a typical day", x: ChartAxis(title: "local time", bounds: 0...24, ticks: hours),
                                  y: ChartAxis(title: "battery level (%)", bounds: 0...100), series: series)
            section.append(HTMLPage.figure(id: "battery", heading: "Battery level over a typical day", chart: chart.svg,
                                           caption: "Each seed's mean battery level in each hour of the day over the whole run; the line is the "
                                           + "median across seeds and the band spans the 10th to 90th percentile. This is the whole phone's "
                                           + "battery; the app's share is in the energy chart."))
        }
        let series = (1..<comparison.names.count).map { candidate -> LineChart.Series in
            let summaries = (0..<24).map { hour in
                SampleSummary(zip(comparison.profiles[candidate].batteryPercentByHourPerSeed, comparison.profiles[0].batteryPercentByHourPerSeed)
                    .map { $0[hour] - $1[hour] })
            }
            return LineChart.Series(name: "\(comparison.names[candidate]) − \(comparison.names[0])", color: HTMLPage.color(candidate),
                                    points: summaries.enumerated().map { (Double($0.offset) + 0.5, $0.element.mean) },
                                    band: summaries.enumerated().map { (Double($0.offset) + 0.5, $0.element.mean - $0.element.halfWidth95,
                                                                        $0.element.mean + $0.element.halfWidth95) })
        }
        let chart = LineChart(label: "Battery level difference by hour", x: ChartAxis(title: "local time", bounds: 0...24, ticks: hours),
                              y: ChartAxis(title: "battery level, candidate − \(comparison.names[0]) (points)", includesZero: true), series: series)
        let levels = gap >= 1 ? "" : "The levels themselves are never more than \(Format.significant(gap)) points apart in any hour "
            + "(medians across seeds), so they are not drawn: two lines on top of each other would hide the difference. "
        section.append(HTMLPage.figure(id: "battery-difference", heading: "Battery level difference by hour", chart: chart.svg,
                                       caption: levels + "For each candidate, the paired difference from \(comparison.names[0]) of each seed's "
                                       + "mean battery level in each local hour (the same user, charging and network on both sides); the line "
                                       + "is the mean across seeds and the band its 95 % confidence interval. Below zero, the candidate "
                                       + "leaves the phone emptier at that hour."))
        return section
    }

    static func energy(_ comparison: Comparison) -> Markup {
        let chart = BarChart(label: "The app's energy by component", categories: ScenarioProfile.components.map(\.name),
                             xTitle: "component", y: ChartAxis(title: "energy (J/day)", includesZero: true),
                             series: comparison.profiles.enumerated().map { (comparison.names[$0.offset], HTMLPage.color($0.offset), $0.element.appJoulesPerDayByComponent) },
                             unit: "J/day")
        let totals = comparison.profiles.enumerated().map { "\(comparison.names[$0.offset]) \(Format.significant($0.element.appJoulesPerDayByComponent.reduce(0, +))) J/day" }
        return HTMLPage.figure(id: "energy", heading: "The app's energy by component", chart: chart.svg,
                               caption: "Mean joules per day the app's work drew (foreground and background), from the battery and the charger together, "
                               + "by component (docs/MODEL.md). Totals: \(totals.joined(separator: ", ")).")
    }

    /// The latency of completed work items (not of all items, as the default verdicts): the tail (the share of items not yet done after each latency, both axes
    /// logarithmic), and each candidate's paired difference of per-seed quantiles with its band.
    static func latency(_ comparison: Comparison) -> Markup {
        // Quantiles spaced evenly on the tail's logarithmic axis, from 0 % to 99.9 % done.
        let quantiles = (0...60).map { 1 - PortableMath.pow(10, -Double($0) / 20) }
        let series = comparison.profiles.enumerated().compactMap { index, profile -> LineChart.Series? in
            guard profile.latencySeconds.count > 0 else { return nil }
            return LineChart.Series(name: comparison.names[index], color: HTMLPage.color(index),
                                    points: quantiles.map { (profile.latencySeconds.quantile($0) / 60, Swift.max(0.1, (1 - $0) * 100)) })
        }
        let chart = LineChart(label: "Latency of completed work items, the tail", x: ChartAxis(title: "latency from creation to completion (min, logarithmic)", scale: .logarithmic),
                              y: ChartAxis(title: "work items not yet completed (%, logarithmic)", scale: .logarithmic, bounds: 0.1...100), series: series)
        let counts = comparison.profiles.enumerated().map { "\(comparison.names[$0.offset]) \($0.element.latencySeconds.count)" }
        var section = HTMLPage.figure(id: "latency", heading: "Latency of completed items", chart: chart.svg,
                                      caption: "The share of completed work items not yet finished at each latency, over all seeds' items "
                                      + "(items completed: \(counts.joined(separator: ", "))), both axes logarithmic so the tail shows: "
                                      + "the median is where a line crosses 50 %, p90 at 10 %, p99 at 1 %. Lower and further left is sooner. "
                                      + "Items that never completed are not here; the verdicts' latency over all items "
                                      + "(work.allItemsLatencyMinutes) counts them at the run's end.")
        let levels = ScenarioProfile.latencyLevels
        let differences = (1..<comparison.names.count).map { candidate -> LineChart.Series in
            let pairs = zip(comparison.profiles[candidate].latencyMinutesPerSeed, comparison.profiles[0].latencyMinutesPerSeed)
                .compactMap { c, b in c.flatMap { c in b.map { (c, $0) } } }
            let summaries = levels.indices.map { level in SampleSummary(pairs.map { $0.0[level] - $0.1[level] }) }
            let points = zip(levels.indices, summaries).filter { $0.1.count > 0 }
            return LineChart.Series(name: "\(comparison.names[candidate]) − \(comparison.names[0])", color: HTMLPage.color(candidate),
                                    points: points.map { (Double($0.0), $0.1.mean) }, style: .lineWithDots,
                                    hovers: points.map { "p\(Int((levels[$0.0] * 100).rounded())): \(Format.signed($0.1.mean)) ± \(Format.significant($0.1.halfWidth95)) min" },
                                    errorBars: points.map { ($0.1.mean - $0.1.halfWidth95, $0.1.mean + $0.1.halfWidth95) })
        }
        let ticks = levels.enumerated().map { (Double($0.offset), "p\(Int(($0.element * 100).rounded()))") }
        let differenceChart = LineChart(label: "Completed items' latency difference by quantile",
                                        x: ChartAxis(title: "quantile of each seed's latencies", bounds: -0.5...(Double(levels.count) - 0.5), ticks: ticks),
                                        y: ChartAxis(title: "latency, candidate − \(comparison.names[0]) (min)", includesZero: true),
                                        series: differences)
        section.append(HTMLPage.figure(id: "latency-difference", heading: "Completed items' latency difference by quantile", chart: differenceChart.svg,
                                       caption: "For each candidate, the paired difference from \(comparison.names[0]) of each seed's completed items' latency "
                                       + "quantiles (seeds where both completed work); the dot is the mean across seeds and the whisker its 95 % "
                                       + "confidence interval. Below zero, the candidate's work is done sooner at that quantile."))
        return section
    }

    /// Why pending requests waited: the launch decisions per day of each kind, by outcome, for
    /// every outcome that happened in some scenario.
    static func decisions(_ comparison: Comparison) -> Markup {
        decisions(names: comparison.names, profiles: comparison.profiles)
    }

    /// The decisions section for scenarios `names` with their `profiles`; `context` says where
    /// the runs come from, if the page needs it.
    static func decisions(names: [String], profiles scenarioProfiles: [ScenarioProfile], context: String = "") -> Markup {
        var section = Markup()
        section.element("h2", [("id", "decisions")], "Why requests waited: launch decisions")
        for (index, kind) in [TaskRequest.Kind.appRefresh, .processing].enumerated() {
            let profiles = scenarioProfiles.map { $0.decisionsPerDay[index] }
            var rows: [[HTMLPage.Cell]] = []
            if profiles.contains(where: { $0.launched > 0 }) {
                rows.append([HTMLPage.Cell("launched")] + profiles.map { HTMLPage.Cell(Format.significant($0.launched)) })
            }
            for (slot, denial) in LaunchDenial.allCases.enumerated() where profiles.contains(where: { $0.denials[slot] > 0 }) {
                rows.append([HTMLPage.Cell("not launched: \(denial.rawValue)")] + profiles.map { HTMLPage.Cell(Format.significant($0.denials[slot])) })
            }
            guard !rows.isEmpty else { continue }
            section.element("h3", [], kind == .appRefresh ? "App refresh requests" : "Processing requests")
            section.append(HTMLPage.table(header: ["decision (per day)"] + names, rows: rows))
        }
        section.element("p", [("class", "note")], context + "Each evaluation of a pending request decides to launch it or says why not (docs/OUTPUT.md "
                        + "lists the reasons, in the order they are checked); per day, the mean across seeds. Evaluations the "
                        + "heuristic model skips because nothing could launch at them are not counted.")
        return section
    }

    static func launches(_ comparison: Comparison) -> Markup {
        let chart = BarChart(label: "Background launches by hour of day", categories: (0..<24).map { ($0 < 10 ? "0" : "") + "\($0)" },
                             labelEvery: 3, xTitle: "local hour", y: ChartAxis(title: "launches per day", includesZero: true),
                             series: comparison.profiles.enumerated().map { (comparison.names[$0.offset], HTMLPage.color($0.offset), $0.element.launchesPerDayByHour) },
                             unit: "launches/day")
        return HTMLPage.figure(id: "launches", heading: "Background launches by hour of day", chart: chart.svg,
                               caption: "BGAppRefreshTask and BGProcessingTask launches in each local hour, per day, the mean across seeds.")
    }
}
