import SimKernel

/// Everything that can happen in a simulated world: the device's events, which the device
/// handles first, and the iOS model's own.
///
/// Trace kind codes: device events 101–113, system events 200–214. They are part of every
/// digest: never renumber one.
package enum WorldEvent: Sendable, Equatable {
    case device(DeviceEvent)
    case system(SystemEvent)
}

extension WorldEvent: TraceableEvent {
    package var traceKind: UInt32 {
        switch self {
        case .device(let event): event.traceKind
        case .system(let event): event.traceKind
        }
    }

    package var traceEntity: UInt64 { 0 }

    package var traceDetail: Int64 {
        switch self {
        case .device(let event): event.traceDetail
        case .system(let event): event.traceDetail
        }
    }

    package static func traceKindName(_ kind: UInt32) -> String {
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
        case 114: "restart"
        case 115: "bootComplete"
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
        case 213: "debuggerLaunch"
        case 214: "debuggerExpiration"
        default: "kind \(kind)"
        }
    }
}
