import BackgroundSim
import Foundation
import BackgroundSimLab

/// Reading and writing field logs: JSON lines (one object per line) or CSV with a header, the
/// same fields under the same names (docs/FIELD-LOGS.md).
package enum FieldLogFormat {
    /// The fields in the order files write them.
    package static let fields = ["device", "time", "event", "identifier", "kind", "earliestBegin", "requiresNetwork",
                                "requiresExternalPower", "success", "charging", "network", "batteryPercent", "bootTime",
                                "protectedDataAvailable", "firstLaunch"]

    // MARK: Writing

    /// One record as a JSON object, absent fields left out.
    static func values(_ record: FieldLogRecord) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("device", .string(record.device)), ("time", .string(record.time.text)),
                                              ("event", .string(record.event.rawValue))]
        if let identifier = record.identifier { members.append(("identifier", .string(identifier))) }
        if let kind = record.kind { members.append(("kind", .string(kind.rawValue))) }
        if let earliest = record.earliestBegin { members.append(("earliestBegin", .string(earliest.text))) }
        if let value = record.requiresNetwork { members.append(("requiresNetwork", .bool(value))) }
        if let value = record.requiresExternalPower { members.append(("requiresExternalPower", .bool(value))) }
        if let value = record.success { members.append(("success", .bool(value))) }
        if let value = record.charging { members.append(("charging", .bool(value))) }
        if let value = record.network { members.append(("network", .string(value.rawValue))) }
        if let value = record.batteryPercent { members.append(("batteryPercent", .number(value))) }
        if let value = record.bootTime { members.append(("bootTime", .string(value.text))) }
        if let value = record.protectedDataAvailable { members.append(("protectedDataAvailable", .bool(value))) }
        if let value = record.firstLaunch { members.append(("firstLaunch", .bool(value))) }
        return members
    }

    /// JSON lines: one compact object per record, each line ending in a newline.
    package static func jsonLines(_ records: [FieldLogRecord]) -> String {
        records.map { JSONWriter.compact(.object(values($0))) + "\n" }.joined()
    }

    /// CSV: the header, then one line per record; absent fields empty.
    package static func csv(_ records: [FieldLogRecord]) -> String {
        csvHeader + csvLines(records)
    }

    /// The CSV header line.
    package static var csvHeader: String { fields.joined(separator: ",") + "\n" }

    /// One CSV line per record, without the header.
    package static func csvLines(_ records: [FieldLogRecord]) -> String {
        var text = ""
        for record in records {
            let members = Dictionary(uniqueKeysWithValues: values(record))
            text += fields.map { field -> String in
                switch members[field] {
                case .string(let value)?: return ComparisonFormatter.csvField(value)
                case .bool(let value)?: return value ? "true" : "false"
                case .number(let value)?: return JSONWriter.format(value)
                default: return ""
                }
            }.joined(separator: ",") + "\n"
        }
        return text
    }

    // MARK: Reading

    /// `records` (sorted by device) split into one slice per device, in order.
    package static func devices(_ records: [FieldLogRecord]) -> [ArraySlice<FieldLogRecord>] {
        var devices: [ArraySlice<FieldLogRecord>] = []
        var start = 0
        for index in records.indices where index == records.count - 1 || records[index + 1].device != records[index].device {
            devices.append(records[start...index])
            start = index + 1
        }
        return devices
    }

    /// A field log's records, sorted by device, then time, then position, and how many exact
    /// duplicates of a record were left out.
    package struct Log: Sendable {
        package var records: [FieldLogRecord]
        package var duplicatesDropped: Int
    }

    /// Reads the field logs at `paths` as one log, whole: ``forEachDevice(paths:jobs:_:)``'s
    /// devices, one after the other.
    ///
    /// - Throws: ``ScenarioError`` if a file is named twice (by any path to it), or naming the
    ///   file, the line and the field of the first problem.
    package static func load(paths: [String], jobs: Int = 1) throws(ScenarioError) -> Log {
        var records: [FieldLogRecord] = []
        let counts = try forEachDevice(paths: paths, jobs: jobs) { records += $0 }
        return Log(records: records, duplicatesDropped: counts.duplicatesDropped)
    }

    /// Reads the field logs at `paths` as one log, a device at a time (``FieldLogReader``): calls
    /// `body` with each device's records, sorted by time, then file, then line, devices in order
    /// of their identifiers (files may each hold part of a device's log). A record that repeats
    /// an earlier one exactly — a telemetry batch uploaded twice, or files that overlap — is
    /// left out, so that it counts once. Returns the records handed over and the duplicates
    /// left out. `progress` hears of each block read and each device handed over; `logEnd`,
    /// before the first device, of the log's end (``FieldLogReader/logEnd``).
    ///
    /// - Throws: ``ScenarioError`` if a file is named twice (by any path to it), or naming the
    ///   file, the line and the field of the first problem, before `body` is called.
    @discardableResult
    package static func forEachDevice(paths: [String], jobs: Int = 1, progress: ((FieldLogReader.Step) -> Void)? = nil,
                                      logEnd: (Double) -> Void = { _ in },
                                      _ body: ([FieldLogRecord]) -> Void) throws(ScenarioError) -> (records: Int, duplicatesDropped: Int) {
        try TextInput.requireDistinct(paths, counted: "records")
        let reader = try FieldLogReader(paths: paths, jobs: jobs, progress: progress)
        logEnd(reader.logEnd)
        var kept = 0
        try reader.forEachDevice(progress: progress) { device in
            let unique = withoutDuplicates(device)
            kept += unique.count
            body(unique)
        }
        return (kept, reader.recordCount - kept)
    }

    /// Parses a field log's text, JSON lines or CSV, in `jobs` parallel runs of lines; `source`
    /// names it in messages, and the first problem in the text is the one reported, for any
    /// `jobs`. The records come sorted by device, then time, then line, duplicates kept.
    package static func parse(_ text: String, source: String, jobs: Int = 1) throws(ScenarioError) -> [FieldLogRecord] {
        let reader = try FieldLogReader(text: text, source: source, jobs: jobs)
        var records: [FieldLogRecord] = []
        try reader.forEachDevice { records += $0 }
        return records
    }

    /// `records` (one device's, sorted by time) without the records that repeat an earlier one
    /// exactly: duplicates share a time, so only those are compared.
    static func withoutDuplicates(_ records: [FieldLogRecord]) -> [FieldLogRecord] {
        var result: [FieldLogRecord] = []
        result.reserveCapacity(records.count)
        var groupStart = 0
        for record in records {
            if let last = result.last, last.device != record.device || last.time != record.time { groupStart = result.count }
            if !result[groupStart...].contains(record) { result.append(record) }
        }
        return result
    }

    /// How a file's lines are written: JSON objects, or CSV under a header.
    enum LineFormat: Sendable {
        case jsonLines
        case csv(header: [String])
    }

    /// How a file is written, from its first line with anything on it: JSON lines if it starts
    /// with `{`, else CSV with that line as its header.
    ///
    /// - Throws: ``ScenarioError`` at `source` for a line that is JSON but not an object (neither
    ///   format), or a header naming an unknown column.
    static func lineFormat(firstLine line: String, source: String) throws(ScenarioError) -> LineFormat {
        if line.hasPrefix("{") { return .jsonLines }
        if let value = try? JSONParser.parse(line) {
            throw ScenarioError(source: source, issues: [ScenarioIssue(
                path: "", message: "expected an object, got \(value.kindDescription): a JSON-lines field log has one object per line "
                    + "(a CSV one starts with its header)")])
        }
        let header = splitCSV(line)
        for name in header where !fields.contains(name) {
            let suggestion = ScenarioLoader.closest(to: name, among: fields).map { "; did you mean \"\($0)\"?" } ?? ""
            throw ScenarioError(source: source, issues: [ScenarioIssue(path: TextInput.visible(name), message: "unknown column" + suggestion)])
        }
        return .csv(header: header)
    }

    /// The record a line holds (not a blank line, nor the CSV header), checked; `source` names
    /// the file and line in messages.
    static func record(line: String, format: LineFormat, source: String) throws(ScenarioError) -> FieldLogRecord {
        switch format {
        case .jsonLines:
            let value: JSONValue
            do { value = try JSONParser.parse(line) } catch {
                throw ScenarioError(source: source, issues: [ScenarioIssue(path: "", message: "not valid JSON: \(error)")])
            }
            guard case .object(let members) = value else {
                throw ScenarioError(source: source, issues: [ScenarioIssue(path: "", message: "expected an object")])
            }
            return try record(members, source: source)
        case .csv(let header):
            let cells = splitCSV(line)
            guard cells.count == header.count else {
                throw ScenarioError(source: source, issues: [ScenarioIssue(
                    path: "", message: "expected \(header.count) fields as in the header, got \(cells.count)")])
            }
            var members: [(String, JSONValue)] = []
            for (name, cell) in zip(header, cells) where !cell.isEmpty {
                switch name {
                case "requiresNetwork", "requiresExternalPower", "success", "charging", "protectedDataAvailable", "firstLaunch":
                    members.append((name, cell == "true" ? .bool(true) : cell == "false" ? .bool(false) : .string(cell)))
                case "batteryPercent":
                    members.append((name, Double(cell).map(JSONValue.number) ?? .string(cell)))
                default:
                    members.append((name, .string(cell)))
                }
            }
            return try record(members, source: source)
        }
    }

    /// Whether `line` holds nothing but spaces and tabs (what `CharacterSet.whitespaces` holds:
    /// the tab and Unicode's space separators). Checked scalar by scalar: it stops at a line's
    /// first character, where Foundation's trimming copied every line.
    static func isBlank(_ line: String) -> Bool {
        line.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// Splits a CSV line on commas outside double quotes, unquoting (`""` is a quote).
    static func splitCSV(_ line: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var quoted = false
        var characters = line.makeIterator()
        while let character = characters.next() {
            if quoted {
                if character == "\"" {
                    if let next = characters.next() {
                        if next == "\"" { current.append("\"") } else {
                            quoted = false
                            if next == "," { cells.append(current); current = "" } else { current.append(next) }
                        }
                    } else { quoted = false }
                } else { current.append(character) }
            } else if character == "\"" && current.isEmpty {
                quoted = true
            } else if character == "," {
                cells.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        cells.append(current)
        return cells.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A record from its fields, checked.
    static func record(_ members: [(String, JSONValue)], source: String) throws(ScenarioError) -> FieldLogRecord {
        func fail(_ path: String, _ message: String) -> ScenarioError {
            ScenarioError(source: source, issues: [ScenarioIssue(path: path, message: message)])
        }
        var values: [String: JSONValue] = [:]
        for (key, value) in members {
            guard fields.contains(key) else {
                let suggestion = ScenarioLoader.closest(to: key, among: fields).map { "; did you mean \"\($0)\"?" } ?? ""
                throw fail(key, "unknown field" + suggestion)
            }
            values[key] = value
        }
        func string(_ key: String) throws(ScenarioError) -> String? {
            guard let value = values[key] else { return nil }
            guard case .string(let text) = value, !text.isEmpty, text.count <= 200 else { throw fail(key, "expected a non-empty string of at most 200 characters") }
            return text
        }
        func bool(_ key: String) throws(ScenarioError) -> Bool? {
            guard let value = values[key] else { return nil }
            guard case .bool(let flag) = value else { throw fail(key, "expected true or false") }
            return flag
        }
        func timestamp(_ key: String) throws(ScenarioError) -> LocalTimestamp? {
            guard let text = try string(key) else { return nil }
            guard let time = LocalTimestamp(parsing: text) else {
                throw fail(key, "expected a local time \"YYYY-MM-DDTHH:MM:SS\" (optionally .fff, and an offset from UTC such as Z or +01:00, at most 14 hours), got \"\(text)\"")
            }
            return time
        }
        func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws(ScenarioError) -> T? where T.RawValue == String {
            guard let text = try string(key) else { return nil }
            guard let value = T(rawValue: text) else {
                throw fail(key, "expected one of \(T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), got \"\(text)\"")
            }
            return value
        }
        guard let device = try string("device") else { throw fail("device", "required: an anonymous device identifier") }
        guard let time = try timestamp("time") else { throw fail("time", "required: the local time \"YYYY-MM-DDTHH:MM:SS\"") }
        guard let event = try choice("event", FieldLogRecord.Event.self) else {
            throw fail("event", "required: one of \(FieldLogRecord.Event.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
        }
        var record = FieldLogRecord(device: device, time: time, event: event)
        record.identifier = try string("identifier")
        record.kind = try choice("kind", FieldLogRecord.Kind.self)
        record.earliestBegin = try timestamp("earliestBegin")
        record.requiresNetwork = try bool("requiresNetwork")
        record.requiresExternalPower = try bool("requiresExternalPower")
        record.success = try bool("success")
        record.charging = try bool("charging")
        record.network = try choice("network", FieldLogRecord.Network.self)
        if let value = values["batteryPercent"] {
            guard case .number(let percent) = value, (0...100).contains(percent) else { throw fail("batteryPercent", "expected a number from 0 to 100") }
            record.batteryPercent = percent
        }
        record.bootTime = try timestamp("bootTime")
        for (key, other) in [("earliestBegin", record.earliestBegin), ("bootTime", record.bootTime)] {
            if let other, (other.utcOffsetMinutes == nil) != (time.utcOffsetMinutes == nil) {
                throw fail(key, "expected a time \(time.utcOffsetMinutes == nil ? "without" : "with") an offset from UTC, as the record's time is written, got \(other.text)")
            }
        }
        if let boot = record.bootTime, boot > time { throw fail("bootTime", "expected a time no later than the record's (\(time.text)), got \(boot.text)") }
        record.protectedDataAvailable = try bool("protectedDataAvailable")
        record.firstLaunch = try bool("firstLaunch")
        switch event {
        case .taskSubmitted, .taskLaunched:
            guard record.identifier != nil else { throw fail("identifier", "required for \(event.rawValue)") }
            guard record.kind != nil else { throw fail("kind", "required for \(event.rawValue): \"refresh\" or \"processing\"") }
        case .taskCompleted, .taskExpired:
            guard record.identifier != nil else { throw fail("identifier", "required for \(event.rawValue)") }
        case .appForeground, .appBackground:
            break
        }
        return record
    }
}
