/// What happens to the simulated phone on its own timelines: the user, the charger, the network,
/// the battery, the clock, and the device's faults.
///
/// Invariants see each one with the world after it (``Invariant``); the iOS model reacts to those
/// that concern it. Their trace codes (101–115) are part of every digest: never renumber one.
public enum DeviceEvent: Sendable, Equatable {
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
    /// The phone shuts down to restart (``RestartParameters``): to install an iOS update, or
    /// after days without an unlock.
    case restart(RestartReason)
    /// The phone is back on after a restart, locked until the user first unlocks it.
    case bootComplete

    /// Why the phone restarts.
    public enum RestartReason: UInt8, Sendable {
        /// An iOS update installs overnight.
        case update = 0
        /// The inactivity reboot: no unlock for ``RestartParameters/inactivityRebootHours``.
        case inactivity = 1
    }

    /// Why the network changes.
    public enum NetworkChange: UInt8, Sendable {
        case leaveHome = 0
        case returnHome = 1
        case awaySegment = 2
        /// Evening on a day spent at home: the night's home network takes over.
        case homeEvening = 3
    }

    /// The event's kind: its trace code and name.
    package var kind: Kind {
        switch self {
        case .dayStart: .dayStart
        case .sessionStart: .sessionStart
        case .sessionEnd: .sessionEnd
        case .appOpen: .appOpen
        case .appClose: .appClose
        case .plugIn: .plugIn
        case .unplug: .unplug
        case .optimizedChargingResume: .optimizedChargingResume
        case .networkChange: .networkChange
        case .batteryLevel: .batteryLevel
        case .clockJump: .clockJump
        case .networkFlap: .networkFlap
        case .batteryDeath: .batteryDeath
        case .restart: .restart
        case .bootComplete: .bootComplete
        }
    }

    /// The event's trace code.
    var traceKind: UInt32 { kind.rawValue }

    /// Each event's kind, with its trace code (101–115, part of every digest: never renumber
    /// one). The name in traces and docs is the case's (`"sessionStart"`): declared once, here.
    package enum Kind: UInt32, CaseIterable, Sendable {
        case dayStart = 101
        case sessionStart = 102
        case sessionEnd = 103
        case appOpen = 104
        case appClose = 105
        case plugIn = 106
        case unplug = 107
        case optimizedChargingResume = 108
        case networkChange = 109
        case batteryLevel = 110
        case clockJump = 111
        case networkFlap = 112
        case batteryDeath = 113
        case restart = 114
        case bootComplete = 115

        /// The kind's name in traces.
        package var name: String { String(describing: self) }
    }

    /// The event's detail in traces.
    var traceDetail: Int64 {
        switch self {
        case .dayStart(let day): Int64(day)
        case .appClose(let forceQuit): forceQuit ? 1 : 0
        case .plugIn(let overnight): overnight ? 1 : 0
        case .networkChange(let change): Int64(change.rawValue)
        case .batteryLevel(let hundredths): Int64(hundredths)
        case .clockJump(let seconds): seconds
        case .networkFlap(let fault, let offline): Int64(fault) * 2 + (offline ? 1 : 0)
        case .restart(let reason): Int64(reason.rawValue)
        case .sessionStart, .sessionEnd, .appOpen, .unplug, .optimizedChargingResume, .batteryDeath, .bootComplete: 0
        }
    }

    /// The event's name in traces (`"sessionStart"`).
    public var name: String { kind.name }
}
