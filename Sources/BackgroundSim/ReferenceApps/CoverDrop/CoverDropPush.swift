/// CoverDrop's message sending woken by silent pushes (``CoverDropPushParameters``): the
/// design's worker (``CoverDropDesigned``) with the server's pushes in place of refresh
/// tasks.
///
/// - **App start**: if messages are pending, send at once (as designed).
/// - **A push** (`didReceiveRemoteNotification`): if the last successful run was at least the
///   minimum interval ago on the device clock (or lies in its future), the network is up and
///   messages are queued, send up to ``CoverDropPushParameters/messagesPerRun``; call the
///   completion handler when done (`.newData`), with nothing to do (`.noData`), or at the
///   deadline with the work stopped (`.failed`).
/// - Nothing is scheduled: the server's cadence is the only clock.
package final class CoverDropPush: BackgroundPolicy {
    package let parameters: CoverDropPushParameters
    static let lastRunKey = "coverdrop.backgroundJobLastSuccessfulRun"

    package init(parameters: CoverDropPushParameters) {
        self.parameters = parameters
    }

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        if reason == .user && app.work.hasPendingWork && app.networkPath.isSatisfied { send(app, completion: { _ in }) }
    }

    package func didReceiveRemoteNotification(_ app: AppContext, fetchCompletionHandler: @escaping (BackgroundFetchResult) -> Void) {
        guard shouldRun(app), app.networkPath.isSatisfied, app.work.hasPendingWork else {
            fetchCompletionHandler(.noData)
            return
        }
        send(app, completion: fetchCompletionHandler)
    }

    /// Whether the rate limit lets a run start now.
    private func shouldRun(_ app: AppContext) -> Bool {
        guard let last = app.defaults.instant(forKey: Self.lastRunKey) else { return true }
        if last > app.date { return true }
        return last.duration(to: app.date) >= .minutes(parameters.minimumRunIntervalMinutes)
    }

    private func send(_ app: AppContext, completion: @escaping (BackgroundFetchResult) -> Void) {
        var done = false
        let finish = { (result: BackgroundFetchResult) in
            guard !done else { return }
            done = true
            if result == .newData { app.defaults.set(app.date, forKey: Self.lastRunKey) }
            app.work.stop()
            completion(result)
        }
        app.work.onQueueEmpty = { finish(.newData) }
        app.work.onLimitReached = { finish(.newData) }
        app.schedule(after: .seconds(parameters.handlerDeadlineSeconds)) { finish(.failed) }
        app.work.start(limit: parameters.messagesPerRun)
    }
}
