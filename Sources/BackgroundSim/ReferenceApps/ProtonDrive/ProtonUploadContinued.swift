/// Proton Drive's photo uploads in an iOS 26 continued-processing task
/// (``ProtonUploadContinuedParameters``): the user picking photos is the action that submits the
/// request, and the uploads go on after they leave the app, with progress the system shows, for
/// as long as they make progress.
///
/// - on a user launch or a return to the app with uploads queued and no task running, the app
///   submits a continued-processing request and uploads in the foreground meanwhile;
/// - the task uploads until the queue is empty, then completes (success);
/// - the system expiring it (stalled progress, or the user's cancel from its Live Activity)
///   stops the uploads and completes it unsuccessfully; what is left waits for the next return
///   to the app (no fallback task) [Inf];
/// - an upload's URL expires 3 h after it was created (the workload's deadline).
package final class ProtonUploadContinued: BackgroundPolicy {
    package let parameters: ProtonUploadContinuedParameters
    /// The task running in this process, if any.
    private var task: BackgroundTask?
    private var submitted = 0

    package init(parameters: ProtonUploadContinuedParameters) {
        self.parameters = parameters
    }

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: parameters.wildcardIdentifier) { [unowned self] task in
            self.run(task, app)
        }
        if reason == .user { enterForeground(app) }
    }

    package func willEnterForeground(_ app: AppContext) {
        enterForeground(app)
    }

    package func didEnterBackground(_ app: AppContext) {
        if task == nil { app.work.stop() }
    }

    private func enterForeground(_ app: AppContext) {
        app.work.start()
        guard task == nil, app.work.hasPendingWork else { return }
        submitted += 1
        let identifier = String(parameters.wildcardIdentifier.dropLast()) + String(submitted)
        try? app.taskScheduler.submit(ContinuedProcessingTaskRequest(identifier: identifier, strategy: parameters.strategy))
    }

    private func run(_ task: BackgroundTask, _ app: AppContext) {
        self.task = task
        let finish = { [unowned self] (success: Bool) in
            guard self.task === task else { return }
            self.task = nil
            if app.applicationState != .active { app.work.stop() }
            task.setTaskCompleted(success: success)
        }
        // Nothing left by the time it starts (the foreground finished it): done.
        guard app.work.hasPendingWork else {
            finish(true)
            return
        }
        task.expirationHandler = { finish(false) }
        app.work.onQueueEmpty = { finish(true) }
        app.work.start()
    }
}
