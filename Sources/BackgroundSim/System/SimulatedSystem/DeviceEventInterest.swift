/// Which device events can concern the system, as a small value the world keeps beside the
/// device, so that uninteresting events cost one check and no call.
struct DeviceEventInterest {
    var reactsToChanges = false
    var anyTaskRunning = false
    var processingRunning = false
    var processRunning = false
    var workActive = false
    /// Background URL session transfers are in flight (discretionary ones wait for the charger;
    /// none moves while the phone is off).
    var transfersWaiting = false
    /// The phone has not been unlocked since it started: the next phone session unlocks it,
    /// and it joins Wi-Fi (``Device/network``).
    var lockedSinceBoot = false
    var everyEvent = false

    func concerns(_ event: DeviceEvent) -> Bool {
        if everyEvent { return true }
        switch event {
        case .appOpen, .appClose:
            return true
        case .sessionStart:
            // It ends processing tasks; and, the first after a restart, unlocks the phone, which
            // then joins Wi-Fi: a network change.
            return processingRunning || reactsToChanges || (lockedSinceBoot && (anyTaskRunning || workActive))
        case .networkChange, .networkFlap:
            return anyTaskRunning || reactsToChanges || workActive
        case .unplug:
            return anyTaskRunning || reactsToChanges || transfersWaiting
        case .batteryLevel, .batteryDeath, .restart:
            return processRunning || reactsToChanges || transfersWaiting
        case .bootComplete:
            // A start lifts the force-quit block and may delete pending requests: always seen.
            return true
        case .plugIn:
            return reactsToChanges || transfersWaiting
        case .sessionEnd, .optimizedChargingResume, .dayStart, .clockJump:
            return reactsToChanges
        }
    }
}
