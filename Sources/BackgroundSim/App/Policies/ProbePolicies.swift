import SimKernel

/// Measures how often the system runs a background task: keeps one request pending with an
/// earliest begin 15 min after each submit; resubmits in its handler (before completing, as
/// Apple advises) and on entering the background.
///
/// The refresh probe uses a `BGAppRefreshTaskRequest`; the processing probe a
/// `BGProcessingTaskRequest` that requires external power and network connectivity.
public final class ProbePolicy: BackgroundPolicy {
    public static let refreshIdentifier = "probe.refresh"
    public static let processingIdentifier = "probe.processing"

    /// Which kind of task the probe requests.
    public let kind: TaskRequest.Kind

    public init(kind: TaskRequest.Kind) {
        self.kind = kind
    }

    var identifier: String { kind == .appRefresh ? Self.refreshIdentifier : Self.processingIdentifier }

    public func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: identifier) { task in
            self.submit(app)
            task.setTaskCompleted(success: true)
        }
    }

    public func didEnterBackground(_ app: AppContext) {
        submit(app)
    }

    func submit(_ app: AppContext) {
        var request = kind == .appRefresh
            ? TaskRequest.appRefresh(identifier: identifier)
            : TaskRequest.processing(identifier: identifier, requiresExternalPower: true, requiresNetworkConnectivity: true)
        request.earliestBeginDate = app.date + .minutes(15)
        try? app.taskScheduler.submit(request)
    }
}
