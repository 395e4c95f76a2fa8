extension ContinuedProcessingTasks: InternallyChecked {
    /// Traps unless each task has at most one cancel, the start event waits only for a queued
    /// request, and a stall is due only after the last progress.
    func checkInvariants() {
        if let stallTime = stall.time {
            precondition(stallTime > lastProgress, "ContinuedProcessingTasks: a stall due at \(stallTime), progress at \(lastProgress)")
        }
        for (index, cancel) in cancels.enumerated() {
            precondition(!cancels[..<index].contains { $0.serial == cancel.serial }, "ContinuedProcessingTasks: two cancels for task \(cancel.serial)")
        }
        precondition(!start.isScheduled || !queued.isEmpty, "ContinuedProcessingTasks: a start scheduled with nothing queued")
    }
}
