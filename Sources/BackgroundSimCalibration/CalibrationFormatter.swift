import BackgroundSim
import BackgroundSimLab

/// A calibration as a text table, Markdown or JSON: the verdict first, then per task kind the
/// fitted parameters with their intervals and every feature's comparison, then what the model
/// cannot express.
package enum CalibrationFormatter {
    /// The one-line answer: whether the fitted model reproduces the logs.
    static func verdict(_ calibration: LaunchCalibration) -> String {
        verdictOnTheFit(calibration) + (midHistoryNote(calibration).map { " " + $0 } ?? "")
    }

    /// What the fit did about logs that began after install, if any did.
    static func midHistoryNote(_ calibration: LaunchCalibration) -> String? {
        guard calibration.devicesStartingMidHistory > 0 else { return nil }
        return "\(calibration.devicesStartingMidHistory) of \(calibration.devices) devices' logs start after the app was installed "
            + "(their first record is not marked firstLaunch): the fit takes their requests as pending from the first record and "
            + "integrates out what iOS had learnt of their use before it (docs/CALIBRATION.md, \"Logs that start after install\")."
            + (calibration.historiesAfterSilence == 0 ? ""
                : " \(calibration.historiesAfterSilence) of them are the part of a device's log after a silence of "
                + "\(Int(DeviceHistory.splittingSilenceDays)) days or more (and \(Int(DeviceHistory.splittingSilenceMedianGaps)) times the device's "
                + "median gap between records) that began within \(Int(DeviceHistory.splittingSilenceOpenWithinDays)) "
                + "days of an open, which splits a log in two (records lost, or the app offloaded).")
    }

    static func verdictOnTheFit(_ calibration: LaunchCalibration) -> String {
        let misfits = calibration.misfits
        let metricKit = calibration.metricKitMisfits.isEmpty ? ""
            : " MetricKit differs from the calibrated scenario in " + calibration.metricKitMisfits.map { "\($0.field) (\($0.verdict))" }.joined(separator: ", ") + "."
        guard !calibration.kinds.isEmpty else { return "Verdict: the logs have no task submissions or launches to fit." }
        // Every kind is judged on its own: a misfit is said whatever else holds for another
        // kind, or for the same kind's search.
        let small = calibration.kinds.filter { $0.tooSmall != nil }
        let smallText = small.map { "\($0.kind.rawValue) has \($0.tooSmall!)" }.joined(separator: "; ")
        // Nothing climbed: every parameter held, for the reason each gives.
        let nothingFitted = calibration.kinds.filter { $0.tooSmall == nil && $0.convergence.starts.isEmpty }
        let nothingText = nothingFitted.map { kind in
            "\(kind.kind.rawValue) (every parameter held: \(kind.parameters.first?.heldBecause ?? "no evidence"))"
        }.joined(separator: "; ")
        let unconverged = calibration.kinds.filter {
            $0.tooSmall == nil && !$0.convergence.starts.isEmpty && !$0.convergence.converged && !$0.convergence.startsAgree
        }
        let unconvergedText = unconverged.map { "\($0.kind.rawValue) (\($0.convergence.problem!))" }.joined(separator: "; ")
        if !misfits.isEmpty {
            let search = unconverged.isEmpty ? "" : " No converged fit for \(unconvergedText): the values are the best found, without intervals."
            let nothing = nothingFitted.isEmpty ? "" : " Nothing fitted for \(nothingText)."
            let notJudged = small.isEmpty ? "" : " Not judged, too small to tell: \(smallText)."
            return "Verdict: the fitted model does not reproduce \(misfits.count) feature\(misfits.count == 1 ? "" : "s") of the logs: "
                + misfits.map(\.verdict).joined(separator: "; ") + ". Use it with care, and see what the model cannot express."
                + search + nothing + notJudged + metricKit
        }
        if !nothingFitted.isEmpty {
            return "Verdict: nothing fitted for \(nothingText); the logs cannot inform the model there." + metricKit
        }
        if !unconverged.isEmpty {
            let notJudged = small.isEmpty ? "" : " Not judged, too small to tell: \(smallText)."
            return "Verdict: the fit did not converge for \(unconvergedText). The values are the best found, without intervals; at them "
                + "every feature judged fits, so this is the optimiser's failure, not evidence against the model." + notJudged + metricKit
        }
        if !small.isEmpty {
            let judged = calibration.kinds.filter { $0.tooSmall == nil }.map(\.kind.rawValue)
            let fits = judged.isEmpty ? "" : " The fitted model reproduces every feature of the \(judged.joined(separator: " and ")) logs."
            return "Verdict: the logs are too small to tell: " + smallText
                + ". The values are the likeliest given these logs, without intervals, and are not written to the fragment; log more phones or more days."
                + fits + metricKit
        }
        let edges = calibration.kinds.flatMap { $0.parameters.filter(\.onRangeEdge) }
        let edgeNote = edges.isEmpty ? "" : " "
            + edges.map { "\($0.key) is on the edge of its range (\(Format.significant($0.value)))" }.joined(separator: "; ")
            + ", where every start agrees: the logs bound it from one side only (users who seldom go days without the app say little of "
            + "the fade, for example), and its interval runs to the range's end; not evidence against the model."
        if misfits.isEmpty {
            return "Verdict: the fitted model reproduces every feature of the logs it can be compared on (within ±\(Int(GoodnessOfFit.tolerance * 100)) %)." + edgeNote + metricKit
        }
        return "Verdict: the fitted model does not reproduce \(misfits.count) feature\(misfits.count == 1 ? "" : "s") of the logs: "
            + misfits.map(\.verdict).joined(separator: "; ") + ". Use it with care, and see what the model cannot express." + edgeNote + metricKit
    }

    /// What the model cannot express, named rather than hidden.
    static func limits(_ calibration: LaunchCalibration) -> [String] {
        var lines: [String] = []
        for kind in calibration.kinds where kind.unexplained > 0 {
            lines.append("\(kind.unexplained) of \(kind.launches) \(kind.kind.rawValue) launches (\(GoodnessOfFit.percent(Double(kind.unexplained) / Double(Swift.max(1, kind.launches))))) "
                         + "cannot be made by the model with the fitted values: no request of the kind was pending and due in the log, or the model "
                         + "would have denied it (the spacing, the daily budget, the battery floor).")
        }
        for kind in calibration.kinds {
            for row in kind.goodness.rows where row.data.value != nil && row.model.value == nil {
                lines.append("\(kind.kind.rawValue.capitalized): the logs show \(row.feature.title), which the model never produces.")
            }
        }
        for kind in calibration.kinds {
            guard let row = kind.goodness.rows.first(where: { $0.feature == .quietAfterClose }), !row.fits,
                  (row.relativeDifference ?? 0) < 0 else { continue }
            lines.append("\(kind.kind.rawValue.capitalized): more of the logs' long closes pass with no launch until the next open than the model "
                         + "gives (\(row.verdict)): what force-quits leave, since iOS launches nothing in the background for an app the user "
                         + "force-quit. A log cannot show force-quits, so the fit takes them as absent (below) and does not use the base "
                         + "scenario's (user.app.forceQuitProbability): it reads their quiet as a stingier iOS, and the fitted budgets and fade "
                         + "come out low. Judge the fit by the other features.")
        }
        lines.append("Every phone gets the same parameters: differences between devices come only from their users' use and charging "
                     + "(the device-to-device spread row shows whether that is enough).")
        lines.append("Not in a field log, so taken as absent: Low Power Mode, force-quits, Background App Refresh switched off, heat, "
                     + "the app's energy and data budgets. If your users have them, the fitted budgets come out low.")
        lines.append("No day-of-week or seasonal pattern beyond the users' own use of the app.")
        if calibration.kinds.contains(where: { $0.kind == .processing }) {
            lines.append("Processing: when the phone was idle, and its charging between records, come from the base scenario's user"
                         + (calibration.usersDay.hours == 0 ? "" : " moved to your users' hours (\(calibration.usersDay.signedHours))")
                         + ": habits of another shape than the base user's (charging by day, or never overnight) need a base scenario with them.")
        }
        return lines
    }

    static func value(_ value: Double?) -> String { value.map(Format.significant) ?? "n/a" }

    static func interval(_ low: Double?, _ high: Double?) -> String {
        guard let low, let high else { return "" }
        return "\(Format.significant(low))–\(Format.significant(high))"
    }

    /// "1.88 (1.83–1.91)", "1.88" without an interval, or "n/a".
    static func estimate(_ estimate: FieldLogFeatures.Estimate) -> String {
        guard let value = estimate.value else { return "n/a" }
        guard let low = estimate.low, let high = estimate.high else { return Format.significant(value) }
        return "\(Format.significant(value)) (\(Format.significant(low))–\(Format.significant(high)))"
    }

    /// The parameters' rows: key, value, 95 % interval, note.
    static func parameterRows(_ kind: LaunchCalibration.KindCalibration) -> [[String]] {
        let unidentified: String? = kind.tooSmall != nil ? "no interval: the logs are too small"
            : kind.convergence.startsAgree ? nil : "no interval: the fit did not converge"
        let edges = kind.parameters.filter(\.onRangeEdge).map(\.key.rawValue)
        return kind.parameters.map { parameter in
            let fitted = parameter.onRangeEdge ? "fitted; on the edge of its range: bounded from one side only"
                : edges.isEmpty || parameter.low == nil ? "fitted"
                : "fitted; interval profiled over \(edges.joined(separator: " and ")), on the edge of its range"
            return [parameter.key.rawValue, Format.significant(parameter.value), interval(parameter.low, parameter.high),
                    parameter.heldBecause.map { "held at the base value: " + $0 } ?? unidentified.map { "fitted; " + $0 } ?? fitted]
        }
    }

    /// How the fit of `kind` went, in a line or two: the search's starts and whether they
    /// agree, and any warning about the intervals.
    static func fitNotes(_ kind: LaunchCalibration.KindCalibration) -> [String] {
        var notes: [String] = []
        let starts = kind.convergence.starts
        if let best = starts.first {
            let ends = starts.map { "\($0.origin) \(Format.significant($0.logLikelihood - best.logLikelihood))" }.joined(separator: ", ")
            notes.append("Search: \(starts.count) starts (log-likelihood relative to the best: \(ends)); "
                         + (kind.convergence.problem.map { (kind.convergence.startsAgree ? "the starts agree; " : "did not converge: ") + $0 } ?? "converged"))
        }
        if let small = kind.tooSmall { notes.append("The logs are too small to identify the parameters: " + small + ".") }
        if let warning = kind.gridEdgeWarning { notes.append("Warning: " + warning + ".") }
        return notes
    }

    /// The features' rows: feature, logs, model, verdict.
    static func featureRows(_ kind: LaunchCalibration.KindCalibration) -> [[String]] {
        kind.goodness.rows.map { [$0.feature.title, estimate($0.data), estimate($0.model), $0.verdict] }
    }

    static func heading(_ calibration: LaunchCalibration) -> String {
        "Calibration: \(calibration.records) records from \(calibration.devices) devices, \(Format.significant(calibration.deviceDays)) device-days; "
            + "base scenario \"\(calibration.baseName)\""
    }

    /// When the logged users live their day, against the base scenario's user.
    static func usersDayLine(_ calibration: LaunchCalibration) -> String {
        let shift = calibration.usersDay
        guard shift.hours != 0 else { return "Users' day: the base scenario's user's hours fit the logs' opens and charging best (no clock shift beats them)." }
        let base = calibration.shiftedBase
        return "Users' day: \(shift.signedHours) from the base scenario's user (log-likelihood of the logs' opens and charging "
            + "\(Format.significant(shift.logLikelihoodGain)) higher): asleep \(base.user.sleepStart)–\(base.user.wakeTime), "
            + "charging \(base.power.overnightPlugIn)–\(base.power.overnightUnplug); the fit and the fragment use that day."
    }

    static func kindHeading(_ kind: LaunchCalibration.KindCalibration) -> String {
        "\(kind.kind.rawValue): \(kind.devices) devices, \(kind.launches) launches"
            + (kind.unexplained > 0 ? ", \(kind.unexplained) the fitted model cannot explain" : "")
    }

    /// The MetricKit rows: field, payloads, model, verdict.
    static func metricKitRows(_ comparison: MetricKitComparison) -> [[String]] {
        comparison.rows.map { [$0.field, estimate($0.data), estimate($0.model), $0.verdict] }
    }

    static func metricKitHeading(_ comparison: MetricKitComparison) -> String {
        "MetricKit, per day: \(comparison.payloads) payloads beside the calibrated scenario (\(MetricKitComparison.seeds) phones × \(MetricKitComparison.days) days)"
    }

    /// The closing line: how to use the fitted values, with `use`, the command that runs the
    /// base scenario with them.
    static func useLine(fragmentPath: String?, use: String?) -> String {
        guard let use else {
            return fragmentPath.map { "Scenario fragment with the fitted values and their provenance: \($0)" }
                ?? "Write the fitted values as a scenario fragment with --fragment FILE.json."
        }
        return fragmentPath == nil ? "Write the fitted values with --fragment calibrated.json, then run your policy against your users: \(use)"
            : "Run your policy against your users with the fitted values: \(use)"
    }

    package static func table(_ calibration: LaunchCalibration, fragmentPath: String?, use: String? = nil) -> String {
        var lines = [heading(calibration), verdict(calibration), usersDayLine(calibration), calibration.users.description + ".", ""]
        if let comparison = calibration.metricKit {
            lines.append(metricKitHeading(comparison))
            lines += TextTable.render(header: ["field", "payloads (95 % CI)", "model (95 % CI)", "verdict"], rows: metricKitRows(comparison)).map { "  " + $0 }
            lines.append("")
        }
        for kind in calibration.kinds {
            lines.append(kindHeading(kind))
            lines += TextTable.render(header: ["parameter", "value", "95 % CI", ""], rows: parameterRows(kind)).map { "  " + $0 }
            lines += fitNotes(kind).map { "  " + $0 }
            lines.append("")
            lines += TextTable.render(header: ["feature", "logs (95 % CI)", "model (95 % CI)", "verdict"], rows: featureRows(kind)).map { "  " + $0 }
            lines.append("")
        }
        lines.append("What the model cannot express:")
        lines += limits(calibration).map { "  - " + $0 }
        lines.append("")
        if let fragmentPath, use != nil { lines.append("Scenario fragment with the fitted values and their provenance: \(fragmentPath)") }
        lines.append(useLine(fragmentPath: fragmentPath, use: use))
        return lines.joined(separator: "\n")
    }

    package static func markdown(_ calibration: LaunchCalibration, fragmentPath: String?, use: String? = nil) -> String {
        func table(_ header: [String], _ rows: [[String]]) -> String {
            let escape = { (text: String) in text.replacingOccurrences(of: "|", with: "\\|") }
            return (["| " + header.joined(separator: " | ") + " |", "|" + header.map { _ in "---" }.joined(separator: "|") + "|"]
                    + rows.map { "| " + $0.map(escape).joined(separator: " | ") + " |" }).joined(separator: "\n")
        }
        var parts = ["# Calibration", heading(calibration) + ".", "**" + verdict(calibration) + "**", usersDayLine(calibration),
                     calibration.users.description + "."]
        for kind in calibration.kinds {
            parts.append("## " + kindHeading(kind))
            parts.append(table(["parameter", "value", "95 % CI", ""], parameterRows(kind)))
            parts.append(fitNotes(kind).joined(separator: "\n\n"))
            parts.append(table(["feature", "logs (95 % CI)", "model (95 % CI)", "verdict"], featureRows(kind)))
        }
        if let comparison = calibration.metricKit {
            parts.append("## " + metricKitHeading(comparison))
            parts.append(table(["field", "payloads (95 % CI)", "model (95 % CI)", "verdict"], metricKitRows(comparison)))
        }
        parts.append("## What the model cannot express")
        parts.append(limits(calibration).map { "- " + $0 }.joined(separator: "\n"))
        if let fragmentPath { parts.append("Scenario fragment: `\(fragmentPath)`.") }
        if use != nil { parts.append(useLine(fragmentPath: fragmentPath, use: use)) }
        return parts.joined(separator: "\n\n")
    }

    package static func json(_ calibration: LaunchCalibration, use: String? = nil) -> JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }
        func estimate(_ value: FieldLogFeatures.Estimate) -> JSONValue {
            .object([("value", number(value.value)), ("low", number(value.low)), ("high", number(value.high))])
        }
        let kinds = calibration.kinds.map { kind -> JSONValue in
            .object([
                ("kind", .string(kind.kind.rawValue)),
                ("devices", .number(Double(kind.devices))),
                ("launches", .number(Double(kind.launches))),
                ("unexplainedLaunches", .number(Double(kind.unexplained))),
                ("logLikelihood", .number(kind.logLikelihood)),
                ("resamplesAtGridEdge", .number(Double(kind.resamplesAtGridEdge))),
                ("converged", .bool(kind.convergence.converged)),
                ("startsAgree", .bool(kind.convergence.startsAgree)),
                ("convergenceProblem", kind.convergence.problem.map(JSONValue.string) ?? .null),
                ("starts", .array(kind.convergence.starts.map { .object([("origin", .string($0.origin)), ("logLikelihood", .number($0.logLikelihood))]) })),
                ("tooSmall", kind.tooSmall.map(JSONValue.string) ?? .null),
                ("warnings", .array(kind.gridEdgeWarning.map { [JSONValue.string($0)] } ?? [])),
                ("parameters", .array(kind.parameters.map { parameter in
                    .object([("key", .string(parameter.key.rawValue)), ("value", .number(parameter.value)), ("low", number(parameter.low)),
                             ("high", number(parameter.high)), ("heldBecause", parameter.heldBecause.map(JSONValue.string) ?? .null),
                             ("onRangeEdge", .bool(parameter.onRangeEdge))])
                })),
                ("features", .array(kind.goodness.rows.map { row in
                    .object([("feature", .string(row.feature.key)), ("title", .string(row.feature.title)), ("logs", estimate(row.data)),
                             ("model", estimate(row.model)), ("relativeDifference", number(row.relativeDifference)),
                             ("relativeLow", number(row.relativeLow)), ("relativeHigh", number(row.relativeHigh)),
                             ("adjustedP", number(row.adjustedP)), ("fits", .bool(row.fits)), ("verdict", .string(row.verdict))])
                })),
            ])
        }
        return .object([
            ("records", .number(Double(calibration.records))),
            ("devices", .number(Double(calibration.devices))),
            ("deviceDays", .number(calibration.deviceDays)),
            ("devicesStartingMidHistory", .number(Double(calibration.devicesStartingMidHistory))),
            ("historiesAfterSilence", .number(Double(calibration.historiesAfterSilence))),
            ("sources", .array(calibration.sources.map(JSONValue.string))),
            ("baseScenario", .string(calibration.baseName)),
            ("verdict", .string(verdict(calibration))),
            ("users", .object([("appSessionsPerDay", .number(calibration.users.appSessionsPerDay)),
                               ("sessionMedianSeconds", calibration.users.sessionMedianSeconds.map(JSONValue.number) ?? .null),
                               ("sessionSigma", calibration.users.sessionSigma.map(JSONValue.number) ?? .null),
                               ("sessions", .number(Double(calibration.users.sessions)))])),
            ("usersDayShiftHours", .number(Double(calibration.usersDay.hours))),
            ("usersDayLogLikelihoodGain", .number(calibration.usersDay.logLikelihoodGain)),
            ("kinds", .array(kinds)),
            ("metricKit", calibration.metricKit.map { comparison in
                .object([("payloads", .number(Double(comparison.payloads))), ("rows", .array(comparison.rows.map { row in
                    .object([("field", .string(row.field)), ("payloads", estimate(row.data)), ("model", estimate(row.model)),
                             ("fits", .bool(row.fits)), ("verdict", .string(row.verdict))])
                }))])
            } ?? .null),
            ("cannotExpress", .array(limits(calibration).map(JSONValue.string))),
            ("fragment", calibration.fragment),
            ("use", use.map(JSONValue.string) ?? .null),
        ])
    }
}
