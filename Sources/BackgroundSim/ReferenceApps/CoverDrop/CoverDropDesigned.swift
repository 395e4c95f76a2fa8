import SimKernel

/// The Guardian's CoverDrop background message sending as its design document describes it
/// (guardian/coverdrop, `docs/background_message_sending.md` at `e0bd24a`), following its flowchart:
///
/// - **App start** (`didFinishLaunching`, every cold start): if work is pending, run the worker
///   at once; schedule the failsafe refresh (10 min + an exponential delay) and set the pending flag.
/// - **App exit** (`didEnterBackground`): schedule a refresh with an exponential delay (5–120 min)
///   and set the pending flag. A new request replaces the previous one.
/// - **Worker** (the refresh task): run only if the last successful run was at least an hour ago
///   on the device clock, or the clock has jumped so that it lies in the future; send up to the
///   configured number of queued messages; success → clear the flag, record the time, cancel the
///   pending request; error (no network, or the task expires first) → schedule a retry with
///   exponential backoff (5, 10, 20 … up to 120 min).
///
/// State persists in `defaults`, as in the app (`BackgroundWorkPending`,
/// `BackgroundJobLastSuccessfulRun`).
package final class CoverDropDesigned: BackgroundPolicy {
    package let parameters: CoverDropDesignedParameters
    /// A planted bug, for showing that `bgsim check` finds and shrinks one: when the last
    /// successful run lies in the future (the device clock jumped back), the worker sets an
    /// expiration handler that only stops the work, "repairs" the timestamp and returns without
    /// calling `setTaskCompleted` — an error path that only a clock jump reaches; the system kills
    /// the app when the task's time is up. The `coverdrop-send-forgetful` policy; never the
    /// reference one.
    package let forgetsCompletionAfterClockJump: Bool
    static let pendingKey = "coverdrop.backgroundWorkPending"
    static let lastRunKey = "coverdrop.backgroundJobLastSuccessfulRun"
    static let failuresKey = "coverdrop.consecutiveFailures"
    /// Every delay the policy scheduled, in minutes, for tests of its bounds.
    static let lastDelayKey = "coverdrop.lastDelayMinutes"

    package init(parameters: CoverDropDesignedParameters, forgetsCompletionAfterClockJump: Bool = false) {
        self.parameters = parameters
        self.forgetsCompletionAfterClockJump = forgetsCompletionAfterClockJump
    }

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: parameters.identifier) { [unowned self] task in
            self.runWorker(app, task: task)
        }
        // onAppStart
        if app.defaults.bool(forKey: Self.pendingKey) { runWorker(app, task: nil) }
        schedule(app, afterMinutes: parameters.failsafeBaseMinutes + exponentialDelay(app))
    }

    package func didEnterBackground(_ app: AppContext) {
        // onAppFinished
        schedule(app, afterMinutes: exponentialDelay(app))
    }

    /// A random exponential delay bounded to 5–120 min.
    func exponentialDelay(_ app: AppContext) -> Double {
        let draw = -parameters.meanDelayMinutes * PortableMath.log(1 - app.randomUnit())
        return Swift.min(parameters.maximumDelayMinutes, Swift.max(parameters.minimumDelayMinutes, draw))
    }

    /// Submits the refresh request and sets the pending flag.
    func schedule(_ app: AppContext, afterMinutes minutes: Double) {
        var request = TaskRequest.appRefresh(identifier: parameters.identifier)
        request.earliestBeginDate = app.date + .minutes(minutes)
        app.defaults.set(minutes, forKey: Self.lastDelayKey)
        try? app.taskScheduler.submit(request)
        app.defaults.set(true, forKey: Self.pendingKey)
    }

    /// Whether the rate limit lets the worker run now.
    func shouldRun(_ app: AppContext) -> Bool {
        guard let last = app.defaults.instant(forKey: Self.lastRunKey) else { return true }
        if last > app.date { return true }  // the clock jumped: the last run is in the "future"
        return last.duration(to: app.date) >= .minutes(parameters.minimumRunIntervalMinutes)
    }

    func runWorker(_ app: AppContext, task: BackgroundTask?) {
        if forgetsCompletionAfterClockJump, let last = app.defaults.instant(forKey: Self.lastRunKey), last > app.date {
            // The planted bug: an expiration handler that only stops the work (trusting the
            // paths below to complete the task), then an early return on the clock-jump path.
            task?.expirationHandler = { app.work.stop() }
            app.defaults.removeObject(forKey: Self.lastRunKey)
            return
        }
        guard shouldRun(app) else {
            task?.setTaskCompleted(success: true)
            return
        }
        guard app.networkPath.isSatisfied else {
            failed(app, task: task)
            return
        }
        let succeed = { [unowned self] in
            app.work.stop()
            app.defaults.set(false, forKey: Self.pendingKey)
            app.defaults.set(app.date, forKey: Self.lastRunKey)
            app.defaults.set(0, forKey: Self.failuresKey)
            app.taskScheduler.cancel(taskRequestWithIdentifier: self.parameters.identifier)
            task?.setTaskCompleted(success: true)
        }
        app.work.onQueueEmpty = succeed
        app.work.onLimitReached = succeed
        task?.expirationHandler = { [unowned self] in
            app.work.stop()
            self.failed(app, task: task)
        }
        app.work.start(limit: parameters.messagesPerRun)
    }

    /// Schedules a retry with exponential backoff.
    func failed(_ app: AppContext, task: BackgroundTask?) {
        let failures = app.defaults.integer(forKey: Self.failuresKey) + 1
        app.defaults.set(failures, forKey: Self.failuresKey)
        var backoff = parameters.minimumDelayMinutes
        for _ in 1..<Swift.min(failures, 16) { backoff *= 2 }
        schedule(app, afterMinutes: Swift.min(parameters.maximumDelayMinutes, backoff))
        task?.setTaskCompleted(success: false)
    }
}
