import SimKernel

/// TestBGScheduler as its code ships it (i336616/TestBGScheduler at `9176947`;
/// `TestBGScheduler/SceneDelegate.swift` and `TestBGScheduler/BackgroundTaskService.swift`), with
/// the two defects its design (``BGSchedulerDesigned``) does not have:
///
/// - **Registration in the scene delegate** (`scene(_:willConnectTo:options:)`), not in
///   `didFinishLaunching`: a user launch connects a scene during launching, so the handler is
///   registered in time; a launch in the background connects no scene, so the system finds no
///   handler for the task and the app crashes — the task never runs in a process the system
///   started (the design document's "Outstanding issue").
/// - **At scene connect** every pending request is cancelled.
/// - **Entering the background** and **first thing in the handler**: cancel the request and submit
///   a refresh request for exactly now + 60 s (the app adds 60 seconds to its current date with
///   `Calendar`; the model's "now" is the simulated clock, `app.date`).
/// - **The work**: three 2 s operations on a serial queue; the expiration handler only cancels
///   them, and the cancelled ones then finish at once; the last one's completion calls
///   `setTaskCompleted(success:)` (true unless cancelled) twice.
package final class BGSchedulerShipped: BackgroundPolicy {
    package let parameters: BGSchedulerParameters

    package init(parameters: BGSchedulerParameters) {
        self.parameters = parameters
    }

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        guard reason == .user else { return }      // no scene connects in the background
        app.taskScheduler.cancelAllTaskRequests()
        app.taskScheduler.register(forTaskWithIdentifier: parameters.identifier) { [unowned self] task in
            schedule(app)
            var cancelled = false
            task.expirationHandler = { cancelled = true }
            runOperation(1, app: app, cancelled: { cancelled }) {
                task.setTaskCompleted(success: !cancelled)
                task.setTaskCompleted(success: !cancelled)
            }
        }
    }

    package func didEnterBackground(_ app: AppContext) {
        schedule(app)
    }

    private func schedule(_ app: AppContext) {
        app.taskScheduler.cancel(taskRequestWithIdentifier: parameters.identifier)
        var request = TaskRequest.appRefresh(identifier: parameters.identifier)
        request.earliestBeginDate = app.date + .seconds(parameters.intervalSeconds)
        try? app.taskScheduler.submit(request)
    }

    /// Runs operation `index` and the ones after it, then `done`; once `cancelled`, the operations
    /// left finish at once when the one in progress ends.
    private func runOperation(_ index: Int, app: AppContext, cancelled: @escaping () -> Bool, done: @escaping () -> Void) {
        app.schedule(after: .seconds(parameters.operationSeconds)) { [unowned self] in
            if index < parameters.operations && !cancelled() {
                runOperation(index + 1, app: app, cancelled: cancelled, done: done)
            } else {
                done()
            }
        }
    }
}
