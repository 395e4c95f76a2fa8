extension ContinuedProcessingTasks: InternallyChecked {
    /// Traps unless each task has at most one cancel, and the start event waits only for a
    /// queued request.
    func checkInvariants() {
        for (index, cancel) in cancels.enumerated() {
            precondition(!cancels[..<index].contains { $0.serial == cancel.serial }, "ContinuedProcessingTasks: two cancels for task \(cancel.serial)")
        }
        precondition(!start.isScheduled || !queued.isEmpty, "ContinuedProcessingTasks: a start scheduled with nothing queued")
    }
}
