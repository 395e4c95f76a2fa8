import BackgroundSim
import Foundation

/// Where one run of consecutive lines of a device is, in a field log's files, and the times its
/// records give, for the log's end (``FieldLogReader/logEnd``).
struct LineRun: Sendable {
    var file: Int
    /// Its first line's first byte, and the byte after its last line's line feed.
    var start: Int
    var end: Int
    /// Its first line's number, from 1.
    var firstLine: Int
    /// Its first line's time, its earliest, and its latest instant (``LocalTimestamp/instantMilliseconds``).
    var first: LocalTimestamp
    var earliest: LocalTimestamp
    var latestInstantMilliseconds: Int64

    /// A run of one line, line `firstLine` of file `file`, in bytes `start ..< end`, whose
    /// record's time is `first`.
    init(file: Int, start: Int, end: Int, firstLine: Int, first: LocalTimestamp) {
        self.file = file
        self.start = start
        self.end = end
        self.firstLine = firstLine
        self.first = first
        earliest = first
        latestInstantMilliseconds = first.instantMilliseconds
    }

    /// Whether its times give an offset from UTC (all a device's do, or none).
    var givesOffset: Bool { first.utcOffsetMinutes != nil }

    /// The run extended by the next line, ending at byte `end`, whose record's time is `time`.
    mutating func extend(to end: Int, time: LocalTimestamp) {
        self.end = end
        earliest = Swift.min(earliest, time)
        latestInstantMilliseconds = Swift.max(latestInstantMilliseconds, time.instantMilliseconds)
    }

    /// Its latest record's time on the clock of its earliest (``FieldLogReader/onFirstClock(_:)``),
    /// in milliseconds from the epoch's local midnight.
    var localEndMilliseconds: Int64 { latestInstantMilliseconds + Int64(earliest.utcOffsetMinutes ?? 0) * 60_000 }
}

/// The index of a field log whose devices do not come in order: every run of consecutive lines
/// of one device (``LineRun``), taken back device by device in order of their identifiers — an
/// external merge sort, so that memory holds at most ``notesInMemory`` notes whatever the log's
/// size.
///
/// Notes are gathered in memory; each time ``notesInMemory`` are, they are sorted by device,
/// file and first byte and written to a temporary file as one sorted chunk. Reading them back
/// merges the chunks, a buffer of ``bufferBytes`` each. The temporary file is removed as soon as
/// it is created (it lives while it is open), so nothing is left behind by a run that is killed.
final class FieldLogRunIndex {
    /// The notes held before they are written out as a sorted chunk: about 12 MB of them.
    static let notesInMemory = 1 << 17
    /// The bytes read from a chunk at a time while merging (a log of 100 million runs of lines
    /// has 763 chunks: 24 MB of buffers), and written at a time.
    static let bufferBytes = 1 << 15

    private let notesInMemory: Int
    private var notes: [(device: String, run: LineRun)] = []
    /// Whether the notes have been read back: none may be added after.
    private var isRead = false
    /// The chunks written so far: their byte ranges in `spill`.
    private var chunks: [Range<Int>] = []
    private var spill: Int32?
    private var spillBytes = 0
    /// The notes added, in all.
    private(set) var count = 0

    /// An empty index keeping at most `notesInMemory` notes in memory.
    init(notesInMemory: Int = FieldLogRunIndex.notesInMemory) {
        precondition(notesInMemory > 0, "FieldLogRunIndex: notesInMemory must be positive")
        self.notesInMemory = notesInMemory
    }

    deinit {
        if let spill { close(spill) }
    }

    /// Notes a run of lines of `device`.
    func append(_ device: String, _ run: LineRun) throws(ScenarioError) {
        precondition(!isRead, "FieldLogRunIndex: a note added after the index was read")
        notes.append((device, run))
        count += 1
        if notes.count >= notesInMemory { try writeChunk() }
    }

    /// Calls `body` with each device's runs, devices in order of their identifiers, each
    /// device's runs in order of file and first byte (the order of their lines). May be called
    /// again; no note may be added after the first call.
    func forEachDevice(_ body: (String, [LineRun]) throws(ScenarioError) -> Void) throws(ScenarioError) {
        defer { isRead = true }
        if chunks.isEmpty {
            // Everything fits in memory: sort it there (once).
            if !isRead { notes.sort(by: Self.precedes) }
            var start = 0
            for index in notes.indices where index == notes.count - 1 || notes[index + 1].device != notes[index].device {
                try body(notes[index].device, notes[start...index].map(\.run))
                start = index + 1
            }
            return
        }
        if !notes.isEmpty { try writeChunk() }
        var cursors: [ChunkCursor] = []
        for chunk in chunks {
            let cursor = ChunkCursor(descriptor: spill!, range: chunk)
            try cursor.advance()
            cursors.append(cursor)
        }
        // A binary heap of the cursors with a note, least note first.
        var heap = cursors.filter { $0.head != nil }
        func less(_ a: ChunkCursor, _ b: ChunkCursor) -> Bool { Self.precedes(a.head!, b.head!) }
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1, right = left + 1
                var least = parent
                if left < heap.count && less(heap[left], heap[least]) { least = left }
                if right < heap.count && less(heap[right], heap[least]) { least = right }
                if least == parent { return }
                heap.swapAt(parent, least)
                parent = least
            }
        }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        var device: String?
        var runs: [LineRun] = []
        while let top = heap.first, let note = top.head {
            if note.device != device {
                if let device { try body(device, runs) }
                device = note.device
                runs.removeAll(keepingCapacity: true)
            }
            runs.append(note.run)
            try top.advance()
            if top.head == nil {
                heap.swapAt(0, heap.count - 1)
                heap.removeLast()
            }
            siftDown(0)
        }
        if let device { try body(device, runs) }
    }

    /// Whether note `a` comes before note `b`: by device, then file, then first byte.
    private static func precedes(_ a: (device: String, run: LineRun), _ b: (device: String, run: LineRun)) -> Bool {
        if a.device != b.device { return a.device < b.device }
        return (a.run.file, a.run.start) < (b.run.file, b.run.start)
    }

    // MARK: The temporary file

    /// Sorts the notes in memory and appends them to the temporary file as one chunk.
    private func writeChunk() throws(ScenarioError) {
        let descriptor = try spillFile()
        notes.sort(by: Self.precedes)
        let chunkStart = spillBytes
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.bufferBytes + 1_024)
        func flush() throws(ScenarioError) {
            var written = 0
            while written < bytes.count {
                let result = bytes.withUnsafeBytes { buffer in
                    pwrite(descriptor, buffer.baseAddress! + written, bytes.count - written, off_t(spillBytes + written))
                }
                guard result > 0 else { throw Self.failure("cannot write the index of the log's devices to a temporary file: \(String(cString: strerror(errno)))") }
                written += result
            }
            spillBytes += bytes.count
            bytes.removeAll(keepingCapacity: true)
        }
        for (device, run) in notes {
            Self.encode(device, run, into: &bytes)
            if bytes.count >= Self.bufferBytes { try flush() }
        }
        try flush()
        chunks.append(chunkStart ..< spillBytes)
        notes.removeAll(keepingCapacity: true)
    }

    /// The temporary file, created on first use in the system's temporary directory and removed
    /// from it at once.
    private func spillFile() throws(ScenarioError) -> Int32 {
        if let spill { return spill }
        var template = Array((FileManager.default.temporaryDirectory.path + "/bgsim-fieldlog-index.XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw Self.failure("cannot create a temporary file for the index of the log's devices: \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        spill = descriptor
        return descriptor
    }

    private static func failure(_ message: String) -> ScenarioError {
        ScenarioError(source: FileManager.default.temporaryDirectory.path, issues: [ScenarioIssue(path: "", message: message)])
    }

    /// A note as bytes: the device's UTF-8 length (4 bytes) and bytes, then the run's file, first
    /// byte, end, first line, its first and earliest times (milliseconds, then the offset from UTC
    /// in minutes or ``noOffset``) and its latest instant, little-endian.
    private static func encode(_ device: String, _ run: LineRun, into bytes: inout [UInt8]) {
        func put<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        let utf8 = Array(device.utf8)
        put(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
        put(Int64(run.file))
        put(Int64(run.start))
        put(Int64(run.end))
        put(Int64(run.firstLine))
        for time in [run.first, run.earliest] {
            put(time.milliseconds)
            put(time.utcOffsetMinutes ?? noOffset)
        }
        put(run.latestInstantMilliseconds)
    }

    /// What stands for a time with no offset from UTC: beyond any offset a time may have.
    private static let noOffset = Int16.min

    /// The bytes of a note after its device's.
    private static let runBytes = 4 * 8 + 2 * (8 + 2) + 8

    /// Reads one chunk's notes in order, a buffer at a time.
    private final class ChunkCursor {
        let descriptor: Int32
        var next: Int
        let end: Int
        var buffer: [UInt8] = []
        var position = 0
        /// The note read last; `nil` once the chunk is read.
        var head: (device: String, run: LineRun)?

        init(descriptor: Int32, range: Range<Int>) {
            self.descriptor = descriptor
            next = range.lowerBound
            end = range.upperBound
        }

        /// Reads the next note into ``head``.
        func advance() throws(ScenarioError) {
            guard try ensure(4) else {
                head = nil
                return
            }
            let length = Int(take(UInt32.self))
            guard try ensure(length + FieldLogRunIndex.runBytes) else { throw FieldLogRunIndex.failure("the index of the log's devices in the temporary file is cut short") }
            let device = String(decoding: buffer[position ..< position + length], as: UTF8.self)
            position += length
            let file = Int(take(Int64.self)), start = Int(take(Int64.self)), runEnd = Int(take(Int64.self)), firstLine = Int(take(Int64.self))
            let times = (0..<2).map { _ in
                let milliseconds = take(Int64.self), offset = take(Int16.self)
                return LocalTimestamp(milliseconds: milliseconds, utcOffsetMinutes: offset == FieldLogRunIndex.noOffset ? nil : offset)
            }
            var run = LineRun(file: file, start: start, end: runEnd, firstLine: firstLine, first: times[0])
            run.earliest = times[1]
            run.latestInstantMilliseconds = take(Int64.self)
            head = (device, run)
        }

        private func take<T: FixedWidthInteger>(_: T.Type) -> T {
            var value: T = 0
            withUnsafeMutableBytes(of: &value) { target in
                for index in 0..<MemoryLayout<T>.size { target[index] = buffer[position + index] }
            }
            position += MemoryLayout<T>.size
            return T(littleEndian: value)
        }

        /// Makes `count` bytes available from ``position``, reading more of the chunk if needed;
        /// `false` when the chunk has none left.
        private func ensure(_ count: Int) throws(ScenarioError) -> Bool {
            if buffer.count - position >= count { return true }
            buffer.removeSubrange(0..<position)
            position = 0
            let wanted = Swift.min(Swift.max(count - buffer.count, FieldLogRunIndex.bufferBytes), end - next)
            guard wanted > 0 else { return false }
            let old = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: wanted))
            var filled = 0
            while filled < wanted {
                let got = buffer.withUnsafeMutableBytes { target in
                    pread(descriptor, target.baseAddress! + old + filled, wanted - filled, off_t(next + filled))
                }
                guard got > 0 else { throw FieldLogRunIndex.failure("cannot read back the index of the log's devices: \(String(cString: strerror(errno)))") }
                filled += got
            }
            next += wanted
            return buffer.count - position >= count
        }
    }
}
