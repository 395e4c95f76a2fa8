import BackgroundSim

/// A task the system launched, as the app's process holds it: its handle and what it is, and
/// what the app can do with it.
struct SystemTask {
    let handle: TaskHandle
    let identifier: String
    let kind: BackgroundSim.BackgroundTask.Kind
    let process: SimulatedProcess

    /// `setTaskCompleted(success:)`.
    func setTaskCompleted(success: Bool) {
        process.call(.completeTask(task: handle, success: success))
    }

    /// Sets (or, for `nil`, clears) the task's expiration handler: `body`, run when the system
    /// expires the task.
    func setExpirationHandler(_ body: (() -> Void)?) {
        let handler = body.map { body in process.callbacks.add(once: false, body) }
        process.call(.setExpirationHandler(task: handle, handler: handler))
    }

    /// Records that the system cancelled the Swift task running a SwiftUI action for the task.
    func recordActionCancelled() {
        process.call(.recordActionCancelled(task: handle))
    }

    /// Hands the task's progress to the system; returns whether the task is still running.
    func reportProgress(completed: Int64, total: Int64) -> Bool {
        guard case .bool(let running) = process.call(.reportProgress(task: handle, completed: completed, total: total)) else { return false }
        return running
    }
}
