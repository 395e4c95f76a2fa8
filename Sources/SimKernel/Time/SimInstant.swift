/// A moment of true simulated time, in nanoseconds since the simulation started.
///
/// This is the simulation's own clock, which only moves forward. Clocks that the simulated
/// device shows to apps (and which can jump) are built on top of it elsewhere.
///
///     let launch = SimInstant.start + .hours(7)
///     print(launch)                  // "0d 07:00:00.000"
///     launch.duration(to: .start + .days(1))   // 17 hours
///
/// Adding a duration saturates: ``distantFuture`` plus anything is still ``distantFuture``.
public struct SimInstant: Sendable, Hashable, Comparable {
    /// Nanoseconds since the simulation started; negative before the start.
    public var nanosecondsSinceStart: Int64

    /// Creates the instant `nanosecondsSinceStart` nanoseconds after the simulation's start.
    @inlinable
    public init(nanosecondsSinceStart: Int64) {
        self.nanosecondsSinceStart = nanosecondsSinceStart
    }

    /// The moment the simulation starts.
    @inlinable public static var start: SimInstant { SimInstant(nanosecondsSinceStart: 0) }

    /// A moment later than any event will ever be scheduled, used for "never".
    @inlinable public static var distantFuture: SimInstant { SimInstant(nanosecondsSinceStart: .max) }

    /// The time elapsed from the start of the simulation to this instant.
    @inlinable
    public var sinceStart: SimDuration { SimDuration(nanoseconds: nanosecondsSinceStart) }

    /// The instant `duration` after this one, saturating at ``distantFuture``.
    @inlinable
    public func advanced(by duration: SimDuration) -> SimInstant {
        SimInstant(nanosecondsSinceStart: nanosecondsSinceStart.saturatingAdding(duration.nanoseconds))
    }

    /// The duration from this instant to `other`; negative if `other` is earlier.
    @inlinable
    public func duration(to other: SimInstant) -> SimDuration {
        SimDuration(nanoseconds: other.nanosecondsSinceStart.saturatingSubtracting(nanosecondsSinceStart))
    }

    @inlinable
    public static func < (lhs: SimInstant, rhs: SimInstant) -> Bool {
        lhs.nanosecondsSinceStart < rhs.nanosecondsSinceStart
    }

    @inlinable
    public static func + (lhs: SimInstant, rhs: SimDuration) -> SimInstant {
        lhs.advanced(by: rhs)
    }

    @inlinable
    public static func - (lhs: SimInstant, rhs: SimDuration) -> SimInstant {
        lhs.advanced(by: -rhs)
    }

    @inlinable
    public static func - (lhs: SimInstant, rhs: SimInstant) -> SimDuration {
        rhs.duration(to: lhs)
    }

    @inlinable
    public static func += (lhs: inout SimInstant, rhs: SimDuration) {
        lhs = lhs.advanced(by: rhs)
    }
}
