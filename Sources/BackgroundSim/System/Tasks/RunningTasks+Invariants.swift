extension RunningTasks: InternallyChecked {
    /// Traps unless serials are unique and issued, and each task waits on exactly one event
    /// of the right kind: its expiration until it expires, then its grace period (once
    /// reconciled).
    func checkInvariants() {
        for (index, entry) in entries.enumerated() {
            let serial = entry.task.serial
            precondition(serial < nextSerial, "RunningTasks: serial \(serial) was never issued")
            precondition(!entries[..<index].contains { $0.task.serial == serial }, "RunningTasks: serial \(serial) twice")
            precondition(entry.expiration == nil || entry.grace == nil, "RunningTasks: task \(serial) has both events")
            precondition(entry.grace == nil || entry.expired, "RunningTasks: task \(serial) in grace without expiring")
        }
    }
}
