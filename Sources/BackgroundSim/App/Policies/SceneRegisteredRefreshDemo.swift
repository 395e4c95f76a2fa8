import SimKernel

/// TestBGScheduler as its code ships it (i336616/TestBGScheduler at `9176947`), with the two
/// defects its design (``PeriodicRefreshDemo``) does not have:
///
/// - **Registration in the scene delegate** (`scene(_:willConnectTo:options:)`), not in
///   `didFinishLaunching`: a user launch connects a scene during launching, so the handler is
///   registered in time; a launch in the background connects no scene, so the system finds no
///   handler for the task and the app crashes — the task never runs in a process the system
///   started (the design document's "Outstanding issue").
/// - **At scene connect** every pending request is cancelled.
/// - **Entering the background** and **first thing in the handler**: cancel the request and submit
///   a refresh request 60 s ahead.
/// - **The work**: three 2 s operations one after another; the expiration handler only cancels
///   them (the task is never completed, so the system kills the app); after the last operation
///   `setTaskCompleted(success: true)` is called twice.
package final class SceneRegisteredRefreshDemo: BackgroundPolicy {
    package let parameters: PeriodicDemoParameters

    package init(parameters: PeriodicDemoParameters) {
        self.parameters = parameters
    }

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        guard reason == .user else { return }      // no scene connects in the background
        app.taskScheduler.cancelAllTaskRequests()
        app.taskScheduler.register(forTaskWithIdentifier: parameters.identifier) { [unowned self] task in
            schedule(app)
            var cancelled = false
            task.expirationHandler = { cancelled = true }
            runOperation(1, app: app) {
                guard !cancelled else { return }
                task.setTaskCompleted(success: true)
                task.setTaskCompleted(success: true)
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

    /// Runs operation `index` and the ones after it, then `done`.
    private func runOperation(_ index: Int, app: AppContext, done: @escaping () -> Void) {
        app.schedule(after: .seconds(parameters.operationSeconds)) { [unowned self] in
            if index < parameters.operations {
                runOperation(index + 1, app: app, done: done)
            } else {
                done()
            }
        }
    }
}
