import SimKernel

/// The time the app has to make a call it owes the system after a wake — complete a task, call
/// a push's or a URL session's completion handler — in the process that owes it, and what
/// missing the deadline costs.
///
/// Tasks, pushes, a URL session's events and continued-processing tasks each hold one while the
/// call is owed; the system closes it when the call comes, and acts on ``miss`` when the deadline
/// passes first (``SimulatedSystem/windowMissed(_:in:)``).
struct CompletionWindow {
    /// What the system does when the deadline passes before the call.
    enum Miss: Equatable {
        /// A task's time is up: its expiration handler is called — or, with none, the system
        /// completes it unsuccessfully [A] — and a grace window follows.
        case expireTask(serial: UInt32)
        /// The app did not complete a task within the grace period after it expired: killed, and
        /// its future launches throttled [A].
        case killForTask(identifier: String, serial: UInt32)
        /// The app did not call a push's completion handler within its time: killed [A].
        case killForPush
        /// The app did not call a URL session's completion handler: the miss is logged, and the
        /// app is simply suspended (Apple documents no kill) [Inf].
        case logSessionHandlers
    }

    /// The process that owes the call.
    let generation: UInt32
    let miss: Miss
    /// When the deadline passes.
    let deadline: SimInstant
    private let handle: EventHandle

    /// Opens a window for process `generation` whose deadline is `event` at `deadline`.
    init(generation: UInt32, miss: Miss, event: SystemEvent, at deadline: SimInstant, in simulation: inout Simulation<WorldEvent>) {
        self.generation = generation
        self.miss = miss
        self.deadline = deadline
        handle = simulation.schedule(.system(event), at: deadline)
    }

    /// The call came, or the owing process ended: the deadline no longer matters.
    func close(in simulation: inout Simulation<WorldEvent>) {
        simulation.cancel(handle)
    }
}
