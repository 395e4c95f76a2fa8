extension BackgroundAssertions: InternallyChecked {
    /// Traps unless ids are valid, issued, unique and in the order they began, and no warning
    /// is scheduled once given.
    func checkInvariants() {
        for (index, assertion) in held.enumerated() {
            precondition(assertion.id.rawValue > 0 && assertion.id.rawValue < nextID, "BackgroundAssertions: id \(assertion.id.rawValue) never issued")
            precondition(index == 0 || held[index - 1].id.rawValue < assertion.id.rawValue, "BackgroundAssertions: ids out of order")
        }
        precondition(!(warned && warning.isScheduled), "BackgroundAssertions: warned, and the warning still scheduled")
    }
}
