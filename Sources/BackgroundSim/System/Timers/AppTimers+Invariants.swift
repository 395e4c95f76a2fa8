extension AppTimers: InternallyChecked {
    /// Traps unless ids are issued and unique, and an overdue timer waits for no event.
    func checkInvariants() {
        for (index, entry) in entries.enumerated() {
            precondition(entry.id > 0 && entry.id < nextID, "AppTimers: id \(entry.id) never issued")
            precondition(!entries[..<index].contains { $0.id == entry.id }, "AppTimers: id \(entry.id) twice")
            precondition(!(entry.overdue && entry.event != nil), "AppTimers: timer \(entry.id) overdue with an event")
        }
    }
}
