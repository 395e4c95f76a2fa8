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
        default: BGTask(underlying, process: process)
        }
    }
}

/// `BGAppRefreshTask`.
open class BGAppRefreshTask: BGTask, @unchecked Sendable {}

/// `BGProcessingTask`.
open class BGProcessingTask: BGTask, @unchecked Sendable {}
