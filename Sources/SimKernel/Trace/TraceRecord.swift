/// What the trace sees of one fired event: when, what kind, which entity, and one detail value.
///
/// A trace record is the event's canonical form: the simulation's digest is computed over these
/// records, so two runs with equal records in equal order have equal digests, whatever Swift types
/// the events were.
public struct TraceRecord: Sendable, Hashable {
    /// When the event fired.
    public var time: SimInstant
    /// A stable code for the event's kind (see ``TraceableEvent/traceKind``).
    public var kind: UInt32
    /// Which entity the event concerns (a device, a timer, a task), as the model numbers them.
    public var entity: UInt64
    /// One kind-specific value (a byte count, a state, a reason code), or 0.
    public var detail: Int64

    /// Creates a trace record.
    @inlinable
    public init(time: SimInstant, kind: UInt32, entity: UInt64, detail: Int64) {
        self.time = time
        self.kind = kind
        self.entity = entity
        self.detail = detail
    }
}

/// An event type that can describe its instances to the trace and the digest.
///
/// Conformances are usually a `switch` over an enum's cases. The kind codes are part of every
/// trace digest, so once published they must never be renumbered.
///
///     enum TimerEvent: TraceableEvent {
///         case fire(timer: UInt32)
///
///         var traceKind: UInt32 { 1 }
///         var traceEntity: UInt64 { if case .fire(let t) = self { UInt64(t) } else { 0 } }
///         var traceDetail: Int64 { 0 }
///         static func traceKindName(_ kind: UInt32) -> String { "fire" }
///     }
public protocol TraceableEvent {
    /// A stable code for this event's kind. Never renumber a published code.
    var traceKind: UInt32 { get }

    /// The entity this event concerns, as the model numbers them; 0 if none.
    var traceEntity: UInt64 { get }

    /// A kind-specific detail value; 0 if none.
    var traceDetail: Int64 { get }

    /// A short human-readable name for a kind code, for trace files and messages.
    static func traceKindName(_ kind: UInt32) -> String
}

extension TraceableEvent {
    /// `"kind N"`; conforming types usually provide real names.
    public static func traceKindName(_ kind: UInt32) -> String { "kind \(kind)" }
}
