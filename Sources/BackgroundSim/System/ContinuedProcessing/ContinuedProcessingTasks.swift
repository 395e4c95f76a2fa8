import SimKernel

/// The system's side of continued-processing tasks (``ContinuedProcessingParameters``): the
/// requests queued for a free slot, when the app last made progress, and the events that end a
/// task without the app — a stall (no progress for the timeout) and the user's cancel.
///
/// Progress is the app's: all its running continued-processing tasks share one work executor,
/// so one stall clock covers them [Inf]. The task itself lives in ``RunningTasks`` like any
/// other, with no time allotment. This type never calls into the app.
struct ContinuedProcessingTasks: BackgroundDoor {
    /// Requests waiting for a slot (the `queue` strategy), oldest first.
    private(set) var queued: [ContinuedProcessingTaskRequest] = []
    /// When the app last made progress (or a task started).
    private(set) var lastProgress = SimInstant.start
    /// Whether the executor was progressing at the last look (progress runs until it stops).
    private var progressingAtLastLook = false
    /// Fires when progress has stalled for the timeout.
    private(set) var stall = EventSlot()
    /// A stall the system let run on (no resource pressure) is looked at again no sooner than this.
    private var nextStallLook = SimInstant.start
    /// Starts the next queued request, when a slot has freed.
    private(set) var start = EventSlot()
    /// The user's cancels still to come, by task serial.
    private(set) var cancels: [(serial: UInt32, handle: EventHandle, at: SimInstant, cause: ExpirationCause)] = []

    var hasQueued: Bool { !queued.isEmpty }

    /// Whether a request waiting for a slot keeps the app running in the background (its
    /// running tasks are ``RunningTasks``').
    var holdsApp: Bool { !queued.isEmpty }

    /// Whether anything is queued, scheduled or being watched (else, with no task running,
    /// reconciling has nothing to do).
    var isActive: Bool {
        !queued.isEmpty || !cancels.isEmpty || progressingAtLastLook || stall.isScheduled || start.isScheduled
    }

    mutating func enqueue(_ request: ContinuedProcessingTaskRequest) {
        queued.append(request)
    }

    /// Takes the oldest queued request.
    mutating func dequeue() -> ContinuedProcessingTaskRequest? {
        queued.isEmpty ? nil : queued.removeFirst()
    }

    /// A task started now: progress counts from here; with `cancelAt`, the user cancels then.
    mutating func taskStarted(serial: UInt32, at now: SimInstant, cancelAt: SimInstant?, in simulation: inout Simulation<WorldEvent>) {
        precondition(!cancels.contains { $0.serial == serial }, "ContinuedProcessingTasks: task \(serial) started twice")
        precondition(cancelAt.map { $0 >= now } ?? true, "ContinuedProcessingTasks: task \(serial) cancelled before it starts")
        defer { checkInvariantsIfEnabled() }
        lastProgress = now
        stall.cancel(in: &simulation)
        if let cancelAt {
            cancels.append((serial, simulation.schedule(.system(.continuedProcessingCancel(serial: serial)), at: cancelAt), cancelAt, .userCancelled))
        }
    }

    /// The system will end `serial` at `instant`, whatever its progress (an early expiry), unless
    /// an earlier end is already due; a later one (the user's cancel) gives way to it.
    mutating func expireEarly(serial: UInt32, at instant: SimInstant, in simulation: inout Simulation<WorldEvent>) {
        precondition(instant >= simulation.now, "ContinuedProcessingTasks: task \(serial) expires at \(instant), before now")
        if let index = cancels.firstIndex(where: { $0.serial == serial }) {
            guard cancels[index].at > instant else { return }
            simulation.cancel(cancels[index].handle)
            cancels.remove(at: index)
        }
        cancels.append((serial, simulation.schedule(.system(.continuedProcessingCancel(serial: serial)), at: instant), instant, .earlyExpiry))
        checkInvariantsIfEnabled()
    }

    /// The app reported progress now (the next reconcile moves the stall).
    mutating func noteProgress(at now: SimInstant) {
        precondition(lastProgress <= now, "ContinuedProcessingTasks: progress at \(now), before the last (\(lastProgress))")
        lastProgress = now
    }

    /// The end scheduled for `serial` fired: returns why.
    mutating func cancelFired(serial: UInt32) -> ExpirationCause {
        guard let index = cancels.firstIndex(where: { $0.serial == serial }) else { return .userCancelled }
        return cancels.remove(at: index).cause
    }

    /// The stall event fired.
    mutating func stallFired() {
        stall.fired()
    }

    /// The system let a stalled task run on at `now` (its resources are not constrained): the
    /// next reconcile schedules another look `timeout` later.
    mutating func stallLetRun(at now: SimInstant, timeout: SimDuration) {
        nextStallLook = now + timeout
    }

    /// The start event fired.
    mutating func startFired() {
        start.fired()
    }

    /// Brings the stall clock and the start of queued requests in line with the state: while a
    /// task runs and the executor does not progress, the stall fires `timeout` after the last
    /// progress (or at the next look at a stall let run on); a queued request starts (by an
    /// event) as soon as there is a free slot and a process to run it; the cancels of tasks that
    /// have ended are dropped.
    ///
    /// - Parameters:
    ///   - runningCount: How many continued-processing tasks run.
    ///   - isRunning: Whether the task with a serial still runs.
    mutating func reconcile(runningCount: Int, isRunning: (UInt32) -> Bool, progressing: Bool, processRunning: Bool, maximum: Int,
                            timeout: SimDuration, in simulation: inout Simulation<WorldEvent>) {
        precondition(runningCount >= 0 && runningCount <= maximum, "ContinuedProcessingTasks: \(runningCount) running of at most \(maximum)")
        precondition(timeout > .zero, "ContinuedProcessingTasks: a stall after \(timeout)")
        // Nothing to do, and nothing scheduled: the usual case, free.
        if runningCount == 0 && !isActive { return }
        let now = simulation.now
        if progressing || progressingAtLastLook { lastProgress = now }
        progressingAtLastLook = progressing && runningCount > 0
        if runningCount == 0 || progressing {
            stall.cancel(in: &simulation)
        } else {
            stall.set(.continuedProcessingStall, at: Swift.max(now, lastProgress + timeout, nextStallLook), in: &simulation)
        }
        for index in cancels.indices.reversed() where !isRunning(cancels[index].serial) {
            simulation.cancel(cancels[index].handle)
            cancels.remove(at: index)
        }
        start.set(.continuedProcessingStart, at: hasQueued && processRunning && runningCount < maximum ? now : nil,
                  in: &simulation)
        checkInvariantsIfEnabled()
    }

    /// The process ended: queued requests go (the caller counts them) and so do the pending events.
    mutating func processEnded(in simulation: inout Simulation<WorldEvent>) {
        for cancel in cancels { simulation.cancel(cancel.handle) }
        cancels.removeAll()
        stall.cancel(in: &simulation)
        start.cancel(in: &simulation)
        queued.removeAll()
        progressingAtLastLook = false
    }
}
