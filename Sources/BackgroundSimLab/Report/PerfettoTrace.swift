import BackgroundSim
import SimKernel

/// Builds a Chrome trace-event file (it opens in Perfetto and chrome://tracing) of one run, with
/// a track each for the screen, the app's state, its tasks, its assertions, its work, the
/// network, the charger, the system's launch decisions and the other doors (URL session events,
/// silent pushes, continued-processing queueing), and a battery-level counter.
///
/// Spans are "complete" events (`ph: X`) closed when the state they show changes; instants
/// (`ph: i`) mark kills, crashes, expirations, every launch decision (named `launched` or by
/// the reason the request waited) and the debugger's simulated launches and expirations. Times are microseconds since the start.
package final class PerfettoTrace {
    /// The tracks, in display order.
    enum Track: Int, CaseIterable {
        case screen = 1, appState, tasks, assertions, work, network, charging, launchDecisions, doors

        var name: String {
            switch self {
            case .screen: "Screen"
            case .appState: "App state"
            case .tasks: "Background tasks"
            case .assertions: "Background-task assertions"
            case .work: "Work executor"
            case .network: "Network"
            case .charging: "Charger"
            case .launchDecisions: "Launch decisions"
            case .doors: "URL sessions, pushes, continued processing"
            }
        }
    }

    private var events: [JSONValue] = []
    /// The open span of each state track: its name and start.
    private var open: [Track: (name: String, since: SimInstant, args: [(String, JSONValue)])] = [:]
    /// Running tasks by serial: their identifier and start.
    private var openTasks: [UInt32: (identifier: String, since: SimInstant)] = [:]
    private var openAssertions: [Int: SimInstant] = [:]
    private var lastBatteryPercent = -1.0

    package init() {}

    static func microseconds(_ instant: SimInstant) -> Double { Double(instant.nanosecondsSinceStart) / 1_000 }

    /// Records the state after an event.
    package func observe(at now: SimInstant, device: Device, system: SimulatedSystem) {
        setState(.screen, device.isScreenOn ? "screen on" : nil, at: now)
        let state: String? = switch system.processState {
        case .foreground: "foreground"
        case .background: "background running"
        case .suspended: "suspended"
        case .notRunning: nil
        }
        setState(.appState, state, at: now)
        setState(.work, system.work.isProgressing ? "working" : nil, at: now)
        let network = device.network
        let networkName: String? = switch network.interface {
        case .wifi: "Wi-Fi"
        case .cellular: network.technology == .fiveG ? "5G" : "LTE"
        case .none: "no service"
        }
        let signal: String = switch network.signal {
        case .good: "good"
        case .medium: "medium"
        case .poor: "poor"
        }
        setState(.network, networkName, at: now, args: [("signal", .string(signal)), ("constrained", .bool(network.isConstrained))])
        setState(.charging, device.isPluggedIn ? "on the charger" : nil, at: now)
        let percent = (device.battery.percent * 10).rounded() / 10
        if percent != lastBatteryPercent {
            lastBatteryPercent = percent
            events.append(.object([
                ("name", .string("Battery %")), ("ph", .string("C")), ("ts", .number(Self.microseconds(now))),
                ("pid", .number(1)), ("args", .object([("percent", .number(percent))])),
            ]))
        }
    }

    /// Records a system log entry: task and assertion spans, and instants for kills and crashes.
    package func record(_ entry: SystemLogEntry) {
        let event = entry.event
        switch event {
        case .taskLaunch(let identifier, _, let serial, _):
            openTasks[serial] = (identifier, entry.time)
        case .taskCompleted(_, let serial, let success):
            if let task = openTasks.removeValue(forKey: serial) {
                span(.tasks, task.identifier, from: task.since, to: entry.time, args: [("success", .bool(success))])
            }
        case .beginBackgroundTask(let id, _):
            openAssertions[id.rawValue] = entry.time
        case .endBackgroundTask(let id):
            if let since = openAssertions.removeValue(forKey: id.rawValue) {
                span(.assertions, "assertion \(id.rawValue)", from: since, to: entry.time)
            }
        case .terminate:
            for (_, task) in openTasks.sorted(by: { $0.key < $1.key }) {
                span(.tasks, task.identifier, from: task.since, to: entry.time, args: [("endedBy", .string("termination"))])
            }
            openTasks.removeAll()
            for (id, since) in openAssertions.sorted(by: { $0.key < $1.key }) {
                span(.assertions, "assertion \(id)", from: since, to: entry.time, args: [("endedBy", .string("termination"))])
            }
            openAssertions.removeAll()
            instant(.appState, "terminated", at: entry.time, args: event.traceFields)
        case .kill, .crash:
            instant(.appState, event.kind.rawValue, at: entry.time, args: event.traceFields)
        case .taskExpire, .taskActionCancelled:
            instant(.tasks, event.kind.rawValue, at: entry.time, args: event.traceFields)
        case .backgroundTaskExpiring:
            instant(.assertions, event.kind.rawValue, at: entry.time, args: event.traceFields)
        case .launchDecision(let identifier, let kind, let decision):
            let name = switch decision {
            case .launched: "launched"
            case .notLaunched(let denial): denial.rawValue
            }
            instant(.launchDecisions, name, at: entry.time, args: [("identifier", .string(identifier)), ("kind", .string(kind.name))])
        case .simulatedLaunch, .simulatedExpiration:
            // The debugger's commands, with what they did (`done`, or why not).
            instant(.launchDecisions, event.kind.rawValue, at: entry.time, args: event.traceFields)
        case .sessionTransfersCreated, .sessionTransfersCancelled, .sessionEventsPending, .sessionRelaunchDeferred, .handleSessionEvents,
             .sessionCompletionHandlerNotCalled, .pushReceived, .pushCoalesced, .pushDiscarded, .pushDeferred, .pushDelivered,
             .continuedProcessingQueued, .continuedProcessingQueueCancelled:
            instant(.doors, event.kind.rawValue, at: entry.time, args: event.traceFields)
        default:
            break
        }
    }

    private func setState(_ track: Track, _ name: String?, at now: SimInstant, args: [(String, JSONValue)] = []) {
        if let current = open[track] {
            guard current.name != name else { return }
            span(track, current.name, from: current.since, to: now, args: current.args)
            open[track] = nil
        }
        if let name { open[track] = (name, now, args) }
    }

    private func span(_ track: Track, _ name: String, from start: SimInstant, to end: SimInstant, args: [(String, JSONValue)] = []) {
        events.append(.object([
            ("name", .string(name)), ("ph", .string("X")), ("ts", .number(Self.microseconds(start))),
            ("dur", .number(Self.microseconds(end) - Self.microseconds(start))),
            ("pid", .number(1)), ("tid", .number(Double(track.rawValue))), ("args", .object(args)),
        ]))
    }

    private func instant(_ track: Track, _ name: String, at time: SimInstant, args: [(String, JSONValue)]) {
        events.append(.object([
            ("name", .string(name)), ("ph", .string("i")), ("s", .string("t")), ("ts", .number(Self.microseconds(time))),
            ("pid", .number(1)), ("tid", .number(Double(track.rawValue))), ("args", .object(args)),
        ]))
    }

    /// Closes the open spans at `end` and returns the trace document.
    package func finish(at end: SimInstant, title: String) -> JSONValue {
        for track in Track.allCases { setState(track, nil, at: end) }
        for (_, task) in openTasks.sorted(by: { $0.key < $1.key }) { span(.tasks, task.identifier, from: task.since, to: end) }
        for (id, since) in openAssertions.sorted(by: { $0.key < $1.key }) { span(.assertions, "assertion \(id)", from: since, to: end) }
        openTasks.removeAll()
        openAssertions.removeAll()
        var metadata: [JSONValue] = [.object([
            ("name", .string("process_name")), ("ph", .string("M")), ("pid", .number(1)),
            ("args", .object([("name", .string(title))])),
        ])]
        for track in Track.allCases {
            metadata.append(.object([
                ("name", .string("thread_name")), ("ph", .string("M")), ("pid", .number(1)), ("tid", .number(Double(track.rawValue))),
                ("args", .object([("name", .string(track.name))])),
            ]))
            metadata.append(.object([
                ("name", .string("thread_sort_index")), ("ph", .string("M")), ("pid", .number(1)), ("tid", .number(Double(track.rawValue))),
                ("args", .object([("sort_index", .number(Double(track.rawValue)))])),
            ]))
        }
        return .object([("traceEvents", .array(metadata + events)), ("displayTimeUnit", .string("ms"))])
    }
}
