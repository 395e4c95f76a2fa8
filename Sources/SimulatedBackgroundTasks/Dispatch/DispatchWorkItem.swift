import Dispatch

/// `DispatchWorkItem`: a block that can be queued, cancelled and waited on. In the app's
/// simulated code it runs on the process's executor; a `wait()` for an item that has not run
/// would wait forever (nothing runs while the app's code waits, in simulated time), and
/// crashes the process with its file and line (``CrashReason/blockingWait``).
public final class DispatchWorkItem: @unchecked Sendable {
    private let block: () -> Void
    private var notifications: [(queue: DispatchQueue, work: @Sendable () -> Void)] = []
    private var hasRun = false

    /// Whether ``cancel()`` was called.
    public private(set) var isCancelled = false

    public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], block: @escaping @Sendable @convention(block) () -> Void) {
        self.block = block
    }

    /// Runs the block now (unless cancelled), then queues the work to run after it.
    public func perform() {
        if !isCancelled { block() }
        hasRun = true
        let notifications = self.notifications
        self.notifications.removeAll()
        for notification in notifications { notification.queue.async(execute: notification.work) }
    }

    /// The block will not run if it has not started.
    public func cancel() {
        isCancelled = true
    }

    /// Queues `work` on `queue` once the item has run.
    public func notify(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], queue: DispatchQueue,
                       execute work: @escaping @Sendable @convention(block) () -> Void) {
        if hasRun { queue.async(execute: work) } else { notifications.append((queue, work)) }
    }

    /// Returns once the item has run: at once if it has; otherwise the process crashes
    /// (nothing can run it while the app's code waits, in simulated time).
    public func wait(file: StaticString = #fileID, line: UInt = #line) {
        guard !hasRun, let process = SimulatedProcess.current else { return }
        process.reportBlockingWait("DispatchWorkItem.wait() for an item that has not run", file: file, line: line)
    }

    /// Waits until `timeout` for the item to run: `.success` if it has, `.timedOut` for a
    /// timeout already past; otherwise the process crashes, as ``wait(file:line:)``.
    public func wait(timeout: DispatchTime, file: StaticString = #fileID, line: UInt = #line) -> DispatchTimeoutResult {
        if hasRun { return .success }
        guard let process = SimulatedProcess.current else { return .timedOut }
        if timeout <= .now() { return .timedOut }
        process.reportBlockingWait("DispatchWorkItem.wait(timeout:) for an item that has not run", file: file, line: line)
        return .timedOut
    }

    /// Dispatch's work item for this one, outside the simulation.
    var dispatch: Dispatch.DispatchWorkItem {
        Dispatch.DispatchWorkItem { self.perform() }
    }
}
