import BackgroundSim
import Foundation

/// Reads field logs a device at a time, in two streaming passes over their files, so that
/// memory holds a block of lines, a few devices' records and at most a chunk of the index of
/// where each device's lines are — not the log.
///
/// - The first pass (``init(paths:jobs:progress:)``) reads every line, in blocks of 4 MiB parsed
///   on `jobs` threads, and checks it; the first problem in file order is the one reported, for
///   any number of jobs. It notes each run of consecutive lines of one device (``LineRun``): its
///   file, its bytes, its first line's number and the times it spans, from which it knows the
///   log's end (``logEnd``).
/// - The second pass (``forEachDevice(progress:_:)``) takes the devices in order of their
///   identifiers, reads each one's runs back and hands over its records sorted by time, then
///   file, then line.
///
/// A log whose devices come in increasing order, one run each, across the files in the order
/// given (as `bgsim run --field-log` writes it) needs no index: the first pass notes only where
/// each file's records start (``isStreaming``), and the second reads the files straight
/// through, handing each device over when the next starts. The first device out of order makes
/// the first pass start over with the index (``FieldLogRunIndex``, sorted outside memory). A
/// log grouped by device but not in order has one run per device and file; a log whose devices
/// alternate line by line has one run per line. Standard input (`-`) cannot be read twice and
/// is held whole.
package struct FieldLogReader {
    /// Lines are read and parsed this many bytes at a time; a longer line is refused.
    package static let blockBytes = 4 << 20

    /// How far a read has got, for a progress line: each block of the first pass, then each
    /// device of the second.
    package enum Step: Sendable {
        /// A block of `bytes` bytes of the first pass is read and checked; `total` bytes in all
        /// the files.
        case bytes(Int, total: Int)
        /// A device's records are handed over, read from `runs` runs of consecutive lines
        /// (one, for a log whose devices come in order); `totalRuns` runs in all the files.
        case device(runs: Int, totalRuns: Int)
    }

    private let files: [LogBytes]
    private var formats: [FieldLogFormat.LineFormat?]
    private let jobs: Int
    /// Whether the files' devices come in strictly increasing order of their identifiers, one
    /// run each, across the files in the order given (as `bgsim run --field-log` writes them):
    /// then the second pass reads the files straight through, and no index of devices is kept.
    private(set) var isStreaming = true
    /// While streaming: the last device seen, the devices so far, and where each file's records
    /// start (its first record's first byte and line number).
    private var lastDevice: String?
    private var streamedDevices = 0
    private var recordsStart: [(start: Int, line: Int)?]
    /// Otherwise, every run of lines of one device (``FieldLogRunIndex``).
    private var index: FieldLogRunIndex
    /// The latest record of any device seen so far, on the clock of its device's earliest, in
    /// milliseconds from the epoch's local midnight (``logEnd``).
    private var latestLocalEnd: Int64?
    /// The number of records in the files, duplicates included.
    package private(set) var recordCount = 0

    /// Reads and checks every line of the field logs at `paths` (the first pass).
    ///
    /// - Throws: ``ScenarioError`` naming the file, the line and the field of the first problem.
    package init(paths: [String], jobs: Int, progress: ((Step) -> Void)? = nil) throws(ScenarioError) {
        var files: [LogBytes] = []
        for path in paths { files.append(try LogBytes(path: path)) }
        try self.init(files: files, jobs: jobs, progress: progress)
    }

    /// Reads and checks a field log held in memory, `source` naming it in messages; an index,
    /// if one is needed, keeps `notesInMemory` notes in memory (``FieldLogRunIndex``).
    init(text: String, source: String, jobs: Int, notesInMemory: Int = FieldLogRunIndex.notesInMemory) throws(ScenarioError) {
        try self.init(files: [LogBytes(name: source, bytes: Array(text.utf8))], jobs: jobs, notesInMemory: notesInMemory)
    }

    private init(files: [LogBytes], jobs: Int, progress: ((Step) -> Void)? = nil,
                 notesInMemory: Int = FieldLogRunIndex.notesInMemory) throws(ScenarioError) {
        self.files = files
        index = FieldLogRunIndex(notesInMemory: notesInMemory)
        self.formats = Array(repeating: nil, count: files.count)
        self.recordsStart = Array(repeating: nil, count: files.count)
        self.jobs = Swift.max(1, jobs)
        let total = files.reduce(0) { $0 + $1.count }
        // Bytes are reported once each, though a read that has to start over reads some twice.
        var read = 0, reported = 0
        let blockRead = { (size: Int) in
            read += size
            if read > reported {
                progress?(.bytes(read - reported, total: total))
                reported = read
            }
        }
        for file in files.indices where isStreaming { try indexLines(of: file, blockRead: blockRead) }
        if !isStreaming {
            // A device out of order: read again, this time noting every device's runs.
            formats = Array(repeating: nil, count: files.count)
            latestLocalEnd = nil
            recordCount = 0
            read = 0
            for file in files.indices { try indexLines(of: file, blockRead: blockRead) }
            try checkDevicesAcrossRuns()
        }
    }

    /// The latest record of any device, on the clock of its device's earliest record, in
    /// seconds from the epoch's local midnight (``DeviceHistory/localEnd``): where the log ends
    /// for every device (``DeviceHistory/reachingTheLogsEnd(_:)``); −∞ without records. Known
    /// from the first pass, so that the second can end each device's summaries as it comes
    /// (``FieldLogFeatures/Builder``).
    package var logEnd: Double { latestLocalEnd.map { Double($0) / 1_000 } ?? -.infinity }

    /// Adds a device's last record to ``latestLocalEnd``: the latest of `runs`, all of one
    /// device's, on the clock of its earliest record.
    private mutating func noteEnd(of runs: some Sequence<LineRun>) {
        guard let earliest = runs.map(\.earliest).min(), let latest = runs.map(\.latestInstantMilliseconds).max() else { return }
        latestLocalEnd = Swift.max(latestLocalEnd ?? .min, latest + Int64(earliest.utcOffsetMinutes ?? 0) * 60_000)
    }

    /// What the first pass checks of a device whose lines come in several runs, once every run
    /// is known: that all give times with an offset from UTC, or none (the first run in the files'
    /// order that does not as the device's earlier ones do is named); and the device's end.
    private mutating func checkDevicesAcrossRuns() throws(ScenarioError) {
        let index = index
        try index.forEachDevice { (_, runs) throws(ScenarioError) in
            if let first = runs.first, let other = runs.first(where: { $0.givesOffset != first.givesOffset }) {
                throw Self.offsetMismatch(expected: first.givesOffset, got: other.first, source: "\(files[other.file].name):\(other.firstLine)")
            }
            noteEnd(of: runs)
        }
    }

    private static func offsetMismatch(expected givesOffset: Bool, got time: LocalTimestamp, source: String) -> ScenarioError {
        ScenarioError(source: source, issues: [ScenarioIssue(path: "time", message:
            "expected a time \(givesOffset ? "with" : "without") an offset from UTC, as this device's earlier records give it, got \(time.text)")])
    }

    /// Calls `body` with each device's records, sorted by time, then file, then line (the second
    /// pass), devices in order of their identifiers; a few devices are read at once, on the
    /// reader's threads.
    ///
    /// - Throws: ``ScenarioError`` if a file changed since the first pass.
    package func forEachDevice(progress: ((Step) -> Void)? = nil, _ body: ([FieldLogRecord]) -> Void) throws(ScenarioError) {
        if isStreaming { return try streamDevices(progress: progress, body) }
        let group = 4 * jobs
        var part: [(device: String, runs: [LineRun])] = []
        func handOver() throws(ScenarioError) {
            let records: [Result<[FieldLogRecord], ScenarioError>]
            do {
                let batch = part, files = files, formats = formats
                records = try ParallelRuns.map(count: batch.count, jobs: jobs) { index in
                    Self.records(of: batch[index].device, runs: batch[index].runs, files: files, formats: formats)
                }
            } catch {
                preconditionFailure("records(of:runs:) returns its errors")
            }
            for (result, device) in zip(records, part) {
                switch result {
                case .success(let records):
                    body(records)
                    progress?(.device(runs: device.runs.count, totalRuns: index.count))
                case .failure(let error): throw error
                }
            }
            part.removeAll(keepingCapacity: true)
        }
        try index.forEachDevice { (device, runs) throws(ScenarioError) in
            part.append((device, runs))
            if part.count == group { try handOver() }
        }
        try handOver()
    }

    /// The second pass over files whose devices come in order: each file read straight through
    /// a block at a time, each device's records handed over when the next device starts.
    private func streamDevices(progress: ((Step) -> Void)?, _ body: ([FieldLogRecord]) -> Void) throws(ScenarioError) {
        var device: String?
        var records: [(record: FieldLogRecord, file: Int, line: Int)] = []
        func handOver() throws(ScenarioError) {
            guard !records.isEmpty else { return }
            switch Self.finished(records, files: files) {
            case .success(let sorted): body(sorted)
            case .failure(let error): throw error
            }
            progress?(.device(runs: 1, totalRuns: streamedDevices))
            records.removeAll(keepingCapacity: true)
        }
        for file in files.indices {
            guard let format = formats[file], let start = recordsStart[file] else { continue }
            let bytes = files[file]
            var offset = start.start, nextLine = start.line
            while offset < bytes.count {
                let block = try Self.lines(of: bytes, from: offset, to: bytes.count, firstLine: nextLine, cutAtLastLineFeed: true)
                offset = block.end
                nextLine += block.lines.count
                for (line, record) in try parse(block.lines, format: format, source: bytes.name) {
                    if record.device != device {
                        if let device, !(device < record.device) {
                            throw ScenarioError(source: "\(bytes.name):\(line.number)", issues: [ScenarioIssue(
                                path: "", message: "the file changed while it was being read; read it again")])
                        }
                        try handOver()
                        device = record.device
                    }
                    records.append((record, file, line.number))
                }
            }
        }
        try handOver()
    }

    // MARK: The first pass

    /// Reads file `file` block by block, checking each line and extending the index; calls
    /// `blockRead` with each block's size after it.
    private mutating func indexLines(of file: Int, blockRead: (Int) -> Void) throws(ScenarioError) {
        let bytes = files[file]
        // A byte order mark is skipped (TextInput); the runs' byte ranges start after it.
        var offset = TextInput.byteOrderMarkLength(try bytes.read(at: 0, count: TextInput.byteOrderMark.count))
        var nextLine = 1
        var open: (device: String, run: LineRun)?
        while offset < bytes.count {
            let block = try Self.lines(of: bytes, from: offset, to: bytes.count, firstLine: nextLine, cutAtLastLineFeed: true)
            let size = block.end - offset
            defer { blockRead(size) }
            offset = block.end
            nextLine += block.lines.count
            var remaining = block.lines[...]
            if formats[file] == nil {
                // The first line with anything on it says how the file is written: a JSON
                // object (a record), or a CSV header (not one).
                while let line = remaining.first, formats[file] == nil {
                    guard !FieldLogFormat.isBlank(line.text) else {
                        remaining = remaining.dropFirst()
                        continue
                    }
                    let format = try FieldLogFormat.lineFormat(firstLine: line.text, source: "\(bytes.name):\(line.number)")
                    formats[file] = format
                    if case .csv = format { remaining = remaining.dropFirst() }
                }
            }
            guard let format = formats[file] else { continue }
            for (line, record) in try parse(Array(remaining), format: format, source: bytes.name) {
                recordCount += 1
                if var run = open?.run, open?.device == record.device {
                    guard run.givesOffset == (record.time.utcOffsetMinutes != nil) else {
                        throw Self.offsetMismatch(expected: run.givesOffset, got: record.time, source: "\(bytes.name):\(line.number)")
                    }
                    run.extend(to: line.end, time: record.time)
                    open?.run = run
                    continue
                }
                if isStreaming {
                    // A new run: streaming goes on only while each is a new device, in order.
                    if let lastDevice, !(lastDevice < record.device) {
                        isStreaming = false
                        return
                    }
                    lastDevice = record.device
                    streamedDevices += 1
                    if recordsStart[file] == nil { recordsStart[file] = (line.start, line.number) }
                }
                try close(open)
                open = (record.device, LineRun(file: file, start: line.start, end: line.end, firstLine: line.number, first: record.time))
            }
        }
        try close(open)
    }

    /// Ends a run of lines: while streaming, its device's; otherwise notes it in the index.
    private mutating func close(_ open: (device: String, run: LineRun)?) throws(ScenarioError) {
        guard let open else { return }
        if isStreaming { noteEnd(of: [open.run]) } else { try index.append(open.device, open.run) }
    }

    // MARK: Lines

    /// One line of a file: its text (a carriage return before the line feed left out), its
    /// number, its first byte and the byte after its line feed.
    struct Line: Sendable {
        var text: String
        var number: Int
        var start: Int
        var end: Int
    }

    /// The lines in bytes `start ..< end` of `bytes`, at most a block's worth: with
    /// `cutAtLastLineFeed`, the block ends after its last line feed (the next block starts with
    /// the line it cut), unless it reaches `end`.
    private static func lines(of bytes: LogBytes, from start: Int, to end: Int, firstLine: Int,
                              cutAtLastLineFeed: Bool) throws(ScenarioError) -> (lines: [Line], end: Int) {
        let count = Swift.min(end - start, cutAtLastLineFeed ? Self.blockBytes : end - start)
        let block = try bytes.read(at: start, count: count)
        var stop = block.count
        if start + block.count < end {
            // Cut after the last line feed, or, in a file whose lines end in a carriage return
            // alone, after the last carriage return.
            guard let lastLineFeed = block.lastIndex(of: 10) ?? block.lastIndex(of: 13) else {
                throw ScenarioError(source: "\(bytes.name):\(firstLine)", issues: [ScenarioIssue(
                    path: "", message: "the line is longer than \(Self.blockBytes >> 20) MiB; a field log has one record per line")])
            }
            stop = lastLineFeed + 1
        }
        var lines: [Line] = []
        var lineStart = 0
        var number = firstLine
        while lineStart < stop {
            // A line ends at a line feed, a carriage return and a line feed, or a carriage
            // return alone (TextInput).
            var lineEnd = lineStart
            while lineEnd < stop && block[lineEnd] != 10 && block[lineEnd] != 13 { lineEnd += 1 }
            let crlf = lineEnd + 1 < stop && block[lineEnd] == 13 && block[lineEnd + 1] == 10
            let next = Swift.min(lineEnd + (crlf ? 2 : 1), stop)
            let textEnd = lineEnd
            guard let text = String(validating: block[lineStart..<textEnd], as: UTF8.self) else {
                throw ScenarioError(source: "\(bytes.name):\(number)", issues: [ScenarioIssue(path: "", message: "expected UTF-8 text")])
            }
            lines.append(Line(text: text, number: number, start: start + lineStart, end: start + next))
            number += 1
            lineStart = next
        }
        return (lines, start + stop)
    }

    /// The records of `lines` with their lines, blank lines left out, parsed in parallel runs;
    /// the first problem in line order if any.
    private func parse(_ lines: [Line], format: FieldLogFormat.LineFormat,
                       source: String) throws(ScenarioError) -> [(line: Line, record: FieldLogRecord)] {
        let runs = Swift.max(1, Swift.min(4 * jobs, lines.count / 1_000))
        let parsed: [Result<[(line: Line, record: FieldLogRecord)], ScenarioError>]
        do {
            parsed = try ParallelRuns.map(count: runs, jobs: jobs) { run in
                var records: [(line: Line, record: FieldLogRecord)] = []
                for line in lines[run * lines.count / runs ..< (run + 1) * lines.count / runs] where !FieldLogFormat.isBlank(line.text) {
                    do throws(ScenarioError) {
                        records.append((line, try FieldLogFormat.record(line: line.text, format: format, source: "\(source):\(line.number)")))
                    } catch {
                        return .failure(error)
                    }
                }
                return .success(records)
            }
        } catch {
            preconditionFailure("the runs return their errors")
        }
        var records: [(line: Line, record: FieldLogRecord)] = []
        records.reserveCapacity(lines.count)
        for run in parsed {
            switch run {
            case .success(let part): records += part
            case .failure(let error): throw error
            }
        }
        return records
    }

    // MARK: The second pass

    /// The records of `device`, read back from its runs, sorted by time, then file, then line.
    private static func records(of device: String, runs: [LineRun], files: [LogBytes],
                                formats: [FieldLogFormat.LineFormat?]) -> Result<[FieldLogRecord], ScenarioError> {
        var records: [(record: FieldLogRecord, file: Int, line: Int)] = []
        for run in runs {
            let bytes = files[run.file]
            guard let format = formats[run.file] else { continue }
            do throws(ScenarioError) {
                for line in try Self.lines(of: bytes, from: run.start, to: run.end, firstLine: run.firstLine, cutAtLastLineFeed: false).lines
                where !FieldLogFormat.isBlank(line.text) {
                    let record = try FieldLogFormat.record(line: line.text, format: format, source: "\(bytes.name):\(line.number)")
                    guard record.device == device else {
                        throw ScenarioError(source: "\(bytes.name):\(line.number)", issues: [ScenarioIssue(
                            path: "", message: "the file changed while it was being read; read it again")])
                    }
                    records.append((record, run.file, line.number))
                }
            } catch {
                return .failure(error)
            }
        }
        return finished(records, files: files)
    }

    /// One device's records in order of time (then file, then line), refused if they span more
    /// than a simulation can, on the first record's clock.
    private static func finished(_ records: [(record: FieldLogRecord, file: Int, line: Int)], files: [LogBytes]) -> Result<[FieldLogRecord], ScenarioError> {
        let inOrder = zip(records, records.dropFirst()).allSatisfy { $0.record.time <= $1.record.time }
        let ordered = inOrder ? records
            : records.sorted { ($0.record.time, $0.file, $0.line) < ($1.record.time, $1.file, $1.line) }
        if let beyond = Self.firstBeyondSpan(ordered.map(\.record)) {
            let (_, file, line) = ordered[beyond.index]
            return .failure(ScenarioError(source: "\(files[file].name):\(line)", issues: [ScenarioIssue(path: beyond.field, message:
                "expected a time within \(NumberRow.format(Double(SimulationRunner.maximumDays))) days of this device's first record (\(ordered[0].record.time.text)), "
                    + "the most a simulation spans; got \(beyond.time.text)")]))
        }
        return .success(Self.onFirstClock(ordered.map(\.record)))
    }

    /// The first of a device's records (sorted by time) with a time — its own, its earliest begin
    /// date or its boot time — more than ``SimulationRunner/maximumDays`` from the first record's
    /// time: what a replay or a calibration would have to simulate, which no run can.
    static func firstBeyondSpan(_ records: [FieldLogRecord]) -> (index: Int, field: String, time: LocalTimestamp)? {
        guard let first = records.first?.time.milliseconds else { return nil }
        let span = Int64(SimulationRunner.maximumDays) * 86_400_000
        func beyond(_ time: LocalTimestamp?) -> Bool {
            guard let time else { return false }
            let (difference, overflow) = time.milliseconds.subtractingReportingOverflow(first)
            return overflow || difference.magnitude > UInt64(span)
        }
        for (index, record) in records.enumerated() {
            if beyond(record.time) { return (index, "time", record.time) }
            if beyond(record.earliestBegin) { return (index, "earliestBegin", record.earliestBegin!) }
            if beyond(record.bootTime) { return (index, "bootTime", record.bootTime!) }
        }
        return nil
    }

    /// One device's records (sorted by time) with every time on the clock of its first record,
    /// where the times give offsets from UTC: a change of the clock during the log — summer
    /// time, a flight — moves no record's time but by the hours the clock moved, so the log
    /// reads as one continuous clock, the hours of the day the first record's [Inf]
    /// (docs/CALIBRATION.md, "Clock changes and travel").
    static func onFirstClock(_ records: [FieldLogRecord]) -> [FieldLogRecord] {
        guard let clock = records.first?.time.utcOffsetMinutes, records.contains(where: { $0.time.utcOffsetMinutes != clock }) else {
            return records
        }
        return records.map { record in
            var record = record
            record.time = record.time.onClock(utcOffsetMinutes: clock)
            record.earliestBegin = record.earliestBegin?.onClock(utcOffsetMinutes: clock)
            record.bootTime = record.bootTime?.onClock(utcOffsetMinutes: clock)
            return record
        }
    }
}

/// A field log's bytes: a regular file, read where asked with `pread` (from any thread), or
/// text held in memory (standard input, a test's log).
final class LogBytes: @unchecked Sendable {
    /// The file's path, or what names the text, for messages.
    let name: String
    let count: Int
    private let descriptor: Int32?
    private let memory: [UInt8]

    /// Opens the field log at `path` (`-`: standard input, read whole).
    init(path: String) throws(ScenarioError) {
        name = path
        if path == "-" {
            memory = Array(FileHandle.standardInput.readDataToEndOfFile())
            count = memory.count
            descriptor = nil
            return
        }
        func fail(_ message: String) -> ScenarioError {
            ScenarioError(source: path, issues: [ScenarioIssue(path: "", message: "cannot read the file: \(message)")])
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw fail("it does not exist") }
        guard !isDirectory.boolValue else { throw fail("it is a directory") }
        let attributes = try? FileManager.default.attributesOfItem(atPath: URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
        guard let type = attributes?[.type] as? FileAttributeType, type == .typeRegular,
              let size = (attributes?[.size] as? NSNumber)?.intValue else {
            throw fail("it is not a regular file (a pipe, socket or device)")
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw fail(String(cString: strerror(errno))) }
        self.descriptor = descriptor
        count = size
        memory = []
    }

    /// Text held in memory, `name` naming it.
    init(name: String, bytes: [UInt8]) {
        self.name = name
        memory = bytes
        count = bytes.count
        descriptor = nil
    }

    /// Bytes `offset ..< offset + count` (fewer at the end of the file).
    func read(at offset: Int, count: Int) throws(ScenarioError) -> [UInt8] {
        guard let descriptor else { return Array(memory[Swift.min(offset, memory.count) ..< Swift.min(offset + count, memory.count)]) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset + filled))
            }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else {
                throw ScenarioError(source: name, issues: [ScenarioIssue(path: "", message: "cannot read the file: \(String(cString: strerror(errno)))")])
            }
            if got == 0 { break }
            filled += got
        }
        if filled < count { bytes.removeLast(count - filled) }
        return bytes
    }

    deinit {
        if let descriptor { close(descriptor) }
    }
}
