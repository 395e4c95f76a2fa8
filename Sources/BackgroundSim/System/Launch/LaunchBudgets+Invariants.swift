extension LaunchBudgets: InternallyChecked {
    /// Traps unless each bucket lies within a day's allowance either way (its debt at most a
    /// day's worth), the drawn totals it has seen never fall (the app's background energy and
    /// bytes only grow), and the factor it gives is a chance.
    func checkInvariants() {
        precondition(abs(energyLevel) <= energyCapacity, "LaunchBudgets: an energy level of \(energyLevel) J of \(energyCapacity)")
        precondition(abs(dataLevel) <= dataCapacity, "LaunchBudgets: a data level of \(dataLevel) bytes of \(dataCapacity)")
        precondition(energySeen >= 0 && dataSeen >= 0, "LaunchBudgets: drawn totals \(energySeen) J, \(dataSeen) bytes")
        precondition((0...1).contains(factor.value), "LaunchBudgets: a factor of \(factor.value)")
    }
}
