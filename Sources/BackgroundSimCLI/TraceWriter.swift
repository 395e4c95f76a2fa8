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
    private let output: BlockWriter

    /// Opens the trace file's temporary file beside `path`.
    init(path: String) throws(UsageError) {
        output = try BlockWriter(path: path)
    }

    func event(_ record: TraceRecord) {
        output.append(JSONWriter.compact(.object([
            ("t", .string(record.time.description)),
            ("ns", .number(Double(record.time.nanosecondsSinceStart))),
            ("source", .string("event")),
            ("event", .string(WorldEvent.traceKindName(record.kind))),
            ("detail", .number(Double(record.detail))),
        ])) + "\n")
    }

    func system(_ entry: SystemLogEntry) {
        output.append(JSONWriter.compact(entry.traceObject) + "\n")
    }

    /// Writes what is left and puts the file in place.
    func commit() throws(UsageError) {
        try output.commit()
    }
}
