import SimKernel

/// One module's processing task: registers its launch handler, schedules requests, and tracks
/// the running task until it expires or the module completes it.
///
/// Each module has its own, because the lifecycles of different processing tasks are independent
/// (the design document's "Code dependencies").
package final class BackgroundTaskStateController {
    /// The task identifier (listed in the app's permitted identifiers).
    package let identifier: String
    private let app: AppContext
    /// The running task, if any.
    package private(set) var task: BackgroundTask?
    weak var module: ComputationalAvailabilityController?

    /// Whether a processing task is running for this module.
    package var isRunning: Bool { task != nil }

    /// Creates the controller and registers the launch handler; call it in `didFinishLaunching`.
    package init(identifier: String, app: AppContext) {
        self.identifier = identifier
        self.app = app
        app.taskScheduler.register(forTaskWithIdentifier: identifier) { [weak self] task in
            self?.started(task)
        }
    }

    /// Submits a processing request that may begin `delay` from now.
    package func schedule(after delay: SimDuration, requiresExternalPower: Bool = false, requiresNetworkConnectivity: Bool = false) {
        var request = TaskRequest.processing(identifier: identifier, requiresExternalPower: requiresExternalPower,
                                             requiresNetworkConnectivity: requiresNetworkConnectivity)
        request.earliestBeginDate = app.date + delay
        try? app.taskScheduler.submit(request)
    }

    /// Completes the running task, if any.
    package func complete(success: Bool) {
        guard let task else { return }
        self.task = nil
        task.setTaskCompleted(success: success)
        module?.reevaluate()
    }

    private func started(_ task: BackgroundTask) {
        self.task = task
        task.expirationHandler = { [weak self] in self?.expired() }
        module?.reevaluate()
    }

    /// The system expires the task: the module sees the state change (and stops its work), then
    /// the task is completed unsuccessfully.
    private func expired() {
        guard let task else { return }
        self.task = nil
        module?.reevaluate()
        task.setTaskCompleted(success: false)
    }
}
