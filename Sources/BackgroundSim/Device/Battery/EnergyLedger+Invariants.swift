extension EnergyLedger: InternallyChecked {
    /// Traps unless every consumer's power and every account is finite and not negative, what
    /// a consumer drew while the app was in the background is no more than it drew in all, and
    /// the app's background energy from the battery is no more than its consumers drew from it
    /// (both to 10⁻⁹ of the total: the accounts add the same joules in different orders).
    func checkInvariants() {
        var appFromBattery = 0.0
        for index in watts.indices {
            let power = watts[index], battery = fromBattery[index], charger = fromCharger[index]
            precondition(power >= 0 && power.isFinite, "EnergyLedger: \(Consumer(rawValue: index)!) at \(power) W")
            precondition(battery >= 0 && charger >= 0 && battery.isFinite && charger.isFinite,
                         "EnergyLedger: \(Consumer(rawValue: index)!) drew \(battery) J from the battery, \(charger) J from the charger")
            precondition(whileAppInBackground[index] <= (battery + charger) * (1 + 1e-9),
                         "EnergyLedger: \(Consumer(rawValue: index)!) drew \(whileAppInBackground[index]) J in the background of \(battery + charger) J")
            if index >= Consumer.appCPU.rawValue { appFromBattery += battery }
        }
        precondition(appBackgroundBatteryJoules >= 0 && appBackgroundBatteryJoules <= appFromBattery * (1 + 1e-9),
                     "EnergyLedger: the app's \(appBackgroundBatteryJoules) J in the background of \(appFromBattery) J from the battery")
    }
}
