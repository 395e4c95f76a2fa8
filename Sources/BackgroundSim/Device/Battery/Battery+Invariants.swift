extension Battery: InternallyChecked {
    /// Traps unless the stored energy lies between empty and the capacity, the capacity is
    /// positive, the net power and the energy discharged are finite, and the energy discharged
    /// is not negative.
    func checkInvariants() {
        precondition(capacityJoules > 0 && capacityJoules.isFinite, "Battery: a capacity of \(capacityJoules) J")
        precondition(energyJoules >= 0 && energyJoules <= capacityJoules, "Battery: \(energyJoules) J stored of \(capacityJoules)")
        precondition(netWatts.isFinite, "Battery: a net power of \(netWatts) W")
        precondition(dischargedJoules >= 0 && dischargedJoules.isFinite, "Battery: \(dischargedJoules) J discharged")
    }
}
