import SimKernel

/// Everything that can happen in a simulated world.
///
/// Device events (trace codes 100–199) come from the device's own timelines: the user, the
/// charger, the network, the battery, the clock. The iOS model and the app add their own cases in
/// later ranges (200–, 300–). Trace kind codes are part of every digest: never renumber one.
public enum WorldEvent: Sendable, Equatable {
    /// Local midnight: the device plans the new day's charging, network and clock jumps.
    case dayStart(day: Int32)
    /// The user picks up the phone (a phone session starts).
    case sessionStart
    /// The user puts the phone down.
    case sessionEnd
    /// The user opens the app (at the start of a phone session).
    case appOpen
    /// The app leaves the foreground; `forceQuit` if the user swipes it away in the app switcher.
    case appClose(forceQuit: Bool)
    /// The phone is plugged in.
    case plugIn(overnight: Bool)
    /// The phone is unplugged.
    case unplug
    /// Optimized Battery Charging resumes charging past 80 % before the expected unplug.
    case optimizedChargingResume
    /// The phone changes network (leaving home, returning, or a new segment while away).
    case networkChange(NetworkChange)
    /// The battery reaches a level at which something happens, in hundredths of a percent: a Low
    /// Power Mode prompt (20 %, 10 %), empty (0 %), a change of charging phase (50 %, 80 %), the
    /// charge target, or the level at which a flat phone turns back on.
    case batteryLevel(hundredths: Int16)
    /// The device's displayed clock jumps by `seconds`.
    case clockJump(seconds: Int64)
    /// A network-flap fault (``FaultPlan/networkFlaps``, by index) turns the network off or back on.
    case networkFlap(fault: UInt16, offline: Bool)
    /// A battery-death fault (``FaultPlan/batteryDeaths``): the battery empties at once.
    case batteryDeath

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

    /// Why the network changes.
    public enum NetworkChange: UInt8, Sendable {
        case leaveHome = 0
        case returnHome = 1
        case awaySegment = 2
        /// Evening on a day spent at home: the night's home network takes over.
        case homeEvening = 3
    }
}

extension WorldEvent: TraceableEvent {
    public var traceKind: UInt32 {
        switch self {
        case .dayStart: 101
        case .sessionStart: 102
        case .sessionEnd: 103
        case .appOpen: 104
        case .appClose: 105
        case .plugIn: 106
        case .unplug: 107
        case .optimizedChargingResume: 108
        case .networkChange: 109
        case .batteryLevel: 110
        case .clockJump: 111
        case .networkFlap: 112
        case .batteryDeath: 113
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
        }
    }

    /// Whether the iOS model, not the device, handles this event.
    var isSystemEvent: Bool { traceKind >= 200 }

    public var traceEntity: UInt64 { 0 }

    public var traceDetail: Int64 {
        switch self {
        case .dayStart(let day): Int64(day)
        case .appClose(let forceQuit): forceQuit ? 1 : 0
        case .plugIn(let overnight): overnight ? 1 : 0
        case .networkChange(let change): Int64(change.rawValue)
        case .batteryLevel(let hundredths): Int64(hundredths)
        case .clockJump(let seconds): seconds
        case .networkFlap(let fault, let offline): Int64(fault) * 2 + (offline ? 1 : 0)
        case .taskExpiration(let serial), .taskGraceEnd(let serial): Int64(serial)
        case .appTimer(let id): Int64(id)
        case .sessionStart, .sessionEnd, .appOpen, .unplug, .optimizedChargingResume,
             .launchEvaluation, .assertionWarning, .assertionDeadline, .jetsam, .cpuMonitorCheck,
             .workCheck, .radioPhase, .launchOverheadEnd, .batteryDeath, .faultJetsam, .faultWindowEnd: 0
        }
    }

    public static func traceKindName(_ kind: UInt32) -> String {
        switch kind {
        case 101: "dayStart"
        case 102: "sessionStart"
        case 103: "sessionEnd"
        case 104: "appOpen"
        case 105: "appClose"
        case 106: "plugIn"
        case 107: "unplug"
        case 108: "optimizedChargingResume"
        case 109: "networkChange"
        case 110: "batteryLevel"
        case 111: "clockJump"
        case 112: "networkFlap"
        case 113: "batteryDeath"
        case 200: "launchEvaluation"
        case 201: "taskExpiration"
        case 202: "taskGraceEnd"
        case 203: "assertionWarning"
        case 204: "assertionDeadline"
        case 205: "appTimer"
        case 206: "jetsam"
        case 207: "cpuMonitorCheck"
        case 208: "workCheck"
        case 209: "radioPhase"
        case 210: "launchOverheadEnd"
        case 211: "faultJetsam"
        case 212: "faultWindowEnd"
        default: "kind \(kind)"
        }
    }
}
