import SimKernel

/// The Guardian's CoverDrop background message sending as its iOS code ships it (guardian/coverdrop
/// at `a43016f`, `ios/reference/CoverDropCore/Sources/CoverDropCore/Services/`), which differs from
/// its design document (``CoverDropDesigned``) in what a run sends, when runs happen and how
/// they end:
///
/// - **Every foreground and every launch** (`onAppForeground`, called from
///   `willEnterForeground` and, since `b7fba50` (2025-10-07) directly, at every process launch,
///   background launches included): if the pending flag is set, run the job and wait for it; then submit a request
///   10 min + an exponential delay ahead and set the flag.
/// - **Entering the background**: submit a request an exponential delay ahead (mean 10 min,
///   clamped to 5–120 min) and set the flag. A new request replaces the pending one; nothing is
///   ever cancelled.
/// - **The task's handler**: first submit the next request (an exponential delay, no extra
///   10 min; since `8ee46ab`), then run the job and complete the task with its result. No
///   expiration handler is set: a run the system expires is killed when its grace ends.
/// - **The job**: skipped (result false) if the last run was less than an hour ago on the device
///   clock (a last run in the future, after the clock jumped back, does not skip); otherwise it
///   sends exactly ``CoverDropShippedParameters/messagesPerRun`` messages — queued real messages
///   first, padded with cover messages (``WorkRequest/isCover``) — then
///   records the run's start as the last run, clears the flag and returns true. A send that
///   fails leaves its message queued and the run still counts as a success; offline, the job
///   sends nothing and succeeds at once [Inf] (a request fails at once without a network).
///
/// Two jobs in one process run one after the other [Inf]: on a cold background launch with the
/// flag set, the launch's job runs first, so the handler's job finds the last run too recent and
/// completes the task with false.
///
/// Not modelled: the real and cover messages' cryptography (a fixed CPU cost per item is the
/// workload's), the dead-drop downloads the app also makes, and the queue's 8 slots, which the
/// preset gives the workload (`work.maximumQueuedItems: 8`).
package final class CoverDropShipped: BackgroundPolicy {
    package let parameters: CoverDropShippedParameters
    static let pendingKey = "coverdrop.shipped.backgroundWorkPending"
    static let lastRunKey = "coverdrop.shipped.backgroundWorkLastSuccessfulRun"
    /// A job is sending in this process.
    private var jobInProgress = false
    /// Jobs waiting for the one in progress, in the order they were asked for.
    private var waitingJobs: [() -> Void] = []

    package init(parameters: CoverDropShippedParameters) {
        self.parameters = parameters
    }

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: parameters.identifier) { [unowned self] task in
            if parameters.resubmitsInHandler { submit(app, extraMinutes: 0) }
            runJob(app) { success in task.setTaskCompleted(success: success) }
        }
        onAppForeground(app)
    }

    package func willEnterForeground(_ app: AppContext) {
        onAppForeground(app)
    }

    package func didEnterBackground(_ app: AppContext) {
        submit(app, extraMinutes: 0)
        app.defaults.set(true, forKey: Self.pendingKey)
    }

    /// The fallback for runs the system never gave: run the job if one is pending, then submit
    /// the failsafe request and set the flag.
    private func onAppForeground(_ app: AppContext) {
        let scheduleFailsafe = { [unowned self] in
            submit(app, extraMinutes: parameters.failsafeExtraMinutes)
            app.defaults.set(true, forKey: Self.pendingKey)
        }
        if app.defaults.bool(forKey: Self.pendingKey) {
            runJob(app) { _ in scheduleFailsafe() }
        } else {
            scheduleFailsafe()
        }
    }

    // MARK: The job

    /// Runs the job, or queues it behind the one in progress; `completion` gets its result.
    func runJob(_ app: AppContext, completion: @escaping (Bool) -> Void) {
        guard !jobInProgress else {
            waitingJobs.append { [unowned self] in runJob(app, completion: completion) }
            return
        }
        let began = app.date
        guard shouldRun(app, at: began) else {
            completion(false)                                   // skipped
            return
        }
        guard app.networkPath.isSatisfied else {
            finishJob(app, began: began, completion: completion)   // every send failed at once
            return
        }
        jobInProgress = true
        let padding = parameters.messagesPerRun - app.work.pendingCount
        for _ in 0..<Swift.max(0, padding) {
            try? app.work.enqueue(WorkRequest(uploadBytes: parameters.messageBytes, isCover: true))
        }
        var finished = false
        let done = { [unowned self] in
            guard !finished else { return }
            finished = true
            app.work.stop()
            jobInProgress = false
            finishJob(app, began: began, completion: completion)
        }
        app.work.onLimitReached = done
        app.work.onQueueEmpty = done
        app.work.start(limit: parameters.messagesPerRun)
    }

    /// Records a run that sent (or tried to), reports success and starts the next waiting job.
    private func finishJob(_ app: AppContext, began: SimInstant, completion: (Bool) -> Void) {
        app.defaults.set(began, forKey: Self.lastRunKey)
        app.defaults.set(false, forKey: Self.pendingKey)
        completion(true)
        if !waitingJobs.isEmpty { waitingJobs.removeFirst()() }
    }

    /// The rate limit on the device clock: run if there was no run, if the last one lies in the
    /// future (the clock jumped back), or if at least the minimum interval has passed.
    func shouldRun(_ app: AppContext, at now: SimInstant) -> Bool {
        guard let last = app.defaults.instant(forKey: Self.lastRunKey) else { return true }
        return last > now || last.duration(to: now) >= .minutes(parameters.minimumRunIntervalMinutes)
    }

    // MARK: Requests

    /// Submits the request an exponential delay (plus `extraMinutes`) ahead, replacing any.
    func submit(_ app: AppContext, extraMinutes: Double) {
        let draw = -parameters.meanDelayMinutes * PortableMath.log(1 - app.randomUnit())
        let minutes = Swift.min(parameters.maximumDelayMinutes, Swift.max(parameters.minimumDelayMinutes, draw)) + extraMinutes
        var request = parameters.requestKind == .refresh
            ? TaskRequest.appRefresh(identifier: parameters.identifier)
            : TaskRequest.processing(identifier: parameters.identifier, requiresExternalPower: false, requiresNetworkConnectivity: true)
        request.earliestBeginDate = app.date + .minutes(minutes)
        try? app.taskScheduler.submit(request)
    }
}
