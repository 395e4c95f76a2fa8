extension EnergyLedger: InternallyChecked {
    /// Traps unless every consumer's power and every account is finite and not negative, what
    /// a consumer drew while the app was in the background is no more than it drew in all, and
    /// the app's background energy from the battery is no more than its consumers drew from it
    /// (both to 10⁻⁹ of the total: the accounts add the same joules in different orders).
    func checkInvariants() {
        var appFromBattery = 0.0
        for consumer in Consumer.allCases {
            let power = watts(of: consumer), battery = batteryJoules(of: consumer), charger = chargerJoules(of: consumer)
            precondition(power >= 0 && power.isFinite, "EnergyLedger: \(consumer) at \(power) W")
            precondition(battery >= 0 && charger >= 0 && battery.isFinite && charger.isFinite,
                         "EnergyLedger: \(consumer) drew \(battery) J from the battery, \(charger) J from the charger")
            precondition(backgroundJoules(of: consumer) <= (battery + charger) * (1 + 1e-9),
                         "EnergyLedger: \(consumer) drew \(backgroundJoules(of: consumer)) J in the background of \(battery + charger) J")
            if consumer.isApp { appFromBattery += battery }
        }
        precondition(appBackgroundBatteryJoules >= 0 && appBackgroundBatteryJoules <= appFromBattery * (1 + 1e-9),
                     "EnergyLedger: the app's \(appBackgroundBatteryJoules) J in the background of \(appFromBattery) J from the battery")
    }
}
