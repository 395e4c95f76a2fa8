import BackgroundSim
import CommandLineSupport
import SimKernel

/// Writes a run's trace to its file as JSON lines while the run goes: one object per fired
/// event (`"source":"event"`) and one per iOS-model transition (`"source":"system"`), in the
/// order they happened. Lines are written in blocks of 64 KiB to a temporary file renamed over
/// the path by ``commit()``, so memory stays flat however long the run, and the path is never
/// half-written.
///
///     {"t":"0d 07:03:12.417","ns":25392417000000,"source":"event","event":"appOpen","detail":0}
///     {"t":"0d 07:03:12.417","ns":25392417000000,"source":"system","event":"launch","reason":"user"}
final class TraceWriter {
    private let file: Output.AtomicFileWriter
    private var buffer = ""
    /// The first write that failed; the run goes on and ``commit()`` reports it.
    private var failure: UsageError?
    /// The block size written at once.
    static let blockBytes = 1 << 16

    /// Opens the trace file's temporary file beside `path`.
    init(path: String) throws(UsageError) {
        file = try Output.AtomicFileWriter(path: path)
        buffer.reserveCapacity(Self.blockBytes + 1_024)
    }

    func event(_ record: TraceRecord) {
        append(JSONWriter.compact(.object([
            ("t", .string(record.time.description)),
            ("ns", .number(Double(record.time.nanosecondsSinceStart))),
            ("source", .string("event")),
            ("event", .string(WorldEvent.traceKindName(record.kind))),
            ("detail", .number(Double(record.detail))),
        ])))
    }

    func system(_ entry: SystemLogEntry) {
        append(JSONWriter.compact(entry.traceObject))
    }

    private func append(_ line: String) {
        buffer += line
        buffer += "\n"
        if buffer.utf8.count >= Self.blockBytes { flush() }
    }

    private func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil, !buffer.isEmpty else { return }
        do { try file.write(buffer) } catch { failure = error }
    }

    /// Writes what is left and puts the file in place.
    func commit() throws(UsageError) {
        flush()
        if let failure { throw failure }
        try file.commit()
    }
}
