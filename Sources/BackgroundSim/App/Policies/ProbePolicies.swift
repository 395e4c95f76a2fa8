import SimKernel

/// Measures how often the system runs an app refresh task: keeps one request pending with an
/// earliest begin 15 min after each submit; resubmits in its handler (before completing, as
/// Apple advises) and on entering the background.
public final class ProbeRefreshPolicy: BackgroundPolicy {
    public static let identifier = "probe.refresh"

    public init() {}

    public func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: Self.identifier) { task in
            self.submit(app)
            task.setTaskCompleted(success: true)
        }
    }

    public func didEnterBackground(_ app: AppContext) {
        submit(app)
    }

    func submit(_ app: AppContext) {
        var request = TaskRequest.appRefresh(identifier: Self.identifier)
        request.earliestBeginDate = app.date + .minutes(15)
        try? app.taskScheduler.submit(request)
    }
}

/// Measures how often the system runs a processing task that requires power and network: the
/// same pattern as ``ProbeRefreshPolicy`` with a `BGProcessingTaskRequest`.
public final class ProbeProcessingPolicy: BackgroundPolicy {
    public static let identifier = "probe.processing"

    public init() {}

    public func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: Self.identifier) { task in
            self.submit(app)
            task.setTaskCompleted(success: true)
        }
    }

    public func didEnterBackground(_ app: AppContext) {
        submit(app)
    }

    func submit(_ app: AppContext) {
        var request = TaskRequest.processing(identifier: Self.identifier, requiresExternalPower: true, requiresNetworkConnectivity: true)
        request.earliestBeginDate = app.date + .minutes(15)
        try? app.taskScheduler.submit(request)
    }
}
