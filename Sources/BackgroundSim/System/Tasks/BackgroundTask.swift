import SimKernel

/// A background task the system has launched, like `BGTask` (`BGAppRefreshTask`,
/// `BGProcessingTask`, `BGContinuedProcessingTask`).
///
/// The launch handler receives it; the app sets ``expirationHandler`` and must call
/// ``setTaskCompleted(success:)`` exactly once. If the task is still running when its time
/// runs out, the expiration handler is called; if the task is then not completed within the
/// grace period, the system kills the app and throttles its future launches.
public final class BackgroundTask {
    /// The kind of a task, like `BGTask`'s subclasses.
    public enum Kind: UInt8, Sendable, Hashable, CaseIterable {
        /// `BGAppRefreshTask`: up to about 30 s, for keeping content fresh.
        case appRefresh = 0
        /// `BGProcessingTask`: minutes, while the device is idle.
        case processing = 1
        /// `BGContinuedProcessingTask` (iOS 26): work the user started in the foreground that
        /// keeps running after they leave the app, for as long as it makes progress.
        case continuedProcessing = 2

        /// The kind of task a request of `kind` launches.
        public init(_ kind: TaskRequest.Kind) {
            switch kind {
            case .appRefresh: self = .appRefresh
            case .processing: self = .processing
            }
        }

        /// The kind's name in traces and reports: "appRefresh", "processing" or
        /// "continuedProcessing".
        public var name: String {
            switch self {
            case .appRefresh: "appRefresh"
            case .processing: "processing"
            case .continuedProcessing: "continuedProcessing"
            }
        }

        /// The `UIBackgroundModes` entry the app needs for tasks of this kind. Continued
        /// processing is taken to need "Background processing", as `BGProcessingTaskRequest`
        /// does [Inf].
        public var backgroundMode: BackgroundMode {
            switch self {
            case .appRefresh: .fetch
            case .processing, .continuedProcessing: .processing
            }
        }
    }

    /// The identifier the task was requested with.
    public let identifier: String
    public let kind: Kind
    /// Called shortly before the task's time runs out (or when the system ends it early).
    public var expirationHandler: (() -> Void)?

    /// Set when the task is completed (by the app, or by the system: see ``wasCompletedBySystem``).
    public private(set) var completion: Bool?
    /// How many times the app called ``setTaskCompleted(success:)`` (more than once is a bug).
    public private(set) var completionCalls = 0
    /// The system completed the task, unsuccessfully, because it expired with no
    /// ``expirationHandler`` set [A]. A later `setTaskCompleted` from the app then does nothing
    /// (a second one is still a bug).
    public private(set) var wasCompletedBySystem = false

    let serial: UInt32
    weak var system: SimulatedSystem?

    init(identifier: String, kind: Kind, serial: UInt32, system: SimulatedSystem) {
        self.identifier = identifier
        self.kind = kind
        self.serial = serial
        self.system = system
    }

    /// Tells the system the task is done, like `BGTask.setTaskCompleted(success:)`.
    public func setTaskCompleted(success: Bool) {
        completionCalls += 1
        if completion == nil { completion = success }
        system?.taskDidComplete(self, success: success)
    }

    /// The work done and the work in all, like a `BGContinuedProcessingTask`'s `progress`
    /// (`completedUnitCount`, `totalUnitCount`); zero until the app reports.
    public private(set) var completedUnitCount: Int64 = 0
    public private(set) var totalUnitCount: Int64 = 0

    /// Reports progress on a continued-processing task, like setting its `progress`. A higher
    /// `completedUnitCount` than before counts as progress for the system's stall check; the
    /// app's work executor making progress counts too, so an app whose work runs in the
    /// executor need not call this. Ignored for other kinds and after completion.
    public func updateProgress(completedUnitCount: Int64, totalUnitCount: Int64) {
        guard kind == .continuedProcessing, completion == nil else { return }
        let advanced = completedUnitCount > self.completedUnitCount
        self.completedUnitCount = completedUnitCount
        self.totalUnitCount = totalUnitCount
        if advanced { system?.continuedProcessingProgressed() }
    }

    /// Records that the system cancelled the Swift task running the app's async action for this
    /// task, as the task expired (SwiftUI's `backgroundTask(_:action:)`; SimulatedBackgroundTasks
    /// runs such actions).
    package func recordActionCancelled() {
        system?.record(.taskActionCancelled(identifier: identifier, serial: serial))
    }

    /// The system completes the task, unsuccessfully: it expired with no expiration handler.
    func completeBySystem() {
        guard completion == nil else { return }
        completion = false
        wasCompletedBySystem = true
        system?.taskDidComplete(self, success: false, bySystem: true)
    }
}
