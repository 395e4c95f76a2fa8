import SimKernel

/// TestBGScheduler's demo as its README describes it (i336616/TestBGScheduler, `README.md`): a refresh task 60 s after backgrounding, rescheduled every
/// 60 s, each run performing three 2-second operations one after another.
///
/// The operations are the app's own (not the work queue); the policy counts them in `defaults`
/// — how many ran, and how many ran out of order — so their order can be checked.
package final class BGSchedulerDesigned: BackgroundPolicy {
    package let parameters: BGSchedulerParameters
    static let completedKey = "demo.operationsCompleted"
    static let outOfOrderKey = "demo.operationsOutOfOrder"
    static let lastOperationKey = "demo.lastOperation"

    package init(parameters: BGSchedulerParameters) {
        self.parameters = parameters
    }

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: parameters.identifier) { [unowned self] task in
            self.schedule(app)
            task.expirationHandler = { task.setTaskCompleted(success: false) }
            app.defaults.set(0, forKey: Self.lastOperationKey)  // a new run starts at operation 1
            self.runOperation(1, app: app, task: task)
        }
    }

    package func didEnterBackground(_ app: AppContext) {
        schedule(app)
    }

    func schedule(_ app: AppContext) {
        var request = TaskRequest.appRefresh(identifier: parameters.identifier)
        request.earliestBeginDate = app.date + .seconds(parameters.intervalSeconds)
        try? app.taskScheduler.submit(request)
    }

    /// Runs operation `index` (taking `operationSeconds`), then the next; completes the task after
    /// the last.
    func runOperation(_ index: Int, app: AppContext, task: BackgroundTask) {
        app.schedule(after: .seconds(parameters.operationSeconds)) { [unowned self] in
            guard task.completion == nil else { return }  // expired meanwhile
            let last = app.defaults.integer(forKey: Self.lastOperationKey)
            if index != last % self.parameters.operations + 1 {
                app.defaults.set(app.defaults.integer(forKey: Self.outOfOrderKey) + 1, forKey: Self.outOfOrderKey)
            }
            app.defaults.set(index, forKey: Self.lastOperationKey)
            app.defaults.set(app.defaults.integer(forKey: Self.completedKey) + 1, forKey: Self.completedKey)
            if index < self.parameters.operations {
                self.runOperation(index + 1, app: app, task: task)
            } else {
                task.setTaskCompleted(success: true)
            }
        }
    }
}
