import SimKernel

/// Zashi's wallet sync as its iOS code ships it (Electric-Coin-Company/zashi-ios at `2488b26`,
/// `secant/AppDelegate.swift`, `secant/SecantApp.swift`, `RootInitialization.swift`), which
/// differs from its design document (``ZashiDesigned``) in when it asks to run and in a second
/// task:
///
/// - **Two processing requests**, submitted together: the sync (power and network required)
///   for the start of the next local day + 3 h + a uniform 0–60 whole minutes — one window a night, so
///   leaving the app after midnight skips that night — and a "scheduler" task for the next day
///   at 14:00 + 0–60 whole minutes with no requirements.
/// - **Entering the background**: stop the synchronizer, complete a running sync task with
///   false, submit both requests.
/// - **The sync handler**: submit both requests first; then, if this process could not start the
///   synchronizer (a cold background launch while the phone was locked: its keys need the phone
///   unlocked) or the phone is not on Wi-Fi, complete with false; otherwise sync: up to date →
///   true; the expiration handler stops the synchronizer and completes with false.
/// - **The scheduler handler**: submit both requests (the scheduler's first) and complete with
///   true.
/// - **In the foreground** the synchronizer runs.
package final class ZashiShipped: BackgroundPolicy {
    package let parameters: ZashiShippedParameters
    /// This process cannot sync: it was launched in the background while the phone was locked.
    private var synchronizerFailedToStart = false
    /// The running sync task, if any.
    private var syncTask: BackgroundTask?

    package init(parameters: ZashiShippedParameters) {
        self.parameters = parameters
    }

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: parameters.syncIdentifier) { [unowned self] task in
            sync(task, app)
        }
        app.taskScheduler.register(forTaskWithIdentifier: parameters.schedulerIdentifier) { [unowned self] task in
            submitScheduler(app)        // this handler asks for the scheduler first, then the sync
            submitSync(app)
            task.setTaskCompleted(success: true)
        }
        if reason == .user {
            app.work.start()
        } else if parameters.coldLaunchNeedsUnlock && !app.isProtectedDataAvailable {
            synchronizerFailedToStart = true
        }
    }

    package func didEnterBackground(_ app: AppContext) {
        app.work.stop()
        complete(success: false)
        submitBoth(app)
    }

    package func willEnterForeground(_ app: AppContext) {
        synchronizerFailedToStart = false    // unlocked: the keys can be read now
        app.work.onQueueEmpty = nil
        app.work.start()
    }

    private func sync(_ task: BackgroundTask, _ app: AppContext) {
        submitBoth(app)
        if synchronizerFailedToStart || (parameters.requiresWifi && app.networkPath.interface != .wifi) {
            task.setTaskCompleted(success: false)
            return
        }
        syncTask = task
        task.expirationHandler = { [unowned self] in
            app.work.stop()
            complete(success: false)
        }
        app.work.onQueueEmpty = { [unowned self] in
            app.work.stop()
            complete(success: true)
        }
        app.work.start()
    }

    /// Completes the running sync task, if any.
    private func complete(success: Bool) {
        guard let task = syncTask else { return }
        syncTask = nil
        task.setTaskCompleted(success: success)
    }

    // MARK: Requests

    /// Submits the sync request, then the scheduler's.
    private func submitBoth(_ app: AppContext) {
        submitSync(app)
        submitScheduler(app)
    }

    private func submitSync(_ app: AppContext) {
        var sync = TaskRequest.processing(identifier: parameters.syncIdentifier,
                                          requiresExternalPower: parameters.requiresExternalPower,
                                          requiresNetworkConnectivity: parameters.requiresNetworkConnectivity)
        sync.earliestBeginDate = nextWindow(app, hour: parameters.syncWindowHour)
        try? app.taskScheduler.submit(sync)
    }

    private func submitScheduler(_ app: AppContext) {
        var scheduler = TaskRequest.processing(identifier: parameters.schedulerIdentifier,
                                               requiresExternalPower: false, requiresNetworkConnectivity: false)
        scheduler.earliestBeginDate = nextWindow(app, hour: parameters.schedulerWindowHour)
        try? app.taskScheduler.submit(scheduler)
    }

    /// The start of the next local day plus `hour` hours and the random jitter in whole minutes,
    /// drawn as the code draws it (a random `Int` over `0...60`, here from `app.randomInt`; app
    /// code under the simulator draws it the same way from the same stream).
    private func nextWindow(_ app: AppContext, hour: Int) -> SimInstant {
        let calendar = app.calendar
        let opens = calendar.midnight(ofDay: calendar.day(of: app.date) + 1) + .hours(Double(hour))
        return opens + .minutes(Double(app.randomInt(in: 0...Int(parameters.windowJitterMinutes))))
    }
}
