extension Device: InternallyChecked {
    /// Traps unless the battery's level is within 0–100 % (to 10⁻⁹ %); a phone that is off
    /// shows no app and no screen, and is off when it is restarting; Optimized Battery Charging
    /// holds only a phone on the charger; network flaps cut it off no more often than the faults
    /// say; the booked hour is an hour of the day that does not end before it starts; a phone
    /// that is off draws nothing, the battery charges only on the charger and drains only off
    /// it; the app's powers are finite and not negative; and the lowest level recorded is not
    /// above the level now.
    func checkInvariants() {
        // The level, rounded to 10⁻⁹ %: a charge snapped to 100 % can read a last bit above it.
        precondition(battery.level >= 0 && battery.level <= 100, "Device: the battery at \(battery.percent) %")
        precondition(isPoweredOn || (!appInForeground && !sessionUsesScreen), "Device: the app or the screen is on while the phone is off")
        precondition(!restarting || !isPoweredOn, "Device: on while restarting")
        precondition(!holdingAtEighty || isPluggedIn, "Device: holding the charge at 80 % off the charger")
        precondition(flapsOffline >= 0 && flapsOffline <= scenario.faults.networkFlaps.count,
                     "Device: \(flapsOffline) network flaps offline of \(scenario.faults.networkFlaps.count)")
        precondition(bookedHour.start <= bookedHour.end && (0..<24).contains(bookedHour.hour), "Device: a booked hour out of order")
        precondition(appPower.isValid, "Device: the app's power \(appPower)")
        precondition(isPoweredOn || ledger.totalWatts == 0, "Device: off and drawing \(ledger.totalWatts) W")
        precondition(isPluggedIn ? battery.netWatts >= 0 : battery.netWatts <= 0,
                     "Device: the battery's net \(battery.netWatts) W \(isPluggedIn ? "on" : "off") the charger")
        precondition(metrics.minimumBatteryPercent <= battery.percent, "Device: the lowest level \(metrics.minimumBatteryPercent) % above the level now")
    }
}
