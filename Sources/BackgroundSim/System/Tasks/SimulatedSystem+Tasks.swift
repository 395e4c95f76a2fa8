import SimKernel

// Ending running tasks: expiration (time up, or the conditions they needed went away) and the
// app's `setTaskCompleted`.
extension SimulatedSystem {
    /// Expires every running task `predicate` selects that has not expired or completed.
    func expireRunning(where predicate: (RunningTasks.Entry) -> Bool, cause: ExpirationCause) {
        for serial in running.serials(where: predicate) {
            expire(serial: serial, cause: cause)
        }
    }

    /// Calls the task's expiration handler; if it is still not completed, it has the grace period
    /// (``reconcile(in:)`` schedules it).
    func expire(serial: UInt32, cause: ExpirationCause) {
        guard let task = running.beginExpiration(serial: serial) else { return }
        record(.taskExpire(identifier: task.identifier, serial: serial, cause: cause))
        if let handler = task.expirationHandler {
            handler()
        } else {
            // With no handler, the system marks the task complete and unsuccessful [A]
            // (`BGTask.expirationHandler`); the app's own later call then finds it complete.
            task.completeBySystem()
        }
    }

    /// `task` was completed: by the app's `setTaskCompleted(success:)`, or, `bySystem`, by the
    /// system when it expired with no expiration handler.
    func taskDidComplete(_ task: BackgroundTask, success: Bool, bySystem: Bool = false) {
        if !bySystem {
            guard task.completionCalls == 1 else {
                record(.duplicateCompletion(identifier: task.identifier, serial: task.serial))
                return
            }
            // The app's first call on a task the system already completed: nothing left to do.
            guard !task.wasCompletedBySystem else { return }
        }
        record(.taskCompleted(identifier: task.identifier, serial: task.serial, success: success))
    }
}
