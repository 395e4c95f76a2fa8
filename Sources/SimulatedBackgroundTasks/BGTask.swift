import BackgroundSim

/// `BGTask`: a task the system launched, handed to the handler the app registered for its
/// identifier. `task as? BGAppRefreshTask` and `task as? BGProcessingTask` work as on iOS.
open class BGTask: @unchecked Sendable {
    let underlying: SystemTask

    init(_ underlying: SystemTask) {
        self.underlying = underlying
    }

    /// The identifier the task was requested with.
    open var identifier: String { underlying.identifier }

    /// Called when the task's time is running out; the app should stop its work and call
    /// ``setTaskCompleted(success:)``. The app's code runs in the simulated process, and the
    /// async work it starts runs before the system ends the task.
    open var expirationHandler: (() -> Void)? {
        didSet {
            let process = underlying.process
            underlying.setExpirationHandler(expirationHandler.map { handler in { process.run(handler) } })
        }
    }

    /// Tells the system the task is done.
    open func setTaskCompleted(success: Bool) {
        underlying.setTaskCompleted(success: success)
    }

    /// The subclass for a launched task of `underlying`'s kind.
    static func make(_ underlying: SystemTask) -> BGTask {
        switch underlying.kind {
        case .appRefresh: BGAppRefreshTask(underlying)
        case .processing: BGProcessingTask(underlying)
        case .continuedProcessing: BGContinuedProcessingTask(underlying)
        }
    }
}

/// `BGAppRefreshTask`.
open class BGAppRefreshTask: BGTask, @unchecked Sendable {}

/// `BGProcessingTask`.
open class BGProcessingTask: BGTask, @unchecked Sendable {}

/// `BGContinuedProcessingTask` (iOS 26): the task of a `BGContinuedProcessingTaskRequest`.
///
/// The app reports its work in ``progress``, as on iOS: the system expires a task that makes no
/// progress for a while (cause `noProgress`), and the user may cancel it (`userCancelled`).
/// The simulation reads the progress each time the app's code has run, at the same simulated
/// instant. (On iOS the class conforms to `ProgressReporting`; here it has the property
/// without the conformance, which on Linux needs an `NSObject`.)
open class BGContinuedProcessingTask: BGTask, @unchecked Sendable {
    /// The title shown to the user.
    open private(set) var title = ""
    /// The subtitle shown to the user.
    open private(set) var subtitle = ""
    /// The task's progress: set its `totalUnitCount` and raise its `completedUnitCount` as the
    /// work goes on.
    public let progress = Progress(totalUnitCount: 0)

    override init(_ underlying: SystemTask) {
        super.init(underlying)
        underlying.process.continuedTasks.append(self)
    }

    /// Changes what the user sees.
    open func updateTitle(_ title: String, subtitle: String) {
        self.title = title
        self.subtitle = subtitle
    }

    /// Hands ``progress`` to the system, which takes it if it changed since it last read it;
    /// returns whether the task is still running.
    func reportProgress() -> Bool {
        underlying.reportProgress(completed: progress.completedUnitCount, total: progress.totalUnitCount)
    }
}
