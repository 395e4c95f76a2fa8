import Foundation
import BackgroundSim
import SimKernel
@testable import BackgroundSimCalibration
@testable import BackgroundSimLab
import Testing

@Suite("Field logs")
struct FieldLogTests {
    /// A local timestamp from its text, for hand-made logs.
    func at(_ text: String) -> LocalTimestamp { LocalTimestamp(parsing: text)! }

    @Test("local timestamps read and write as YYYY-MM-DDTHH:MM:SS[.fff][±HH:MM]; impossible ones are refused")
    func timestamps() throws {
        let time = try #require(LocalTimestamp(parsing: "2026-03-01T07:05:09.25"))
        #expect(time.text == "2026-03-01T07:05:09.250")
        #expect(time.hour == 7 && time.date == CivilDate(year: 2026, month: 3, day: 1)!)
        #expect(LocalTimestamp(parsing: "2026-03-01 07:05:09")?.text == "2026-03-01T07:05:09")
        #expect(LocalTimestamp(parsing: "2026-03-01T07:05:09.0005")?.milliseconds == LocalTimestamp(parsing: "2026-03-01T07:05:09.001")?.milliseconds)
        for bad in ["2026-02-30T00:00:00", "2026-03-01T24:00:00", "2026-03-01T07:05", "2026-03-01T07:05:09+15:00", "yesterday",
                    "2026-03-01T07:05:09.", "2026-03-01T07:05:09.1234567890", "+026-03-01T07:05:09", "2026-03-01T07:05:09.٣"] {
            #expect(LocalTimestamp(parsing: bad) == nil, "\(bad)")
        }
        #expect(LocalTimestamp(parsing: "1969-12-31T23:59:59")?.text == "1969-12-31T23:59:59")
    }

    @Test("a simulated phone's field log marks its first record as the install's first launch, and reads back equal from JSON lines and from CSV")
    func roundTrip() throws {
        let scenario = try #require(Presets.scenario(named: "zashi-designed"))
        let records = try FieldLogRecorder.run(scenario, seed: 3, days: 10, device: "d,\"3\"").records
        #expect(records.contains { $0.event == .taskLaunched } && records.contains { $0.event == .appForeground })
        #expect(records.contains { $0.event == .taskSubmitted && $0.requiresExternalPower == true })
        // The install's first open, and it alone, says so.
        #expect(records.first?.firstLaunch == true && records.first?.event == .appForeground)
        #expect(records.dropFirst().allSatisfy { $0.firstLaunch == nil })
        #expect(try FieldLogFormat.parse(FieldLogFormat.jsonLines(records), source: "log.jsonl") == records)
        #expect(try FieldLogFormat.parse(FieldLogFormat.csv(records), source: "log.csv") == records)
    }

    @Test("lines ending in a carriage return and a line feed (CSV as spreadsheets export it) read as lines ending in a line feed")
    func carriageReturns() throws {
        let scenario = try #require(Presets.scenario(named: "zashi-designed"))
        let records = try FieldLogRecorder.run(scenario, seed: 3, days: 3, device: "d").records
        for text in [FieldLogFormat.jsonLines(records), FieldLogFormat.csv(records)] {
            let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
            #expect(crlf.contains("\r\n"))
            #expect(try FieldLogFormat.parse(crlf, source: "log", jobs: 2) == records)
        }
    }

    @Test("a simulated field log has no exact duplicate record: CoverDrop as shipped submits twice at one instant as it launches (seed 21, day 16), and writes it once", TestBuild.optimizedOnly)
    func simulatedLogHasNoDuplicates() throws {
        for preset in ["coverdrop-shipped", "zashi-shipped", "proton-upload-shipped"] {
            let scenario = try #require(Presets.scenario(named: preset))
            let seeds: [UInt64] = preset == "coverdrop-shipped" ? Array(1...30) : Array(1...5)
            let records = try FieldLogRecorder.run(scenario, seeds: seeds, days: 28, jobs: 2).records
            var seen: [String: [FieldLogRecord]] = [:]
            var duplicates = 0
            for record in records {
                let key = record.device + "\(record.time)"
                if seen[key, default: []].contains(record) { duplicates += 1 }
                seen[key, default: []].append(record)
            }
            #expect(duplicates == 0, "\(preset): \(duplicates) exact duplicates")
        }
        // The instant that wrote two identical submissions before: two submission calls, one record.
        let scenario = try #require(Presets.scenario(named: "coverdrop-shipped"))
        let records = try FieldLogRecorder.run(scenario, seed: 21, days: 28, device: "device-21").records
        let instant = LocalTimestamp(date: try #require(CivilDate(year: 2026, month: 1, day: 20)), secondsSinceMidnight: 11 * 3_600 + 15 * 60)
        let atInstant = records.filter { $0.time == instant }
        #expect(atInstant.map(\.event) == [.taskSubmitted, .taskLaunched, .taskCompleted], "\(atInstant.map(\.event))")
    }

    @Test("a device's records may span the most days a run simulates and no more: 500 years, or a boot time 300 years back, is refused naming the record and field; exactly 100,000 days is read")
    func spanIsBounded() throws {
        func log(_ second: String, bootTime: String = "2026-01-05T00:00:00") -> String {
            #"{"device":"d","time":"2026-01-05T13:23:16","event":"appForeground","bootTime":"2026-01-05T00:00:00","firstLaunch":true}"#
                + "\n" + #"{"device":"d","time":"\#(second)","event":"appBackground","bootTime":"\#(bootTime)"}"# + "\n"
        }
        func refusal(_ text: String) -> ScenarioError? {
            do {
                _ = try FieldLogFormat.parse(text, source: "log", jobs: 2)
                return nil
            } catch {
                return error
            }
        }
        let fiveCenturies = try #require(refusal(log("2526-01-05T13:23:16")))
        #expect(fiveCenturies.source == "log:2" && fiveCenturies.issues.first?.path == "time", "\(fiveCenturies)")
        #expect(fiveCenturies.description.contains("within 100,000 days of this device's first record"), "\(fiveCenturies)")
        let oldBoot = try #require(refusal(log("2026-01-05T14:00:00", bootTime: "1726-01-05T00:00:00")))
        #expect(oldBoot.source == "log:2" && oldBoot.issues.first?.path == "bootTime", "\(oldBoot)")
        // 2026-01-05 + 100,000 days is 2299-10-21: at the limit, read; a second later, refused.
        #expect(refusal(log("2299-10-21T13:23:16")) == nil)
        #expect(refusal(log("2299-10-21T13:23:17"))?.issues.first?.path == "time")
    }

    @Test("a log with a byte order mark (Excel's CSV UTF-8), or with lines ending in a carriage return alone, reads like the same log without; an invisible character in a column's name is shown escaped")
    func byteOrderMarkAndLineEnds() throws {
        let scenario = try #require(Presets.scenario(named: "zashi-designed"))
        let records = try FieldLogRecorder.run(scenario, seed: 3, days: 3, device: "d").records
        for text in [FieldLogFormat.jsonLines(records), FieldLogFormat.csv(records)] {
            #expect(try FieldLogFormat.parse("\u{FEFF}" + text, source: "log", jobs: 2) == records)
            #expect(try FieldLogFormat.parse(text.replacingOccurrences(of: "\n", with: "\r"), source: "log", jobs: 2) == records)
            #expect(try FieldLogFormat.parse("\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n"), source: "log", jobs: 2) == records)
        }
        do {
            _ = try FieldLogFormat.parse("de\u{200B}vice,time,event\nd,2026-01-05T10:00:00,appForeground\n", source: "log", jobs: 1)
            Issue.record("a zero-width space in a column's name was accepted")
        } catch {
            #expect(error.issues.first?.path == "de\\u{200B}vice" && error.description.contains("did you mean \"device\""), "\(error)")
        }
    }

    @Test("a file given twice by any name is refused: the same path, another path, a symbolic link or a hard link")
    func sameFileByAnyName() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("log.jsonl").path
        try #"{"device":"d","time":"2026-01-05T13:23:16","event":"appForeground"}"#.appending("\n").write(toFile: log, atomically: true, encoding: .utf8)
        let symbolic = directory.appendingPathComponent("symbolic.jsonl").path, hard = directory.appendingPathComponent("hard.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: symbolic, withDestinationPath: log)
        try FileManager.default.linkItem(atPath: log, toPath: hard)
        for second in [log, directory.appendingPathComponent("./log.jsonl").path, symbolic, hard] {
            do {
                try TextInput.requireDistinct([log, second], counted: "records")
                Issue.record("\(second) was accepted beside \(log)")
            } catch {
                #expect(error.source == second && error.description.contains("already given (as \(log))"), "\(error)")
            }
        }
        let other = directory.appendingPathComponent("other.jsonl").path
        try "\n".write(toFile: other, atomically: true, encoding: .utf8)
        try TextInput.requireDistinct([log, other], counted: "records")
    }

    @Test("a log whose devices come in order is read straight through, with no index of devices; the same lines shuffled, or a device split across files, are read through the index to the same records")
    func streamingAndIndexedReadAlike() throws {
        let scenario = try #require(Presets.scenario(named: "coverdrop-shipped"))
        var records: [FieldLogRecord] = []
        for seed in UInt64(1)...5 { records += try FieldLogRecorder.run(scenario, seed: seed, days: 4, device: "device-\(seed)").records }
        let lines = FieldLogFormat.jsonLines(records).split(separator: "\n").map(String.init)
        let inOrder = try FieldLogReader(text: lines.joined(separator: "\n") + "\n", source: "log", jobs: 2)
        #expect(inOrder.isStreaming)
        var streamed: [[FieldLogRecord]] = []
        try inOrder.forEachDevice { streamed.append($0) }
        var random = RandomStream(seed: 7, label: StreamLabel("test.shuffle"))
        var shuffled = lines
        for index in shuffled.indices.reversed() { shuffled.swapAt(index, random.int(in: 0...index)) }
        let outOfOrder = try FieldLogReader(text: shuffled.joined(separator: "\n") + "\n", source: "log", jobs: 2)
        #expect(!outOfOrder.isStreaming)
        var indexed: [[FieldLogRecord]] = []
        try outOfOrder.forEachDevice { indexed.append($0) }
        // The index sorted outside memory, 7 notes at a time (a temporary file of many chunks): the same.
        let spilled = try FieldLogReader(text: shuffled.joined(separator: "\n") + "\n", source: "log", jobs: 2, notesInMemory: 7)
        var merged: [[FieldLogRecord]] = []
        try spilled.forEachDevice { merged.append($0) }
        #expect(merged == indexed)
        #expect(spilled.logEnd == inOrder.logEnd && outOfOrder.logEnd == inOrder.logEnd)
        // Records at one instant come in line order, which the shuffle changed: compare each
        // device's records as sorted lines.
        func canonical(_ devices: [[FieldLogRecord]]) -> [[Substring]] { devices.map { FieldLogFormat.jsonLines($0).split(separator: "\n").sorted() } }
        #expect(streamed.count == 5 && canonical(streamed) == canonical(indexed))
        #expect(zip(streamed, indexed).allSatisfy { zip($0, $0.dropFirst()).allSatisfy { $0.time <= $1.time } && $0.map(\.time) == $1.map(\.time) })
        #expect(streamed.map { $0.first?.device } == (1...5).map { "device-\($0)" })
        // A device's lines split across two files: the index again, the same records.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let half = lines.count / 2
        let first = directory.appendingPathComponent("a.jsonl").path, second = directory.appendingPathComponent("b.jsonl").path
        try (lines[..<half].joined(separator: "\n") + "\n").write(toFile: first, atomically: true, encoding: .utf8)
        try (lines[half...].joined(separator: "\n") + "\n").write(toFile: second, atomically: true, encoding: .utf8)
        let split = try FieldLogReader(paths: [first, second], jobs: 2)
        #expect(!split.isStreaming)
        var fromFiles: [[FieldLogRecord]] = []
        try split.forEachDevice { fromFiles.append($0) }
        #expect(fromFiles == streamed)
    }

    @Test("fieldlog's Poisson bootstrap, drawn device by device as they pass, gives the launch rate an interval whose ends are within 0.35 of its half-width of the multinomial bootstrap's (2,000 resamples) over the same 80 simulated phones × 14 days; the point is the devices' rate exactly")
    func poissonBootstrapAgreesWithResampling() throws {
        let records = SimulatedLogs.records(SimulatedLogs.clean("coverdrop-shipped"), devices: 80, days: 14)
        let refresh = try #require(FieldLogFeatures(records).kinds.first { $0.kind == .refresh })
        // Each device's launches and days, its last history run to the log's end as fieldlog does.
        var perDevice: [String: (launches: Double, days: Double)] = [:]
        for history in DeviceHistory.reachingTheLogsEnd(DeviceHistory.histories(records)) where history.involves(.refresh) {
            let summary = DeviceLaunchSummary(logged: history, kind: .refresh)
            perDevice[history.device, default: (0, 0)].launches += Double(summary.launches)
            perDevice[history.device, default: (0, 0)].days += summary.days
        }
        let devices = perDevice.keys.sorted().map { perDevice[$0]! }
        #expect(refresh.devices == devices.count && devices.count == 80)
        let rate = devices.reduce(0) { $0 + $1.launches } / devices.reduce(0) { $0 + $1.days }
        #expect(refresh.launchesPerDay.value == rate)
        var stream = RandomStream(seed: 11, label: StreamLabel("test.multinomial"))
        let draws = (0..<2_000).map { _ in
            let sample = Bootstrap.resample(devices.count, using: &stream).map { devices[$0] }
            return sample.reduce(0) { $0 + $1.launches } / sample.reduce(0) { $0 + $1.days }
        }
        let multinomial = try #require(Bootstrap.percentileInterval95(draws))
        let low = try #require(refresh.launchesPerDay.low), high = try #require(refresh.launchesPerDay.high)
        let halfWidth = (multinomial.high - multinomial.low) / 2
        #expect(abs(low - multinomial.low) < 0.35 * halfWidth && abs(high - multinomial.high) < 0.35 * halfWidth,
                "Poisson \(low)–\(high), multinomial \(multinomial.low)–\(multinomial.high)")
    }

    @Test("records repeated in a file or across files count once, and give the features of the log without them; the same file named twice is refused")
    func duplicates() throws {
        let scenario = try #require(Presets.scenario(named: "coverdrop-shipped"))
        var records: [FieldLogRecord] = []
        for seed in UInt64(1)...6 { records += try FieldLogRecorder.run(scenario, seed: seed, days: 14, device: "device-\(seed)").records }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-duplicates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let clean = directory.appendingPathComponent("clean.jsonl").path
        try FieldLogFormat.jsonLines(records).write(toFile: clean, atomically: true, encoding: .utf8)
        // A batch uploaded twice inside one file, and a second file overlapping the first.
        let lines = FieldLogFormat.jsonLines(records).split(separator: "\n").map(String.init)
        let repeated = directory.appendingPathComponent("repeated.jsonl").path
        try (lines + lines[100..<160]).joined(separator: "\n").appending("\n").write(toFile: repeated, atomically: true, encoding: .utf8)
        let overlap = directory.appendingPathComponent("overlap.jsonl").path
        try lines[40..<90].joined(separator: "\n").appending("\n").write(toFile: overlap, atomically: true, encoding: .utf8)

        let reference = try FieldLogFormat.load(paths: [clean])
        #expect(reference.duplicatesDropped == 0 && reference.records.count == records.count)
        let doubled = try FieldLogFormat.load(paths: [repeated, overlap])
        #expect(doubled.duplicatesDropped == 60 + 50)
        #expect(doubled.records == reference.records)
        #expect(FieldLogFeaturesFormatter.json(FieldLogFeatures(doubled.records), records: doubled.records.count)
                == FieldLogFeaturesFormatter.json(FieldLogFeatures(reference.records), records: reference.records.count))

        #expect(throws: ScenarioError.self) { try FieldLogFormat.load(paths: [clean, clean]) }
        do {
            _ = try FieldLogFormat.load(paths: [clean, directory.appendingPathComponent("./clean.jsonl").path])
            Issue.record("the same file by another path was accepted")
        } catch {
            #expect(error.description.contains("this file is already given"), "\(error)")
        }
    }

    @Test("a read tells its progress: every byte of every file in the first pass, then every device once, with the runs of lines it was read from")
    func progress() throws {
        let scenario = try #require(Presets.scenario(named: "coverdrop-shipped"))
        var records: [FieldLogRecord] = []
        for seed in UInt64(1)...5 { records += try FieldLogRecorder.run(scenario, seed: seed, days: 7, device: "device-\(seed)").records }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-progress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = FieldLogFormat.jsonLines(records).split(separator: "\n").map(String.init)
        let paths = [directory.appendingPathComponent("a.jsonl").path, directory.appendingPathComponent("b.jsonl").path]
        try lines[..<200].joined(separator: "\n").appending("\n").write(toFile: paths[0], atomically: true, encoding: .utf8)
        try lines[200...].joined(separator: "\n").appending("\n").write(toFile: paths[1], atomically: true, encoding: .utf8)
        let size = try paths.reduce(0) { $0 + (try FileManager.default.attributesOfItem(atPath: $1)[.size] as! NSNumber).intValue }
        var bytes = 0, devices = 0, runsRead = 0, totals: Set<Int> = []
        var order: [String] = []
        try FieldLogFormat.forEachDevice(paths: paths, progress: { step in
            switch step {
            case .bytes(let count, let total):
                bytes += count
                totals.insert(total)
                if order.last != "bytes" { order.append("bytes") }
            case .device(let runs, let total):
                devices += 1
                runsRead += runs
                totals.insert(total)
                if order.last != "devices" { order.append("devices") }
            }
        }) { _ in }
        // The device cut by the files' boundary is read from two runs of lines.
        #expect(bytes == size && devices == 5 && runsRead == 6)
        #expect(totals == [size, 6])
        #expect(order == ["bytes", "devices"])
    }

    @Test("a JSON-lines log whose first line is JSON but not an object is refused as such, not read as a CSV header", arguments: ["[1, 2]", "null", "\"device\"", "42"])
    func jsonThatIsNotAnObject(first: String) {
        do {
            _ = try FieldLogFormat.parse(first + "\n{}\n", source: "log.jsonl")
            Issue.record("accepted")
        } catch {
            #expect(error.description.contains("log.jsonl:1: expected an object"), "\(error)")
            #expect(!error.description.contains("unknown column"))
        }
    }

    @Test("a log read in parallel runs of lines gives the records read at once, and names the first bad line for any number of jobs")
    func parallelReading() throws {
        let scenario = try #require(Presets.scenario(named: "zashi-designed"))
        let records = try FieldLogRecorder.run(scenario, seeds: Array(1...40), days: 10, jobs: 2).records
        let text = FieldLogFormat.jsonLines(records)
        #expect(records.count > 3_000)
        // Out of order (the last records first): sorted the same whichever way it is read.
        let reordered = Array(records.suffix(1_000)) + Array(records.dropLast(1_000))
        let shuffled = FieldLogFormat.jsonLines(reordered)
        /// Sorted by device (as text: "10" before "2"), then time, then line.
        func sorted(_ records: [FieldLogRecord]) -> [FieldLogRecord] {
            records.enumerated().sorted { ($0.element.device, $0.element.time, $0.offset) < ($1.element.device, $1.element.time, $1.offset) }.map(\.element)
        }
        for jobs in [1, 3] {
            #expect(try FieldLogFormat.parse(text, source: "log.jsonl", jobs: jobs) == sorted(records))
            #expect(try FieldLogFormat.parse(shuffled, source: "log.jsonl", jobs: jobs) == sorted(reordered))
        }
        var lines = text.split(separator: "\n").map(String.init)
        lines[2_100] = #"{"device": "a", "time": "2026-01-05T07:00:00", "event": "taskLaunched"}"#
        lines[lines.count - 10] = "{not json"
        let broken = lines.joined(separator: "\n")
        for jobs in [1, 3] {
            #expect(throws: ScenarioError.self) { try FieldLogFormat.parse(broken, source: "log.jsonl", jobs: jobs) }
            do {
                _ = try FieldLogFormat.parse(broken, source: "log.jsonl", jobs: jobs)
            } catch {
                #expect(error.description.hasPrefix("log.jsonl:2101: identifier"), "\(error.description)")
            }
        }
    }

    @Test("a bad record names the file, the line and the field", arguments: [
        (#"{"device": "a", "time": "2026-01-05T07:00:00", "event": "taskLaunched", "identifier": "x"}"#, "log:1: kind: required for taskLaunched"),
        (#"{"device": "a", "time": "2026-01-05T07:00:00", "event": "launched"}"#, "log:1: event: expected one of"),
        (#"{"device": "a", "time": "07:00", "event": "appForeground"}"#, "log:1: time: expected a local time"),
        (#"{"device": "a", "time": "2026-01-05T07:00:00", "event": "appForeground", "batteryPercent": 140}"#, "log:1: batteryPercent: expected a number from 0 to 100"),
        (#"{"device": "a", "time": "2026-01-05T07:00:00", "event": "appForeground", "charing": true}"#, "log:1: charing: unknown field; did you mean \"charging\"?"),
        ("device,time,event,kinds\na,2026-01-05T07:00:00,appForeground,", "log:1: kinds: unknown column; did you mean \"kind\"?"),
        ("device,time,event\na,2026-01-05T07:00:00", "log:2: expected 3 fields as in the header, got 2"),
        (#"{"device": "a", "time": "2026-01-05T07:00:00", "event": "appForeground", "bootTime": "2026-01-05T08:00:00"}"#,
         "log:1: bootTime: expected a time no later than the record's"),
        (#"{"device": "a", "time": "2026-01-05T07:00:00", "event": "appForeground", "firstLaunch": "yes"}"#, "log:1: firstLaunch: expected true or false"),
        ("device,time,event,firstLaunch\na,2026-01-05T07:00:00,appForeground,1", "log:2: firstLaunch: expected true or false"),
    ])
    func badRecords(text: String, message: String) {
        #expect {
            _ = try FieldLogFormat.parse(text, source: "log")
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("the features of a hand-made log: launches a day, delay, spacing, charging share, fading by days since use")
    func features() throws {
        // One device over 4 days and 5 calendar days: opened on day 0 at 08:00; a refresh request at 08:00 with an
        // earliest begin of 09:00, launched at 10:00 (60 min late) on the charger; resubmitted
        // with no delay, launched at 22:00 (720 min after submission, 720 min after the first)
        // on battery; a last record on day 4 at 08:00.
        let log = [
            FieldLogRecord(device: "a", time: at("2026-01-05T08:00:00"), event: .appForeground),
            FieldLogRecord(device: "a", time: at("2026-01-05T08:00:00"), event: .taskSubmitted, identifier: "r", kind: .refresh,
                           earliestBegin: at("2026-01-05T09:00:00")),
            FieldLogRecord(device: "a", time: at("2026-01-05T10:00:00"), event: .taskLaunched, identifier: "r", kind: .refresh, charging: true),
            FieldLogRecord(device: "a", time: at("2026-01-05T10:00:00"), event: .taskSubmitted, identifier: "r", kind: .refresh),
            FieldLogRecord(device: "a", time: at("2026-01-05T22:00:00"), event: .taskLaunched, identifier: "r", kind: .refresh, charging: false),
            FieldLogRecord(device: "a", time: at("2026-01-09T08:00:00"), event: .appBackground),
        ]
        let features = FieldLogFeatures(log)
        let refresh = try #require(features.kinds.first)
        #expect(features.kinds.count == 1 && refresh.kind == .refresh && refresh.devices == 1)
        // Device-days are calendar days, each counted whole, as a run counts them: 5 to 9 January.
        #expect(refresh.deviceDays == 5 && refresh.launches == 2)
        #expect(refresh.launchesPerDay.value == 0.4)
        #expect(refresh.delayMedianMinutes.value == 390)   // 60 and 720
        #expect(refresh.spacingMedianMinutes.value == 720)
        #expect(refresh.chargingShare.value == 0.5)
        // Both launches within a day of the last use (1 day of exposure): 2 a day; 1–3 days after
        // it, 2 days of exposure and no launch; 3–7 days, 1 day of exposure: too little to rate
        // (under half a day is left out; one day counts).
        #expect(refresh.fading[0].value == 2)
        #expect(refresh.fading[1].value == 0)
        #expect(refresh.fading[2].value == 0)
        #expect(refresh.fading[3].value == nil)
        #expect(refresh.hourShares[10] == 0.5 && refresh.hourShares[22] == 0.5)
        // One device: nothing to resample.
        #expect(refresh.launchesPerDay.low == nil)
    }

    @Test("a submission logged before the launch at the same instant (made in its handler) counts for the next launch, not this one, in fieldlog as in calibrate's goodness of fit")
    func handlerSubmissionOrder() throws {
        // As an app logs it: at 10:00 the handler's resubmission (earliest begin 11:00) is
        // written before the launch record. The launch took 60 min from the 09:00 earliest
        // begin; the next, at 14:00, 180 min from 11:00.
        let log = [
            FieldLogRecord(device: "a", time: at("2026-01-05T08:00:00"), event: .appForeground),
            FieldLogRecord(device: "a", time: at("2026-01-05T08:00:00"), event: .taskSubmitted, identifier: "r", kind: .refresh,
                           earliestBegin: at("2026-01-05T09:00:00")),
            FieldLogRecord(device: "a", time: at("2026-01-05T10:00:00"), event: .taskSubmitted, identifier: "r", kind: .refresh,
                           earliestBegin: at("2026-01-05T11:00:00")),
            FieldLogRecord(device: "a", time: at("2026-01-05T10:00:00"), event: .taskLaunched, identifier: "r", kind: .refresh),
            FieldLogRecord(device: "a", time: at("2026-01-05T14:00:00"), event: .taskLaunched, identifier: "r", kind: .refresh),
            FieldLogRecord(device: "a", time: at("2026-01-06T08:00:00"), event: .appBackground),
        ]
        let refresh = try #require(FieldLogFeatures(log).kinds.first)
        #expect(refresh.delayMedianMinutes.value == 120)   // 60 and 180
        let history = DeviceHistory.histories(log)[0]
        let summary = DeviceLaunchSummary(logged: history, kind: .refresh)
        #expect(summary.delaysMinutes == [60, 180])
    }

    @Test("closes of 6 h or more are counted, and those with no launch before the next open: what a force-quit leaves")
    func quietClosesAfterForceQuit() throws {
        let log = [
            // Closed 08:05 → opened 15:00 (6 h 55 min), no launch: quiet.
            FieldLogRecord(device: "a", time: at("2026-01-05T08:00:00"), event: .appForeground),
            FieldLogRecord(device: "a", time: at("2026-01-05T08:05:00"), event: .appBackground),
            // Closed 15:05 → opened 17:00 (under 6 h): not counted, though nothing launched.
            FieldLogRecord(device: "a", time: at("2026-01-05T15:00:00"), event: .appForeground),
            FieldLogRecord(device: "a", time: at("2026-01-05T15:05:00"), event: .appBackground),
            // Closed 17:05 → opened 08:00 next day, a launch at 23:00 in between: long, not quiet.
            FieldLogRecord(device: "a", time: at("2026-01-05T17:00:00"), event: .appForeground),
            FieldLogRecord(device: "a", time: at("2026-01-05T17:05:00"), event: .appBackground),
            FieldLogRecord(device: "a", time: at("2026-01-05T23:00:00"), event: .taskLaunched, identifier: "r", kind: .refresh),
            // Closed 08:05 → the log's end at 20:00: long and quiet.
            FieldLogRecord(device: "a", time: at("2026-01-06T08:00:00"), event: .appForeground),
            FieldLogRecord(device: "a", time: at("2026-01-06T08:05:00"), event: .appBackground),
            FieldLogRecord(device: "a", time: at("2026-01-06T20:00:00"), event: .taskSubmitted, identifier: "r", kind: .refresh,
                           earliestBegin: at("2026-01-06T21:00:00")),
        ]
        let summary = DeviceLaunchSummary(logged: DeviceHistory.histories(log)[0], kind: .refresh)
        #expect(summary.longGaps == 3 && summary.quietLongGaps == 2)
        let values = CalibrationFeature.values([summary])
        #expect(values[CalibrationFeature.quietAfterClose.rawValue] == 2.0 / 3)
    }

    @Test("a later boot time marks a restart at the boot: a replay launches nothing between the record before it and the boot, and does without the boot times", TestBuild.optimizedOnly)
    func restartSkipsTheDeadTime() throws {
        let boot = at("2026-01-04T00:00:00"), reboot = at("2026-01-06T18:00:00")
        var log: [FieldLogRecord] = []
        // Opened every hour from 08:00 to 20:00 on two days, a refresh request always pending.
        for day in ["05", "06"] {
            for hour in 8...20 where day == "05" || hour < 12 || hour > 18 {
                let time = at("2026-01-\(day)T\(hour < 10 ? "0" : "")\(hour):00:00")
                log.append(FieldLogRecord(device: "a", time: time, event: .appForeground, bootTime: time > reboot ? reboot : boot))
                log.append(FieldLogRecord(device: "a", time: time, event: .taskSubmitted, identifier: "r", kind: .refresh,
                                          bootTime: time > reboot ? reboot : boot))
            }
        }
        let history = try #require(DeviceHistory.histories(log).first)
        let restarts = history.steps.compactMap { entry -> (Double, Double)? in
            if case .restarted(let since) = entry.step { (entry.time, since) } else { nil }
        }
        // Times in seconds since 2026-01-05 00:00: the boot at 1 d 18:00, after the 11:00 record.
        #expect(restarts.count == 1 && restarts.first?.0 == 86_400 + 18 * 3_600 && restarts.first?.1 == 86_400 + 11 * 3_600)
        var withoutBoots = log
        for index in withoutBoots.indices { withoutBoots[index].bootTime = nil }
        let historyWithoutBoots = try #require(DeviceHistory.histories(withoutBoots).first)
        var generous = HeuristicLaunchParameters()
        generous.refreshBasePerDay = 20
        generous.refreshMaximumPerDay = 24
        func launchesInTheGap(_ history: DeviceHistory) -> Int {
            (0..<20).reduce(0) { total, replicate in
                var random = RandomStream(seed: UInt64(replicate), label: StreamLabel("test.restart"))
                let launches = LaunchReplay.simulate(history, kind: .refresh, parameters: generous, phone: LaunchFitTests.zashiPhone,
                                                     resubmission: LaunchReplay.Resubmission(history, kind: .refresh), random: &random)
                return total + launches.filter { $0.time > 86_400 + 11 * 3_600 && $0.time < 86_400 + 18 * 3_600 }.count
            }
        }
        #expect(launchesInTheGap(history) == 0)
        #expect(launchesInTheGap(historyWithoutBoots) > 0)
    }
}
