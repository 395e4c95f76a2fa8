import SimKernel

/// Fixed-size accumulators of what the device did, updated at every event; memory does not grow
/// with the length of the run.
package struct DeviceMetrics: Sendable, Equatable {
    /// Phone sessions in which the screen came on.
    package var phoneSessions = 0
    /// Sessions the user started while the phone was off (flat battery).
    package var missedSessions = 0
    /// App sessions (the app came to the foreground).
    package var appSessions = 0
    /// App sessions that ended with a swipe-away in the app switcher.
    package var forceQuits = 0
    /// Low Power Mode prompts shown, and accepted.
    package var lowPowerModePrompts = 0
    package var lowPowerModeAccepted = 0
    /// Times the phone ran flat and turned off.
    package var batteryDepletions = 0
    /// Restarts to install an iOS update, and inactivity reboots.
    package var updateRestarts = 0
    package var inactivityReboots = 0
    /// Device clock jumps.
    package var clockJumps = 0
    /// The lowest battery level seen, in percent.
    package var minimumBatteryPercent = 100.0

    /// Seconds with the screen on.
    package var screenOnSeconds = 0.0
    /// Seconds on the charger.
    package var chargingSeconds = 0.0
    /// Seconds on Wi-Fi, cellular and no service, while the phone was on.
    package var wifiSeconds = 0.0
    package var cellularSeconds = 0.0
    package var offlineSeconds = 0.0
    /// Seconds in Low Power Mode.
    package var lowPowerModeSeconds = 0.0
    /// Seconds turned off with a flat battery.
    package var zeroBatterySeconds = 0.0
    /// Seconds at each thermal state, indexed by `ThermalState.rawValue`.
    package var thermalSeconds = [0.0, 0.0, 0.0, 0.0]
    /// Integral of the battery level (percent × seconds) and seconds, by local hour of day: the
    /// level over a typical day. Each interval between events is booked to the hour it starts in.
    package var batteryPercentSecondsByHour = [Double](repeating: 0, count: 24)
    package var secondsByHour = [Double](repeating: 0, count: 24)

    package init() {}
}
