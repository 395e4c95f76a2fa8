import SimKernel

/// A request to launch the app in the background later, like `BGAppRefreshTaskRequest` and
/// `BGProcessingTaskRequest`, or to keep work the user started running after they leave the
/// app, like `BGContinuedProcessingTaskRequest` (iOS 26).
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
        /// `BGContinuedProcessingTask` (iOS 26): work the user started in the foreground that
        /// keeps running after they leave the app, for as long as it makes progress.
        case continuedProcessing = 2

        /// The kind's name in traces and reports: "appRefresh", "processing" or
        /// "continuedProcessing".
        public var name: String {
            switch self {
            case .appRefresh: "appRefresh"
            case .processing: "processing"
            case .continuedProcessing: "continuedProcessing"
            }
        }

        /// The `UIBackgroundModes` entry a request of this kind needs. Continued processing is
        /// taken to need "Background processing", as `BGProcessingTaskRequest` does [Inf].
        public var backgroundMode: BackgroundMode {
            switch self {
            case .appRefresh: .fetch
            case .processing, .continuedProcessing: .processing
            }
        }
    }

    /// What `submit` does with a continued-processing request the system cannot start at once,
    /// like `BGContinuedProcessingTaskRequest.SubmissionStrategy`.
    public enum SubmissionStrategy: UInt8, Sendable, Hashable {
        /// Throw ``TaskSchedulerError/Code/immediateRunIneligible``.
        case fail = 0
        /// Wait at the back of a queue and start as soon as a slot frees (the default). A
        /// force-quit cancels queued requests [A].
        case queue = 1
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
    /// Continued processing only: what to do if the task cannot start at once. Default
    /// ``SubmissionStrategy/queue`` [A].
    public var strategy = SubmissionStrategy.queue

    /// A `BGAppRefreshTaskRequest`.
    public static func appRefresh(identifier: String) -> TaskRequest {
        TaskRequest(identifier: identifier, kind: .appRefresh)
    }

    /// A `BGProcessingTaskRequest`.
    public static func processing(identifier: String, requiresExternalPower: Bool = false, requiresNetworkConnectivity: Bool = false) -> TaskRequest {
        TaskRequest(identifier: identifier, kind: .processing, requiresExternalPower: requiresExternalPower,
                    requiresNetworkConnectivity: requiresNetworkConnectivity)
    }

    /// A `BGContinuedProcessingTaskRequest`: submit it in the foreground, on the user's action;
    /// it starts at once if the system can (its `earliestBeginDate` is ignored [A]). The
    /// identifier may match a wildcard permitted identifier (`com.example.export.*`). The title
    /// and subtitle the system shows are not modelled.
    public static func continuedProcessing(identifier: String, strategy: SubmissionStrategy = .queue) -> TaskRequest {
        TaskRequest(identifier: identifier, kind: .continuedProcessing, strategy: strategy)
    }

    /// Whether `identifier` is `permitted`'s entry or matches one of its wildcard entries: an
    /// entry ending in `.*` matches every identifier that begins with what precedes the `*`,
    /// for continued-processing tasks only [A].
    static func isPermitted(_ identifier: String, kind: Kind, in permitted: [String]) -> Bool {
        permitted.contains { entry in
            entry == identifier
                || (kind == .continuedProcessing && entry.hasSuffix(".*") && identifier.hasPrefix(entry.dropLast()) && identifier.count > entry.count - 1)
        }
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
