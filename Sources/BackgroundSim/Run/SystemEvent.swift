/// The iOS model's own events: its evaluations, deadlines and timers. Their trace codes (200–222)
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
    /// A continued-processing request starts: a slot is free.
    case continuedProcessingStart
    /// Continued-processing tasks made no progress for the timeout.
    case continuedProcessingStall
    /// The user cancels the continued-processing task `serial`.
    case continuedProcessingCancel(serial: UInt32)
    /// The system launches or resumes the app for background URL sessions' events.
    case sessionRelaunch
    /// The app's time to handle background URL sessions' events ends.
    case sessionEventsEnd
    /// The app's server sends a silent push.
    case pushSend
    /// The system tries again to deliver the held push.
    case pushDeliveryAttempt
    /// The time a delivered push gave the app ends.
    case pushRunEnd

    /// The event's kind: its trace code and name.
    package var kind: Kind {
        switch self {
        case .launchEvaluation: .launchEvaluation
        case .taskExpiration: .taskExpiration
        case .taskGraceEnd: .taskGraceEnd
        case .assertionWarning: .assertionWarning
        case .assertionDeadline: .assertionDeadline
        case .appTimer: .appTimer
        case .jetsam: .jetsam
        case .cpuMonitorCheck: .cpuMonitorCheck
        case .workCheck: .workCheck
        case .radioPhase: .radioPhase
        case .launchOverheadEnd: .launchOverheadEnd
        case .faultJetsam: .faultJetsam
        case .faultWindowEnd: .faultWindowEnd
        case .debuggerLaunch: .debuggerLaunch
        case .debuggerExpiration: .debuggerExpiration
        case .continuedProcessingStart: .continuedProcessingStart
        case .continuedProcessingStall: .continuedProcessingStall
        case .continuedProcessingCancel: .continuedProcessingCancel
        case .sessionRelaunch: .sessionRelaunch
        case .sessionEventsEnd: .sessionEventsEnd
        case .pushSend: .pushSend
        case .pushDeliveryAttempt: .pushDeliveryAttempt
        case .pushRunEnd: .pushRunEnd
        }
    }

    /// The event's trace code.
    var traceKind: UInt32 { kind.rawValue }

    /// Each event's kind, with its trace code (200–222, part of every digest: never renumber
    /// one). The name in traces and docs is the case's (`"pushSend"`): declared once, here.
    package enum Kind: UInt32, CaseIterable, Sendable {
        case launchEvaluation = 200
        case taskExpiration = 201
        case taskGraceEnd = 202
        case assertionWarning = 203
        case assertionDeadline = 204
        case appTimer = 205
        case jetsam = 206
        case cpuMonitorCheck = 207
        case workCheck = 208
        case radioPhase = 209
        case launchOverheadEnd = 210
        case faultJetsam = 211
        case faultWindowEnd = 212
        case debuggerLaunch = 213
        case debuggerExpiration = 214
        case continuedProcessingStart = 215
        case continuedProcessingStall = 216
        case continuedProcessingCancel = 217
        case sessionRelaunch = 218
        case sessionEventsEnd = 219
        case pushSend = 220
        case pushDeliveryAttempt = 221
        case pushRunEnd = 222

        /// The kind's name in traces.
        package var name: String { String(describing: self) }
    }

    /// The event's detail in traces.
    var traceDetail: Int64 {
        switch self {
        case .taskExpiration(let serial), .taskGraceEnd(let serial), .continuedProcessingCancel(let serial): Int64(serial)
        case .appTimer(let id): Int64(id)
        case .debuggerLaunch(let index), .debuggerExpiration(let index): Int64(index)
        case .launchEvaluation, .assertionWarning, .assertionDeadline, .jetsam, .cpuMonitorCheck, .workCheck, .radioPhase,
             .launchOverheadEnd, .faultJetsam, .faultWindowEnd, .continuedProcessingStart, .continuedProcessingStall,
             .sessionRelaunch, .sessionEventsEnd, .pushSend, .pushDeliveryAttempt, .pushRunEnd: 0
        }
    }
}
