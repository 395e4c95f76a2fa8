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
        metrics.expirations += 1
        switch cause {
        case .timeUp: break
        case .userActivity: metrics.expirationsForUserActivity += 1
        case .powerLoss: metrics.expirationsForPowerLoss += 1
        case .networkLoss: metrics.expirationsForNetworkLoss += 1
        }
        record(.taskExpire(identifier: task.identifier, serial: serial, cause: cause))
        if let handler = task.expirationHandler {
            handler()
        } else {
            // With no handler, the task is marked complete and unsuccessful [A].
            task.setTaskCompleted(success: false)
        }
    }

    /// The app called `setTaskCompleted(success:)` on `task`.
    func taskDidComplete(_ task: BackgroundTask, success: Bool) {
        guard task.completionCalls == 1 else {
            metrics.duplicateCompletions += 1
            record(.duplicateCompletion(identifier: task.identifier, serial: task.serial))
            return
        }
        if success { metrics.tasksCompletedSuccessfully += 1 } else { metrics.tasksCompletedUnsuccessfully += 1 }
        record(.taskCompleted(identifier: task.identifier, serial: task.serial, success: success))
    }
}
