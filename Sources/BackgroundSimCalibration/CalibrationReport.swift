import BackgroundSim
import BackgroundSimLab

/// The HTML report of a calibration: the verdict, the fitted parameters, and per task kind
/// every feature of the logs beside the fitted model's, as a table, as the model's relative
/// difference with its interval against the tolerance, and as charts of launches by hour of
/// day and by days since the app was last used; then what the model cannot express.
package enum CalibrationReport {
    package static func html(_ calibration: LaunchCalibration, command: String? = nil, use: String? = nil) -> String {
        var body = Markup()
        let trusted = calibration.misfits.isEmpty && calibration.kinds.allSatisfy(\.isIdentified)
        body.element("p", [("class", "recommendation " + (trusted ? "confident" : "tentative"))],
                     CalibrationFormatter.verdict(calibration))
        body.element("p", [("class", "setup")], CalibrationFormatter.heading(calibration) + ". Logs: " + calibration.sources.joined(separator: ", ") + ".")
        body.element("p", [], CalibrationFormatter.usersDayLine(calibration))
        body.element("p", [], calibration.users.description + ".")
        body.element("p", [("class", "note")],
                     "Each logged phone is replayed \(GoodnessOfFit.replicates(devices: calibration.devices)) times under the fitted model with its own user's use, its app's "
                     + "submissions and what its records say of the phone; intervals come from \(GoodnessOfFit.resamples) bootstrap resamples of "
                     + "devices, a feature does not fit when the difference is significant after Holm's correction and larger than "
                     + "±\(Int(GoodnessOfFit.tolerance * 100)) % (docs/CALIBRATION.md).")
        if let command { body.append(HTMLPage.madeWith(command)) }
        body.newline()
        for kind in calibration.kinds {
            let name = kind.kind.rawValue
            body.element("h2", [("id", name)], CalibrationFormatter.kindHeading(kind).capitalizedFirst)
            body.append(HTMLPage.table(header: ["parameter", "value", "95 % CI", ""], rows: CalibrationFormatter.parameterRows(kind).map { row in
                row.enumerated().map { HTMLPage.Cell($0.element, className: $0.offset == 3 ? "text" : nil) }
            }))
            for note in CalibrationFormatter.fitNotes(kind) {
                body.element("p", [("class", note.hasPrefix("Search:") && kind.convergence.converged ? "note" : "note worse")], note)
            }
            body.append(HTMLPage.table(header: ["feature", "logs (95 % CI)", "model (95 % CI)", "verdict"], rows: kind.goodness.rows.map { row in
                [HTMLPage.Cell(row.feature.title), HTMLPage.Cell(CalibrationFormatter.estimate(row.data)),
                 HTMLPage.Cell(CalibrationFormatter.estimate(row.model)), HTMLPage.Cell(row.verdict, className: row.fits ? "text" : "text worse")]
            }))
            body.append(HTMLPage.figure(id: name + "-differences", heading: "\(name.capitalizedFirst): how far the model is off",
                                        chart: differences(kind.goodness),
                                        caption: "The fitted model's value of each feature relative to the logs' (0 = the same), with the 95 % "
                                            + "interval of the paired difference; the grey band is ±\(Int(GoodnessOfFit.tolerance * 100)) %. "
                                            + "Red: does not fit. Features without data are left out."))
            body.append(HTMLPage.figure(id: name + "-hours", heading: "\(name.capitalizedFirst): launches by hour of day",
                                        chart: hourly(kind.goodness),
                                        caption: "Launches per device-day in each local hour: bars the logs, the line the fitted model."))
            body.append(HTMLPage.figure(id: name + "-fading", heading: "\(name.capitalizedFirst): launches by days since the app was last used",
                                        chart: fading(kind.goodness),
                                        caption: "Launches per day spent that long after the user last opened the app, with 95 % intervals; "
                                            + "bins with under half a day observed are left out."))
        }
        if let comparison = calibration.metricKit {
            body.element("h2", [("id", "metrickit")], CalibrationFormatter.metricKitHeading(comparison))
            body.append(HTMLPage.table(header: ["field", "payloads (95 % CI)", "model (95 % CI)", "verdict"], rows: comparison.rows.map { row in
                [HTMLPage.Cell(row.field), HTMLPage.Cell(CalibrationFormatter.estimate(row.data)), HTMLPage.Cell(CalibrationFormatter.estimate(row.model)),
                 HTMLPage.Cell(row.verdict, className: row.fits ? "text" : "text worse")]
            }))
        }
        body.element("h2", [("id", "limits")], "What the model cannot express")
        body.open("ul")
        for line in CalibrationFormatter.limits(calibration) { body.element("li", [], line) }
        body.close("ul")
        body.element("h2", [("id", "fragment")], "Scenario fragment")
        body.element("pre", [], JSONWriter.pretty(calibration.fragment))
        if let use {
            body.element("p", [], "Run your policy against your users with the fitted values (the fragment laid over the base scenario):")
            body.element("pre", [], use)
        }
        return HTMLPage.document(title: "BackgroundSim calibration", body: body)
    }

    /// A forest plot of the features' relative differences.
    static func differences(_ goodness: GoodnessOfFit) -> Markup {
        let rows = goodness.rows.filter { $0.relativeDifference != nil }
        let extent = Swift.max(0.25, rows.reduce(0.0) { Swift.max($0, abs($1.relativeLow ?? 0), abs($1.relativeHigh ?? 0), abs($1.relativeDifference ?? 0)) })
        let limit = (extent * 10).rounded(.up) / 10
        var canvas = SVGCanvas(label: "Relative difference of each feature", legend: [], plotLeft: 190)
        func fx(_ value: Double) -> Double { (value + limit) / (2 * limit) }
        let ticks = stride(from: -limit, through: limit + 1e-9, by: limit / 2).map { (fx($0), "\(Int(($0 * 100).rounded())) %") }
        canvas.horizontalAxis(title: "model relative to the logs", ticks: ticks)
        canvas.band(low: [(fx(-GoodnessOfFit.tolerance), 0), (fx(GoodnessOfFit.tolerance), 0)],
                    high: [(fx(-GoodnessOfFit.tolerance), 1), (fx(GoodnessOfFit.tolerance), 1)], color: HTMLPage.neutral)
        canvas.line([(fx(0), 0), (fx(0), 1)], color: HTMLPage.neutral, width: 1, dashed: true)
        for (index, row) in rows.enumerated() {
            let fy = 1 - (Double(index) + 0.5) / Double(rows.count)
            let color = row.fits ? HTMLPage.color(0) : "#c0392b"
            if let low = row.relativeLow, let high = row.relativeHigh { canvas.horizontalWhisker(y: fy, low: fx(Swift.max(-limit, low)), high: fx(Swift.min(limit, high))) }
            canvas.dot(fx(Swift.max(-limit, Swift.min(limit, row.relativeDifference ?? 0))), fy, color: color, hover: "\(row.feature.title): \(row.verdict)")
            canvas.rowLabel(row.feature.shortTitle, fy)
        }
        return canvas.svg
    }

    /// Launches per device-day by hour: the logs as bars, the model as a line.
    static func hourly(_ goodness: GoodnessOfFit) -> Markup {
        let top = Swift.max(1e-9, (goodness.hourlyData + goodness.hourlyModel).max() ?? 0)
        // The data's range, rounded out to whole steps: the top tick lies above the highest value.
        let axis = ChartAxis(title: "launches per device-day", includesZero: true).resolved(for: 0...top)
        var canvas = SVGCanvas(label: "Launches by hour of day", legend: [("logs", HTMLPage.color(0)), ("fitted model", HTMLPage.color(1))])
        let high = axis.bounds.upperBound
        canvas.verticalAxis(title: "launches per device-day", ticks: axis.ticks.map { ($0.0 / high, $0.1) })
        canvas.horizontalAxis(title: "local hour", ticks: stride(from: 0, through: 24, by: 3).map { (Double($0) / 24, "\($0)") })
        for hour in 0..<24 {
            canvas.bar(x0: (Double(hour) + 0.1) / 24, x1: (Double(hour) + 0.9) / 24, y0: 0, y1: goodness.hourlyData[hour] / high,
                       color: HTMLPage.color(0), hover: "\(hour):00 logs \(Format.significant(goodness.hourlyData[hour]))")
        }
        canvas.line((0..<24).map { ((Double($0) + 0.5) / 24, goodness.hourlyModel[$0] / high) }, color: HTMLPage.color(1))
        return canvas.svg
    }

    /// Launches per day by days since last use, logs and model, with intervals.
    static func fading(_ goodness: GoodnessOfFit) -> Markup {
        let bins: [CalibrationFeature] = [.fadeUnder1Day, .fade1To3Days, .fade3To7Days, .fade7To14Days, .fadeOver14Days]
        let rows = bins.map { feature in goodness.rows.first { $0.feature == feature }! }
        let top = Swift.max(1e-9, rows.reduce(0.0) { Swift.max($0, $1.data.high ?? $1.data.value ?? 0, $1.model.high ?? $1.model.value ?? 0) })
        let axis = ChartAxis(title: "launches per day", includesZero: true).resolved(for: 0...top)
        let high = axis.bounds.upperBound
        var canvas = SVGCanvas(label: "Launches by days since last use", legend: [("logs", HTMLPage.color(0)), ("fitted model", HTMLPage.color(1))])
        canvas.verticalAxis(title: "launches per day", ticks: axis.ticks.map { ($0.0 / high, $0.1) })
        canvas.horizontalAxis(title: "days since the app was last used", ticks: FieldLogFeaturesFormatter.fadeLabels.enumerated().map {
            ((Double($0.offset) + 0.5) / Double(bins.count), $0.element)
        })
        for (index, row) in rows.enumerated() {
            for (series, estimate) in [row.data, row.model].enumerated() {
                guard let value = estimate.value else { continue }
                let fx = (Double(index) + 0.5 + (series == 0 ? -0.12 : 0.12)) / Double(bins.count)
                if let low = estimate.low, let highValue = estimate.high { canvas.whisker(x: fx, low: low / high, high: highValue / high) }
                canvas.dot(fx, value / high, color: HTMLPage.color(series), hover: "\(row.feature.title): \(series == 0 ? "logs" : "model") \(Format.significant(value))")
            }
        }
        return canvas.svg
    }
}

extension String {
    /// The string with its first letter in upper case.
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
