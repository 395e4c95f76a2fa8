extension RunningTasks: InternallyChecked {
    /// Traps unless serials are unique and issued, and each task waits on the right deadline:
    /// its expiration until it expires, then its grace period (once reconciled); a task a
    /// debugger command launched never on its expiration.
    func checkInvariants() {
        for (index, entry) in entries.enumerated() {
            let serial = entry.task.serial
            precondition(serial < nextSerial, "RunningTasks: serial \(serial) was never issued")
            precondition(!entries[..<index].contains { $0.task.serial == serial }, "RunningTasks: serial \(serial) twice")
            precondition(!entry.isInGrace || entry.expired, "RunningTasks: task \(serial) in grace without expiring")
            if case .expireTask(let owner) = entry.window?.miss {
                precondition(owner == serial && !entry.expired, "RunningTasks: task \(serial) waits on the wrong expiration")
                precondition(!entry.simulated, "RunningTasks: the debugger's task \(serial) has an allotment")
            }
        }
    }
}
