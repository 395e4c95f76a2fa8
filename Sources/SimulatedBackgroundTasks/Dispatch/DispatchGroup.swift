import Dispatch

/// `DispatchGroup`: work counted in and out, and blocks to run when none is left. In the app's
/// simulated code, `notify` queues its block on the process's executor once the count is
/// zero; a `wait()` while work is in the group would wait forever (nothing runs while the app's
/// code waits, in simulated time), and crashes the process with its file and line
/// (``CrashReason/blockingWait``). Outside the app's code it is Dispatch's own group.
public final class DispatchGroup: @unchecked Sendable {
    /// Dispatch's own group, for work outside the app's simulated code.
    let dispatch = Dispatch.DispatchGroup()
    private var count = 0
    private var notifications: [(queue: DispatchQueue, work: @Sendable () -> Void)] = []

    public init() {}

    /// One more piece of work in the group.
    public func enter() {
        guard SimulatedProcess.current != nil else { return dispatch.enter() }
        count += 1
    }

    /// One piece of work left the group; at zero, the notifications are queued.
    public func leave() {
        guard SimulatedProcess.current != nil else { return dispatch.leave() }
        precondition(count > 0, "DispatchGroup.leave() without a matching enter()")
        count -= 1
        guard count == 0 else { return }
        let notifications = self.notifications
        self.notifications.removeAll()
        for notification in notifications { notification.queue.async(execute: notification.work) }
    }

    /// Queues `work` on `queue` once the group is empty (at once if it is).
    public func notify(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], queue: DispatchQueue,
                       execute work: @escaping @Sendable @convention(block) () -> Void) {
        guard SimulatedProcess.current != nil else {
            dispatch.notify(qos: qos, flags: flags, queue: .global()) { queue.async(execute: work) }
            return
        }
        if count == 0 { queue.async(execute: work) } else { notifications.append((queue, work)) }
    }

    /// Returns once the group is empty: at once if it is; otherwise the process crashes.
    public func wait(file: StaticString = #fileID, line: UInt = #line) {
        guard let process = SimulatedProcess.current else { return dispatch.wait() }
        guard count > 0 else { return }
        process.reportBlockingWait("DispatchGroup.wait() with work in the group", file: file, line: line)
    }

    /// Waits until `timeout` for the group to be empty: `.success` if it is, `.timedOut` for a
    /// timeout already past; otherwise the process crashes, as ``wait(file:line:)``.
    public func wait(timeout: DispatchTime, file: StaticString = #fileID, line: UInt = #line) -> DispatchTimeoutResult {
        guard let process = SimulatedProcess.current else { return dispatch.wait(timeout: timeout.dispatch) }
        if count == 0 { return .success }
        if timeout <= .now() { return .timedOut }
        process.reportBlockingWait("DispatchGroup.wait(timeout:) with work in the group", file: file, line: line)
        return .timedOut
    }
}

/// `DispatchSemaphore`: a count of resources. In the app's simulated code, a `wait()` takes one
/// if one is free, and otherwise would wait forever (what would signal it cannot run while the
/// app's code waits, in simulated time): the process crashes with the wait's file and line
/// (``CrashReason/blockingWait``). Outside the app's code it is Dispatch's own semaphore.
public final class DispatchSemaphore: @unchecked Sendable {
    private let dispatch: Dispatch.DispatchSemaphore
    private var value: Int

    public init(value: Int) {
        dispatch = Dispatch.DispatchSemaphore(value: value)
        self.value = value
    }

    /// Frees one; returns 0, as no thread was waiting.
    @discardableResult
    public func signal() -> Int {
        guard SimulatedProcess.current != nil else { return dispatch.signal() }
        value += 1
        return 0
    }

    /// Takes one if one is free; otherwise the process crashes.
    public func wait(file: StaticString = #fileID, line: UInt = #line) {
        guard let process = SimulatedProcess.current else { return dispatch.wait() }
        if value > 0 {
            value -= 1
            return
        }
        process.reportBlockingWait("DispatchSemaphore.wait() with none free", file: file, line: line)
    }

    /// Takes one if one is free (`.success`), or `.timedOut` for a timeout already past;
    /// otherwise the process crashes, as ``wait(file:line:)``.
    public func wait(timeout: DispatchTime, file: StaticString = #fileID, line: UInt = #line) -> DispatchTimeoutResult {
        guard let process = SimulatedProcess.current else { return dispatch.wait(timeout: timeout.dispatch) }
        if value > 0 {
            value -= 1
            return .success
        }
        if timeout <= .now() { return .timedOut }
        process.reportBlockingWait("DispatchSemaphore.wait(timeout:) with none free", file: file, line: line)
        return .timedOut
    }
}
