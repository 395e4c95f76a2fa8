import SimKernel

/// A background task the system has launched, like `BGTask` (`BGAppRefreshTask`,
/// `BGProcessingTask`).
///
/// The launch handler receives it; the app sets ``expirationHandler`` and must call
/// ``setTaskCompleted(success:)`` exactly once. If the task is still running when its time
/// runs out, the expiration handler is called; if the task is then not completed within the
/// grace period, the system kills the app and throttles its future launches.
public final class BackgroundTask {
    /// The identifier the task was requested with.
    public let identifier: String
    public let kind: TaskRequest.Kind
    /// Called shortly before the task's time runs out (or when the system ends it early).
    public var expirationHandler: (() -> Void)?

    /// Set when the app completes the task.
    public private(set) var completion: Bool?
    /// How many times ``setTaskCompleted(success:)`` was called (more than once is a bug).
    public private(set) var completionCalls = 0

    let serial: UInt32
    weak var system: SimulatedSystem?

    init(identifier: String, kind: TaskRequest.Kind, serial: UInt32, system: SimulatedSystem) {
        self.identifier = identifier
        self.kind = kind
        self.serial = serial
        self.system = system
    }

    /// Tells the system the task is done, like `BGTask.setTaskCompleted(success:)`.
    public func setTaskCompleted(success: Bool) {
        completionCalls += 1
        if completionCalls == 1 { completion = success }
        system?.taskDidComplete(self, success: success)
    }
}
