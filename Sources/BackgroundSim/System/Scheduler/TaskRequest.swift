import SimKernel

/// A request to launch the app in the background later, like `BGAppRefreshTaskRequest` and
/// `BGProcessingTaskRequest`. Work the user starts in the foreground and that should keep running
/// after they leave is a ``ContinuedProcessingTaskRequest`` instead.
///
///     var request = TaskRequest.appRefresh(identifier: "com.example.refresh")
///     request.earliestBeginDate = app.date + .minutes(15)
///     try app.taskScheduler.submit(request)
public struct TaskRequest: Sendable, Hashable {
    /// The kind of background task.
    public enum Kind: UInt8, Sendable, Hashable {
        /// `BGAppRefreshTask`: up to about 30 s, for keeping content fresh.
        case appRefresh = 0
        /// `BGProcessingTask`: minutes, while the device is idle.
        case processing = 1

        /// The kind's name in traces and reports: "appRefresh" or "processing".
        public var name: String { BackgroundTask.Kind(self).name }

        /// The `UIBackgroundModes` entry a request of this kind needs.
        public var backgroundMode: BackgroundMode { BackgroundTask.Kind(self).backgroundMode }
    }

    /// The task identifier; it must be listed in the app's permitted identifiers.
    public var identifier: String
    public var kind: Kind
    /// The earliest time the task may start, on the *device* clock; `nil` means no delay.
    /// A lower bound only: the system decides when the task actually runs.
    public var earliestBeginDate: SimInstant?
    /// Processing only: run only on external power (this also disables the CPU monitor).
    public var requiresExternalPower = false
    /// Processing only: run only with a network connection.
    public var requiresNetworkConnectivity = false

    /// A `BGAppRefreshTaskRequest`.
    public static func appRefresh(identifier: String) -> TaskRequest {
        TaskRequest(identifier: identifier, kind: .appRefresh)
    }

    /// A `BGProcessingTaskRequest`.
    public static func processing(identifier: String, requiresExternalPower: Bool = false, requiresNetworkConnectivity: Bool = false) -> TaskRequest {
        TaskRequest(identifier: identifier, kind: .processing, requiresExternalPower: requiresExternalPower,
                    requiresNetworkConnectivity: requiresNetworkConnectivity)
    }

}

/// Why `submit` failed, like `BGTaskScheduler.Error.Code`.
public struct TaskSchedulerError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// Background App Refresh is off (or the app cannot use background tasks).
        case unavailable = 1
        /// More than 1 refresh or 10 processing requests would be pending.
        case tooManyPendingTaskRequests = 2
        /// The identifier is not permitted, or the background mode is missing.
        case notPermitted = 3
        /// A continued-processing request with the ``TaskRequest/SubmissionStrategy/fail``
        /// strategy could not start at once.
        case immediateRunIneligible = 4

        /// Apple's name for the code.
        public var name: String {
            switch self {
            case .unavailable: "unavailable"
            case .tooManyPendingTaskRequests: "tooManyPendingTaskRequests"
            case .notPermitted: "notPermitted"
            case .immediateRunIneligible: "immediateRunIneligible"
            }
        }
    }

    public var code: Code
    public var description: String { "BGTaskScheduler.Error.\(code.name)" }
}
