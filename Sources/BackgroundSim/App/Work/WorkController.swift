import SimKernel

/// The policy's handle on the app's work, `app.work`: add items, start and stop the executor,
/// see what is queued and how labelled items are doing, and hear when a run ends.
///
///     try app.work.enqueue(WorkRequest(uploadBytes: 2_500_000, label: "photo"))
///     app.work.onQueueEmpty = { task.setTaskCompleted(success: true) }
///     app.work.start()
public final class WorkController {
    unowned let system: SimulatedSystem
    let generation: UInt32

    init(system: SimulatedSystem, generation: UInt32) {
        self.system = system
        self.generation = generation
    }

    private var isCurrent: Bool { system.processGeneration == generation && system.processIsRunning }

    /// Items queued and not finished (the queue survives termination).
    public var pendingCount: Int { system.work.pendingCount(at: system.snapshot.now) }

    /// Whether any item is queued.
    public var hasPendingWork: Bool { pendingCount > 0 }

    /// Adds an item to the queue (which survives termination). Adding nothing while the process
    /// is not running (a stale handle) is ignored.
    ///
    /// - Throws: A ``ScenarioIssue`` naming the request's field if it is out of range or asks
    ///   for no work, or if the scenario's workload is a cadence.
    public func enqueue(_ request: WorkRequest) throws(ScenarioIssue) {
        guard isCurrent else { return }
        let now = system.snapshot.now
        system.work.settle(at: now)
        try system.work.enqueue(request, at: now)
        // The system reconciles the executor after the callback this runs in, so a started
        // executor picks the item up at once.
    }

    /// How the items labelled `label` are doing, as of now.
    public func progress(label: String) -> WorkProgress {
        let now = system.snapshot.now
        system.work.settle(at: now)
        return system.work.progress(label: label, at: now)
    }

    /// Whether the policy has started the executor in this process.
    public var isRunning: Bool { isCurrent && system.work.isStarted }

    /// Starts work; it progresses while the process runs and the network allows. `limit` caps
    /// the items this run completes (CoverDrop sends "up to a configured limit"); it is at least
    /// 0, and a negative one is a programmer error that traps.
    public func start(limit: Int? = nil) {
        guard isCurrent else { return }
        system.record(.workStart(limit: limit))
        system.work.start(limit: limit)
    }

    /// Starts work as `jobs` of the app's own jobs working the queue at once, each `limit` times
    /// peeking at the head, sending it and dequeuing the head after (CoverDrop's overlapping
    /// jobs): the first item goes `jobs` times, the jobs then send different items, and the
    /// last `jobs − 1` items they dequeue go unsent (``WorkEngine/start(limit:senders:)``).
    /// Progress so far is settled first, so a run can be joined part way.
    package func startOverlapping(limit: Int, jobs: Int) {
        precondition(limit >= 0, "WorkController: a limit of \(limit) items")
        guard isCurrent else { return }
        let now = system.snapshot.now
        system.work.settle(at: now)
        system.record(.workStart(limit: limit))
        system.work.start(limit: limit, senders: Swift.max(1, jobs))
    }

    /// Starts work in hand-off mode: the app spends each queued item's CPU time (it prepares the
    /// file), then hands its transfer to the background URL session `configuration`, which the
    /// system carries on whatever the app's state — suspended, or terminated by the system, but
    /// not force-quit — and reports when done
    /// (``BackgroundPolicy/handleEventsForBackgroundURLSession(_:identifier:completionHandler:)``).
    /// Transfers handed off while the app is not in the foreground are discretionary [A], and
    /// wait out the resume rate limiter's delay before they start [A-DTS]
    /// (``BackgroundURLSessionParameters/resumeDelaySeconds``). A cadence workload's items are
    /// not handed off.
    ///
    /// - Throws: A ``ScenarioIssue`` naming the configuration's field if it is out of range.
    public func startHandingOff(to configuration: BackgroundSessionConfiguration) throws(ScenarioIssue) {
        var validator = ParameterValidator()
        configuration.validate(&validator)
        if let issue = validator.issues.first { throw issue }
        guard isCurrent else { return }
        system.record(.workStart(limit: nil))
        system.work.startHandingOff(to: configuration, at: system.snapshot.now,
                                    inForeground: system.processState == .foreground,
                                    backgroundStartDelay: system.sessionEvents.startDelay(at: system.snapshot.now))
    }

    /// Hands one transfer of the app's own code (SimulatedBackgroundTasks' background
    /// `URLSession` tasks) to the background session `configuration`: it uploads `uploadBytes`
    /// and downloads `downloadBytes`, starting no earlier than `notBefore` from now (its task's
    /// `earliestBeginDate`), and is discretionary and rate-limited as any hand-off. Returns its
    /// number, which ``onAppTransfersEnded`` reports when it ends; `nil` from a stale handle, for
    /// a transfer of no bytes, or when the app has 255 sessions.
    package func handOffAppTransfer(uploadBytes: Double, downloadBytes: Double, to configuration: BackgroundSessionConfiguration,
                                    notBefore: SimDuration) -> UInt32? {
        precondition(uploadBytes >= 0 && downloadBytes >= 0 && uploadBytes.isFinite && downloadBytes.isFinite,
                     "WorkController: a transfer of \(uploadBytes) bytes up and \(downloadBytes) down")
        guard isCurrent else { return nil }
        return system.work.handOffAppTransfer(uploadBytes: uploadBytes, downloadBytes: downloadBytes, to: configuration,
                                              notBefore: notBefore, at: system.snapshot.now,
                                              inForeground: system.processState == .foreground,
                                              backgroundStartDelay: system.sessionEvents.startDelay(at: system.snapshot.now))
    }

    /// Cancels the app's own transfer number `transfer`, if it is still in flight; it is
    /// reported ended (``AppTransferOutcome/cancelled``) like any other.
    package func cancelAppTransfer(_ transfer: UInt32) {
        guard isCurrent else { return }
        system.work.cancelAppTransfer(transfer, at: system.snapshot.now)
    }

    /// Takes the app's own transfers that ended and were not yet passed to
    /// ``onAppTransfersEnded``: the system passes them on at a check at the instant they end,
    /// which may come after other callbacks at that instant (a relaunch for the session's events).
    package func takeEndedAppTransfers() -> [(transfer: UInt32, outcome: AppTransferOutcome)] {
        system.work.takeEndedAppTransfers()
    }

    /// Hears the app's own transfers end, with their numbers, at the instant they end (or, for
    /// those a force-quit cancels, as the process ends); kept for the whole run.
    package var onAppTransfersEnded: (([(transfer: UInt32, outcome: AppTransferOutcome)]) -> Void)? {
        get { system.work.onAppTransfersEnded }
        set { system.work.onAppTransfersEnded = newValue }
    }

    /// Transfers the app has handed to background URL sessions that have not finished.
    public var sessionTransferCount: Int { system.work.transfers.count }

    /// Stops work; progress is kept if items are resumable.
    public func stop() {
        guard isCurrent else { return }
        system.record(.workStop)
        system.work.stop(at: system.snapshot.now)
    }

    /// Gives up on every queued item: they fail (`givenUp`).
    public func giveUp() {
        guard isCurrent else { return }
        system.work.giveUp(at: system.snapshot.now)
    }

    /// Called when a run empties the queue (the executor keeps running, and continues if new
    /// items arrive).
    public var onQueueEmpty: (() -> Void)? {
        get { system.work.onQueueEmpty }
        set { if isCurrent { system.work.onQueueEmpty = newValue } }
    }

    /// Called when a run completes its `limit` of items; the executor then stops.
    public var onLimitReached: (() -> Void)? {
        get { system.work.onLimitReached }
        set { if isCurrent { system.work.onLimitReached = newValue } }
    }
}
