/// Which of several events due at the same instant fires first: the lower value.
///
/// Events are totally ordered by `(time, priority, sequence)`, where the sequence number is
/// assigned when an event is scheduled and never reused. Two events with equal time and priority
/// therefore fire in the order they were scheduled.
///
///     simulation.schedule(.batteryThreshold, at: t, priority: .urgent)   // fires first
///     simulation.schedule(.policyTimer, at: t)                            // .normal
public struct EventPriority: Sendable, Hashable, Comparable {
    /// The priority's rank; lower ranks fire first.
    public var rawValue: UInt16

    /// Creates a priority with the given rank; lower ranks fire first.
    @inlinable
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// Fires before every other priority at the same instant.
    @inlinable public static var urgent: EventPriority { EventPriority(rawValue: 0) }

    /// The default priority.
    @inlinable public static var normal: EventPriority { EventPriority(rawValue: 0x8000) }

    /// Fires after every other priority at the same instant.
    @inlinable public static var late: EventPriority { EventPriority(rawValue: .max) }

    @inlinable
    public static func < (lhs: EventPriority, rhs: EventPriority) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
