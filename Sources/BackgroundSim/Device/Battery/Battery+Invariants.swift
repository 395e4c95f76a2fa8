extension Battery: InternallyChecked {
    /// Traps unless the stored energy lies between empty and the capacity (to 10⁻⁹ %), the capacity is
    /// positive, the net power and the energy discharged are finite, and the energy discharged
    /// is not negative.
    func checkInvariants() {
        precondition(capacityJoules > 0 && capacityJoules.isFinite, "Battery: a capacity of \(capacityJoules) J")
        // The level, rounded to 10⁻⁹ % as the thresholds read it: a charge snapped to 100 % can
        // store a last bit above the capacity (capacity × 100 ÷ 100).
        precondition(energyJoules >= 0 && level <= 100, "Battery: \(energyJoules) J stored of \(capacityJoules)")
        precondition(netWatts.isFinite, "Battery: a net power of \(netWatts) W")
        precondition(dischargedJoules >= 0 && dischargedJoules.isFinite, "Battery: \(dischargedJoules) J discharged")
    }
}
