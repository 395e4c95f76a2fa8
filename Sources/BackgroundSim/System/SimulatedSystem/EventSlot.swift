import SimKernel

/// One of the system's own events that is scheduled at most once at a time: its handle and the
/// time it is due, so that asking for the same time again costs nothing and a new time moves it.
struct EventSlot {
    private(set) var handle: EventHandle?
    /// When the event is due; `nil` when none is scheduled.
    private(set) var time: SimInstant?

    var isScheduled: Bool { handle != nil }

    /// Schedules `event` at `time`, replacing one due at another time; with `time` nil, cancels it.
    mutating func set(_ event: SystemEvent, at time: SimInstant?, priority: EventPriority = .normal,
                      in simulation: inout Simulation<WorldEvent>) {
        guard time != self.time else { return }
        cancel(in: &simulation)
        self.time = time
        if let time { handle = simulation.schedule(.system(event), at: time, priority: priority) }
    }

    /// Schedules `event` at `time` if nothing is scheduled.
    mutating func setIfIdle(_ event: SystemEvent, at time: SimInstant, in simulation: inout Simulation<WorldEvent>) {
        guard handle == nil else { return }
        self.time = time
        handle = simulation.schedule(.system(event), at: time)
    }

    /// Cancels the event, if any.
    mutating func cancel(in simulation: inout Simulation<WorldEvent>) {
        if let handle { simulation.cancel(handle) }
        handle = nil
        time = nil
    }

    /// The event fired: nothing is scheduled any more.
    mutating func fired() {
        handle = nil
        time = nil
    }
}
