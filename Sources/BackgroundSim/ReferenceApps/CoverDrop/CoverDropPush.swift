import SimKernel

/// CoverDrop's message sending woken by silent pushes (``CoverDropPushParameters``): the
/// design's worker (``CoverDropDesigned``) with the server's pushes in place of refresh
/// tasks.
///
/// - **App start** (the user's launch): if messages are pending, the network is up and the
///   hourly limit allows, send at once, as the design's worker does at app start; in the
///   foreground there is no handler deadline.
/// - **A push** (`didReceiveRemoteNotification`): if no send is in progress (one started at
///   launch, say: it is already sending the queue), the last successful run was at least the
///   minimum interval ago on the device clock (or lies in its future), the network is up and
///   messages are queued, send up to ``CoverDropPushParameters/messagesPerRun``; call the
///   completion handler when done (`.newData`), with nothing to do (`.noData`), or at the
///   deadline with the work stopped (`.failed`).
/// - Nothing is scheduled: the server's cadence is the only clock.
package final class CoverDropPush: BackgroundPolicy {
    package let parameters: CoverDropPushParameters
    static let lastRunKey = "coverdrop.backgroundJobLastSuccessfulRun"
    /// A send is in progress in this process.
    private var sending = false

    package init(parameters: CoverDropPushParameters) {
        self.parameters = parameters
    }

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        if reason == .user && shouldRun(app) && app.networkPath.isSatisfied && app.work.hasPendingWork { send(app, deadline: nil) { _ in } }
    }

    package func didReceiveRemoteNotification(_ app: AppContext, fetchCompletionHandler: @escaping (BackgroundFetchResult) -> Void) {
        guard !sending, shouldRun(app), app.networkPath.isSatisfied, app.work.hasPendingWork else {
            fetchCompletionHandler(.noData)
            return
        }
        send(app, deadline: .seconds(parameters.handlerDeadlineSeconds), completion: fetchCompletionHandler)
    }

    /// Whether the rate limit lets a run start now.
    private func shouldRun(_ app: AppContext) -> Bool {
        guard let last = app.defaults.instant(forKey: Self.lastRunKey) else { return true }
        if last > app.date { return true }
        return last.duration(to: app.date) >= .minutes(parameters.minimumRunIntervalMinutes)
    }

    /// Sends up to ``CoverDropPushParameters/messagesPerRun``; with a `deadline`, stops and
    /// fails if still sending that long after it began.
    private func send(_ app: AppContext, deadline: SimDuration?, completion: @escaping (BackgroundFetchResult) -> Void) {
        var done = false
        sending = true
        let finish = { [unowned self] (result: BackgroundFetchResult) in
            guard !done else { return }
            done = true
            sending = false
            if result == .newData { app.defaults.set(app.date, forKey: Self.lastRunKey) }
            app.work.stop()
            completion(result)
        }
        app.work.onQueueEmpty = { finish(.newData) }
        app.work.onLimitReached = { finish(.newData) }
        if let deadline { app.schedule(after: deadline) { finish(.failed) } }
        app.work.start(limit: parameters.messagesPerRun)
    }
}
