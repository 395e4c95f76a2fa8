import SimKernel

/// Measures how often the system runs a background task: keeps one request pending with an
/// earliest begin 15 min after each submit; resubmits in its handler (before completing, as
/// Apple advises) and on entering the background.
///
/// The refresh probe uses a `BGAppRefreshTaskRequest`; the processing probe a
/// `BGProcessingTaskRequest` that requires external power and network connectivity.
package final class ProbePolicy: BackgroundPolicy {
    package static let refreshIdentifier = "probe.refresh"
    package static let processingIdentifier = "probe.processing"

    /// Which kind of task the probe requests.
    package let kind: TaskRequest.Kind

    package init(kind: TaskRequest.Kind) {
        self.kind = kind
    }

    var identifier: String { kind == .appRefresh ? Self.refreshIdentifier : Self.processingIdentifier }

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: identifier) { task in
            self.submit(app)
            task.setTaskCompleted(success: true)
        }
    }

    package func didEnterBackground(_ app: AppContext) {
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
