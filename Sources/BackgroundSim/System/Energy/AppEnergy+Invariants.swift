extension AppEnergy: InternallyChecked {
    /// Traps unless the radio's phase-change event is due exactly when the radio says, power is
    /// finite and not negative, and the app holds the radio only while it is connected.
    func checkInvariants() {
        precondition(radioPhase.time == radio.nextPhaseChange, "AppEnergy: radio phase event at \(String(describing: radioPhase.time)), radio changes at \(String(describing: radio.nextPhaseChange))")
        for watts in [power.cpu, power.radioPromotion, power.radioActive, power.radioTail, power.launchOverhead] {
            precondition(watts >= 0 && watts.isFinite, "AppEnergy: power \(watts) W")
        }
        precondition(!transferring || radio.activeTransfers > 0, "AppEnergy: transferring with no transfer on the radio")
    }
}
