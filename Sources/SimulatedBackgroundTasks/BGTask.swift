import BackgroundSim

/// `BGTask`: a task the system launched, handed to the handler the app registered for its
/// identifier. `task as? BGAppRefreshTask` and `task as? BGProcessingTask` work as on iOS.
open class BGTask: @unchecked Sendable {
    let underlying: BackgroundSim.BackgroundTask
    let process: SimulatedProcess

    init(_ underlying: BackgroundSim.BackgroundTask, process: SimulatedProcess) {
        self.underlying = underlying
        self.process = process
    }

    /// The identifier the task was requested with.
    open var identifier: String { underlying.identifier }

    /// Called when the task's time is running out; the app should stop its work and call
    /// ``setTaskCompleted(success:)``. The app's code runs in the simulated process, and the
    /// async work it starts runs before the system ends the task.
    open var expirationHandler: (() -> Void)? {
        didSet {
            guard let handler = expirationHandler else {
                underlying.expirationHandler = nil
                return
            }
            let process = self.process
            underlying.expirationHandler = { process.run(handler) }
        }
    }

    /// Tells the system the task is done.
    open func setTaskCompleted(success: Bool) {
        underlying.setTaskCompleted(success: success)
    }

    /// The subclass for a launched task of `underlying`'s kind.
    static func make(_ underlying: BackgroundSim.BackgroundTask, process: SimulatedProcess) -> BGTask {
        switch underlying.kind {
        case .appRefresh: BGAppRefreshTask(underlying, process: process)
        case .processing: BGProcessingTask(underlying, process: process)
        case .continuedProcessing: BGContinuedProcessingTask(underlying, process: process)
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
    /// The counts the system last read.
    private var reported: (completed: Int64, total: Int64) = (0, 0)

    override init(_ underlying: BackgroundSim.BackgroundTask, process: SimulatedProcess) {
        super.init(underlying, process: process)
        process.continuedTasks.append(self)
    }

    /// Changes what the user sees.
    open func updateTitle(_ title: String, subtitle: String) {
        self.title = title
        self.subtitle = subtitle
    }

    /// Hands ``progress`` to the system if it changed since it last read it; returns whether
    /// the task is still running.
    func reportProgress() -> Bool {
        let now = (progress.completedUnitCount, progress.totalUnitCount)
        if now != reported {
            reported = now
            underlying.updateProgress(completedUnitCount: now.0, totalUnitCount: now.1)
        }
        return underlying.completion == nil
    }
}
