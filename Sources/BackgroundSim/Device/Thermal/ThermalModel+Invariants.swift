extension ThermalModel: InternallyChecked {
    /// Traps unless the heat input and the heat level are finite and not negative (the level
    /// moves from where it was towards the input, both not negative), and the thresholds the
    /// state reads are in order (validation requires it of a scenario).
    func checkInvariants() {
        precondition(inputWatts >= 0 && inputWatts.isFinite, "ThermalModel: a heat input of \(inputWatts) W")
        precondition(heatWatts >= 0 && heatWatts.isFinite, "ThermalModel: a heat level of \(heatWatts) W")
        precondition(parameters.fairWatts < parameters.seriousWatts && parameters.seriousWatts < parameters.criticalWatts,
                     "ThermalModel: thresholds \(parameters.fairWatts), \(parameters.seriousWatts), \(parameters.criticalWatts) W out of order")
    }
}
