/// The iOS model's own events: its evaluations, deadlines and timers. Their trace codes (200–212)
/// are part of every digest: never renumber one.
package enum SystemEvent: Sendable, Equatable {
    /// The system considers launching pending background tasks.
    case launchEvaluation
    /// A background task's time is up.
    case taskExpiration(serial: UInt32)
    /// An expired task's grace period for `setTaskCompleted` ends.
    case taskGraceEnd(serial: UInt32)
    /// Shortly before the assertion budget ends: expiration handlers run.
    case assertionWarning
    /// The assertion budget ends: an app still holding an assertion is killed.
    case assertionDeadline
    /// An app timer comes due.
    case appTimer(id: UInt32)
    /// The system terminates the suspended app to reclaim memory.
    case jetsam
    /// The CPU monitor checks a processing task's sustained CPU use.
    case cpuMonitorCheck
    /// The app's work executor finishes the items in hand, or its run ends.
    case workCheck
    /// The radio's promotion or tail ends.
    case radioPhase
    /// The fixed CPU cost of a background launch or resume ends.
    case launchOverheadEnd
    /// A jetsam fault (``FaultPlan/jetsams``): the system reclaims the app's memory.
    case faultJetsam
    /// A fault window of the system's ends (Background App Refresh back on): pending requests
    /// are considered again.
    case faultWindowEnd
    /// The scenario's `debugger.simulateLaunch[index]` command.
    case debuggerLaunch(index: UInt32)
    /// The scenario's `debugger.simulateExpiration[index]` command.
    case debuggerExpiration(index: UInt32)

    /// The event's trace code.
    var traceKind: UInt32 {
        switch self {
        case .launchEvaluation: 200
        case .taskExpiration: 201
        case .taskGraceEnd: 202
        case .assertionWarning: 203
        case .assertionDeadline: 204
        case .appTimer: 205
        case .jetsam: 206
        case .cpuMonitorCheck: 207
        case .workCheck: 208
        case .radioPhase: 209
        case .launchOverheadEnd: 210
        case .faultJetsam: 211
        case .faultWindowEnd: 212
        case .debuggerLaunch: 213
        case .debuggerExpiration: 214
        }
    }

    /// The event's detail in traces.
    var traceDetail: Int64 {
        switch self {
        case .taskExpiration(let serial), .taskGraceEnd(let serial): Int64(serial)
        case .appTimer(let id): Int64(id)
        case .debuggerLaunch(let index), .debuggerExpiration(let index): Int64(index)
        case .launchEvaluation, .assertionWarning, .assertionDeadline, .jetsam, .cpuMonitorCheck, .workCheck, .radioPhase,
             .launchOverheadEnd, .faultJetsam, .faultWindowEnd: 0
        }
    }
}
