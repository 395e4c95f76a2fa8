/// Bounds on a run, so that a runaway model stops with a readable error instead of hanging.
///
/// "Put a limit on everything": the defaults are far above what a legitimate simulation reaches
/// and far below what it takes to hang a machine.
public struct RunLimits: Sendable, Hashable {
    /// The most events a simulation may fire over its whole life.
    ///
    /// Default 10,000,000,000: a 100,000-day device run fires well under 10⁸.
    public var maxEvents: UInt64

    /// The most events that may fire at one instant without the clock advancing.
    ///
    /// A handler that reschedules its own event with zero delay would fire forever at one
    /// instant; this bound catches it. Default 1,000,000.
    public var maxEventsPerInstant: Int

    /// Creates run limits.
    public init(maxEvents: UInt64 = 10_000_000_000, maxEventsPerInstant: Int = 1_000_000) {
        precondition(maxEvents > 0 && maxEventsPerInstant > 0, "RunLimits: limits must be positive")
        self.maxEvents = maxEvents
        self.maxEventsPerInstant = maxEventsPerInstant
    }
}
