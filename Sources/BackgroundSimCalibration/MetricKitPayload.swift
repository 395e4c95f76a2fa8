import BackgroundSim
import BackgroundSimLab

/// The background figures of one MetricKit daily metric payload, as an app exports it with
/// `MXMetricPayload.jsonRepresentation()`: the period it covers, the cumulative background and
/// foreground time (`applicationTimeMetrics`, `MXAppRunTimeMetric`), and the background exits
/// by reason (`applicationExitMetrics.backgroundExitData`, `MXBackgroundExitData`).
///
/// A file holds one payload object, an array of them, or one per line (JSON lines). Durations
/// are written as MetricKit writes measurements — `"347 sec"`, `"1.5 min"`, `"830 ms"`,
/// `"2 hr"`, with thousands separators allowed — or as plain seconds. Anything else is
/// reported with the file, the payload and the field, before anything runs.
package struct MetricKitPayload: Sendable, Equatable {
    /// The background exit reasons of `MXBackgroundExitData`, by their real names.
    package static let exitFields = [
        "cumulativeNormalAppExitCount", "cumulativeMemoryResourceLimitExitCount", "cumulativeCPUResourceLimitExitCount",
        "cumulativeMemoryPressureExitCount", "cumulativeBadAccessExitCount", "cumulativeAbnormalExitCount",
        "cumulativeIllegalInstructionExitCount", "cumulativeAppWatchdogExitCount", "cumulativeSuspendedWithLockedFileExitCount",
        "cumulativeBackgroundTaskAssertionTimeoutExitCount",
    ]

    /// The days the payload covers (`timeStampEnd − timeStampBegin`; MetricKit's are one day).
    package var days: Double
    /// `cumulativeBackgroundTime` and `cumulativeForegroundTime`, in seconds; `nil` if absent.
    package var backgroundSeconds: Double?
    package var foregroundSeconds: Double?
    /// Background exits by reason (``exitFields``); absent reasons are not listed.
    package var backgroundExits: [String: Int]

    /// Reads the payloads in the file at `path`.
    package static func read(path: String) throws(ScenarioError) -> [MetricKitPayload] {
        try parse(try ScenarioLoader.readText(path: path, maximumBytes: nil), source: path)
    }

    /// Parses payloads from `text`; `source` names it in messages.
    package static func parse(_ text: String, source: String) throws(ScenarioError) -> [MetricKitPayload] {
        func fail(_ where_: String, _ path: String, _ message: String) -> ScenarioError {
            ScenarioError(source: where_, issues: [ScenarioIssue(path: path, message: message)])
        }
        let trimmed = TextInput.withoutByteOrderMark(text).trimmingCharacters(in: .whitespacesAndNewlines)
        var objects: [(value: JSONValue, place: String)] = []
        do {
            if trimmed.hasPrefix("[") {
                guard case .array(let values) = try JSONParser.parse(trimmed) else { throw fail(source, "", "expected an array of payloads") }
                objects = values.enumerated().map { ($0.element, "\(source): payload \($0.offset + 1)") }
            } else {
                // One object, or one per line.
                let whole = try? JSONParser.parse(trimmed)
                if let whole {
                    objects = [(whole, source)]
                } else {
                    for (index, line) in TextInput.lines(trimmed).enumerated() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                        objects.append((try JSONParser.parse(String(line)), "\(source):\(index + 1)"))
                    }
                }
            }
        } catch let error as ScenarioError {
            throw error
        } catch {
            throw fail(source, "", "not valid JSON: \(error)")
        }
        return try objects.map { object throws(ScenarioError) in try payload(object.value, source: object.place) }
    }

    static func payload(_ value: JSONValue, source: String) throws(ScenarioError) -> MetricKitPayload {
        func fail(_ path: String, _ message: String) -> ScenarioError {
            ScenarioError(source: source, issues: [ScenarioIssue(path: path, message: message)])
        }
        guard case .object = value else { throw fail("", "expected a MetricKit payload object") }
        func timestamp(_ key: String) throws(ScenarioError) -> Double {
            guard case .string(let text)? = value[key], let seconds = Self.timestamp(text) else {
                throw fail(key, "expected a time like \"2026-01-05 00:00:00 +0000\", got \(value[key].map(JSONWriter.compact) ?? "nothing")")
            }
            return seconds
        }
        let begin = try timestamp("timeStampBegin"), end = try timestamp("timeStampEnd")
        guard end > begin else { throw fail("timeStampEnd", "expected a time after timeStampBegin") }
        guard end - begin <= Self.maximumSpanSeconds else {
            throw fail("timeStampEnd", "expected at most \(Int(Self.maximumSpanSeconds / 3_600)) h after timeStampBegin (a MetricKit payload covers "
                       + "a day), got \(Format.significant((end - begin) / 3_600)) h")
        }
        func duration(_ key: String) throws(ScenarioError) -> Double? {
            guard let field = value["applicationTimeMetrics"]?[key] else { return nil }
            switch field {
            case .number(let seconds) where seconds >= 0 && seconds.isFinite: return seconds
            case .string(let text): if let seconds = Self.duration(text) { return seconds }
            default: break
            }
            throw fail("applicationTimeMetrics.\(key)", "expected a duration like \"347 sec\", got \(JSONWriter.compact(field))")
        }
        var exits: [String: Int] = [:]
        if let data = value["applicationExitMetrics"]?["backgroundExitData"] {
            for name in exitFields {
                guard let field = data[name] else { continue }
                guard case .number(let count) = field, count >= 0, count == count.rounded(), count < 1e9 else {
                    throw fail("applicationExitMetrics.backgroundExitData.\(name)", "expected a whole number of exits, got \(JSONWriter.compact(field))")
                }
                exits[name] = Int(count)
            }
        }
        let background = try duration("cumulativeBackgroundTime"), foreground = try duration("cumulativeForegroundTime")
        // The app cannot run longer than the payload's span, in the background and the
        // foreground together.
        if (background ?? 0) + (foreground ?? 0) > end - begin {
            throw fail(background == nil ? "applicationTimeMetrics.cumulativeForegroundTime" : "applicationTimeMetrics.cumulativeBackgroundTime",
                       "expected at most the payload's span, \(Format.significant(end - begin)) s (background and foreground together), got "
                       + "\(Format.significant(background ?? 0)) s in the background and \(Format.significant(foreground ?? 0)) s in the foreground")
        }
        return MetricKitPayload(days: (end - begin) / 86_400, backgroundSeconds: background, foregroundSeconds: foreground, backgroundExits: exits)
    }

    /// The longest span a payload may cover: MetricKit delivers a day's metrics at a time
    /// (Apple, `MXMetricPayload`: "the past 24 hours"), with an hour's allowance for a clock
    /// change on the way.
    static let maximumSpanSeconds = 25.0 * 3_600

    /// Seconds since 1970 of `"YYYY-MM-DD HH:MM:SS +HHMM"` (MetricKit's form; a `T` is accepted
    /// for the space, and the offset may be left out for UTC).
    static func timestamp(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        let dateAndTime = parts.count >= 2 ? "\(parts[0])T\(parts[1])" : text
        guard let local = LocalTimestamp(parsing: dateAndTime) else { return nil }
        guard parts.count == 3 else { return parts.count == 2 || parts.count == 1 ? Double(local.instantMilliseconds) / 1_000 : nil }
        let offset = Array(parts[2])
        guard local.utcOffsetMinutes == nil, offset.count == 5, offset[0] == "+" || offset[0] == "-", let hours = Int(String(offset[1...2])), let minutes = Int(String(offset[3...4])) else {
            return nil
        }
        return local.seconds - Double(offset[0] == "-" ? -1 : 1) * Double(hours * 3_600 + minutes * 60)
    }

    /// Seconds of `"347 sec"`, `"1,456 sec"`, `"1.5 min"`, `"830 ms"`, `"2 hr"`. Commas only as
    /// thousands separators (`"1,456"`, not `"1,2,3"` or `"1,45"`).
    static func duration(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let number = groupedNumber(parts[0]), number >= 0, number.isFinite else { return nil }
        let scale: Double? = switch parts[1] {
        case "ms": 0.001
        case "s", "sec", "secs": 1
        case "min", "mins": 60
        case "h", "hr", "hrs": 3_600
        default: nil
        }
        return scale.map { number * $0 }
    }

    /// The number `text` writes, with commas allowed only between groups of three digits before
    /// the decimal point; `nil` otherwise.
    static func groupedNumber(_ text: Substring) -> Double? {
        let whole = text.prefix { $0 != "." }
        let groups = whole.split(separator: ",", omittingEmptySubsequences: false)
        guard groups.count == 1 || (groups.first.map { (1...3).contains($0.count) } == true
                                    && groups.dropFirst().allSatisfy { $0.count == 3 }) else { return nil }
        return Double(text.replacingOccurrences(of: ",", with: ""))
    }
}
