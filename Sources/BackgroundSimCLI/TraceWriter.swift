import BackgroundSim
import SimKernel

/// Collects a run's trace as JSON lines: one object per fired event (`"source":"event"`) and one
/// per iOS-model transition (`"source":"system"`), in the order they happened.
///
///     {"t":"0d 07:03:12.417","ns":25392417000000,"source":"event","event":"appOpen","detail":0}
///     {"t":"0d 07:03:12.417","ns":25392417000000,"source":"system","event":"launch","reason":"user"}
final class TraceWriter {
    private var lines: [String] = []

    func event(_ record: TraceRecord) {
        lines.append(JSONWriter.compact(.object([
            ("t", .string(record.time.description)),
            ("ns", .number(Double(record.time.nanosecondsSinceStart))),
            ("source", .string("event")),
            ("event", .string(WorldEvent.traceKindName(record.kind))),
            ("detail", .number(Double(record.detail))),
        ])))
    }

    func system(_ entry: SystemLogEntry) {
        lines.append(JSONWriter.compact(entry.traceObject))
    }

    var text: String { lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n") }
}
