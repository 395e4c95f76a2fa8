import BackgroundSim
import BackgroundSimLab

/// The scenario fragment `bgsim calibrate` writes: a scenario naming only the fitted launch
/// parameters (`system.heuristic`), with the fit's provenance in its `description` — the logs,
/// the method, every value's interval and the goodness of fit — and, when the logged users'
/// day runs at other hours than the base scenario's user (``UsersDayShift``), the base user's
/// day moved by as much (`user.sleepStart`, `wakeTime`, `hourlyWeights`, `power.overnightPlugIn`,
/// `overnightUnplug`, `network.leaveHome`, `returnHome`); and the users the logs show
/// (``LoggedUsers``: `user.app`'s sessions a day, `user.hourlyWeights` from their opens by
/// hour, no force-quits, and
/// `power.lowPowerModeAcceptProbability` 0, as the fit assumed). It is a valid scenario by
/// itself (everything else at its default), and its `system.heuristic` block can be copied into
/// a team's own scenario. Its `plausible` list gives each fitted number's interval, so that a
/// decision made under model uncertainty with the fragment draws those numbers from what the
/// logs allow.
extension LaunchCalibration {
    /// The fragment as JSON.
    package var fragment: JSONValue {
        let fitted = identifiedParameters
        let heuristic = fitted.map { (key: $0.key.rawValue, value: JSONValue.number(Self.fourSignificantDigits($0.value))) }
        // The users' day (if moved) and the users the logs show, merged by section.
        var sections: [(String, [(String, JSONValue)])] = [("user", []), ("power", []), ("network", [])]
        for (key, value) in usersDay.hours == 0 ? [] : shiftedBase.dayFields {
            guard case .object(let fields) = value, let index = sections.firstIndex(where: { $0.0 == key }) else { continue }
            sections[index].1 += fields
        }
        if let weights = users.hourlyWeights {
            sections[0].1.removeAll { $0.0 == "hourlyWeights" }
            sections[0].1.append(("hourlyWeights", .array(weights.map(JSONValue.number))))
        }
        sections[0].1.append(("app", .object(users.appFields(phoneSessionsPerDay: shiftedBase.user.sessionsPerDay))))
        sections[1].1.append(("lowPowerModeAcceptProbability", .number(0)))
        let day = sections.filter { !$0.1.isEmpty }.map { ($0.0, JSONValue.object($0.1)) }
        return .object([
            ("name", .string("calibrated")),
            ("description", .string(provenance)),
        ] + day + [
            ("system", .object([("heuristic", .object(heuristic))])),
        ] + (plausibleRanges.isEmpty ? [] : [
            ("plausible", .array(plausibleRanges.map { range in
                .object([("path", .string(range.path)), ("low", .number(range.low)), ("high", .number(range.high))])
            })),
        ]))
    }

    /// Each fitted number's 95 % interval, to four significant digits and within the number's
    /// valid range, as the plausible range `--model-uncertainty` draws it from (``PlausibleRange``):
    /// the logs narrow what we inferred. Only numbers that have a plausible range get one.
    package var plausibleRanges: [PlausibleRange] {
        let rows = Scenario.uncertainNumberRows
        return identifiedParameters.compactMap { parameter in
            guard parameter.heldBecause == nil, let low = parameter.low, let high = parameter.high,
                  let row = rows.first(where: { $0.path == "system.heuristic.\(parameter.key)" }) else { return nil }
            let clampedLow = Swift.min(Swift.max(Self.fourSignificantDigits(low), row.valid.lowerBound), row.valid.upperBound)
            let clampedHigh = Swift.min(Swift.max(Self.fourSignificantDigits(high), clampedLow), row.valid.upperBound)
            return PlausibleRange(path: row.path, low: clampedLow, high: clampedHigh)
        }
    }

    /// The fitted values the fragment carries: those of kinds whose logs identify them (large
    /// enough, the search's starts agreeing), not held. A kind too small to tell, or whose fit
    /// did not converge, writes none: its values stay the base scenario's.
    var identifiedParameters: [LaunchFit.Parameter] {
        kinds.filter(\.isIdentified).flatMap(\.parameters).filter { $0.heldBecause == nil }
    }

    /// Where the fitted values come from, in a paragraph.
    var provenance: String {
        let files = sources.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: ", ")
        var text = "Launch model fitted by bgsim calibrate (BackgroundSim \(BackgroundSimVersion.string)) to \(records) field-log records "
            + "from \(devices) devices over \(Format.significant(deviceDays)) device-days (\(files)), on the base scenario \"\(baseName)\". "
            + "Maximum likelihood of the logged launches given the logged use, submissions and phone state; 95 % intervals from "
            + "\(LaunchFitBootstrap.resamples) bootstrap resamples of devices, joined with likelihood-ratio intervals. "
        if usersDay.hours != 0 {
            text += "The logged users' day runs \(usersDay.signedHours) from the base scenario's user (log-likelihood of their opens and "
                + "charging \(Format.significant(usersDay.logLikelihoodGain)) higher); the base user's day is moved by as much. "
        }
        for kind in kinds {
            let unidentified = kind.tooSmall.map { " (no interval: the logs are too small, \($0))" }
                ?? kind.convergence.problem.map { " (no interval: the fit did not converge, \($0))" } ?? ""
            let values = kind.parameters.map { parameter -> String in
                if let reason = parameter.heldBecause { return "\(parameter.key) held at \(Format.significant(parameter.value)) (\(reason))" }
                let interval = parameter.low.flatMap { low in parameter.high.map { " (95 % CI \(Format.significant(low))–\(Format.significant($0)))" } } ?? ""
                return "\(parameter.key) \(Format.significant(parameter.value))\(interval.isEmpty ? unidentified : interval)"
            }
            text += "\(kind.kind.rawValue.capitalized): \(kind.launches) launches on \(kind.devices) devices; " + values.joined(separator: "; ") + ". "
            if !kind.isIdentified { text += "Not written to this fragment: the base scenario's values stand. " }
            let misfits = kind.goodness.misfits
            text += kind.goodness.notJudgedBecause.map { "Goodness of fit \($0). " }
                ?? (misfits.isEmpty ? "Every feature of the logs fits. " : "Does not fit: " + misfits.map(\.verdict).joined(separator: "; ") + ". ")
        }
        return text + users.description + ". "
            + "Assumed absent because a log cannot show them: Low Power Mode, force-quits, Background App Refresh off, heat, low budgets."
    }

    /// `value` to four significant digits, computed without logarithms so that every machine
    /// writes the same digits.
    static func fourSignificantDigits(_ value: Double) -> Double {
        guard value.isFinite, value != 0 else { return value }
        var scale = 1.0
        while abs(value) * scale < 1_000 { scale *= 10 }
        while abs(value) * scale >= 10_000 { scale /= 10 }
        return (value * scale).rounded() / scale
    }
}
