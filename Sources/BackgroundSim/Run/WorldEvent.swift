import SimKernel

/// Everything that can happen in a simulated world: the device's events, which the device
/// handles first, and the iOS model's own.
///
/// Trace kind codes: device events 101–115 (``DeviceEvent/Kind``), system events 200–222
/// (``SystemEvent/Kind``). They are part of every digest: never renumber one.
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

    /// The name of trace code `kind`: its event kind's (``DeviceEvent/Kind``,
    /// ``SystemEvent/Kind``), or `"kind N"` for a code no event has.
    package static func traceKindName(_ kind: UInt32) -> String {
        DeviceEvent.Kind(rawValue: kind)?.name ?? SystemEvent.Kind(rawValue: kind)?.name ?? "kind \(kind)"
    }
}
