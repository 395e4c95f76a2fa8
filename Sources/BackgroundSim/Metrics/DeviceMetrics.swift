import SimKernel

/// Fixed-size accumulators of what the device did, updated at every event; memory does not grow
/// with the length of the run.
public struct DeviceMetrics: Sendable, Equatable {
    /// Phone sessions in which the screen came on.
    public var phoneSessions = 0
    /// Sessions the user started while the phone was off (flat battery).
    public var missedSessions = 0
    /// App sessions (the app came to the foreground).
    public var appSessions = 0
    /// App sessions that ended with a swipe-away in the app switcher.
    public var forceQuits = 0
    /// Low Power Mode prompts shown, and accepted.
    public var lowPowerModePrompts = 0
    public var lowPowerModeAccepted = 0
    /// Times the phone ran flat and turned off.
    public var batteryDepletions = 0
    /// Device clock jumps.
    public var clockJumps = 0
    /// The lowest battery level seen, in percent.
    public var minimumBatteryPercent = 100.0

    /// Seconds with the screen on.
    public var screenOnSeconds = 0.0
    /// Seconds on the charger.
    public var chargingSeconds = 0.0
    /// Seconds on Wi-Fi, cellular and no service, while the phone was on.
    public var wifiSeconds = 0.0
    public var cellularSeconds = 0.0
    public var offlineSeconds = 0.0
    /// Seconds in Low Power Mode.
    public var lowPowerModeSeconds = 0.0
    /// Seconds turned off with a flat battery.
    public var zeroBatterySeconds = 0.0
    /// Seconds at each thermal state, indexed by `ThermalState.rawValue`.
    public var thermalSeconds = [0.0, 0.0, 0.0, 0.0]
    /// Integral of the battery level (percent × seconds) and seconds, by local hour of day: the
    /// level over a typical day. Each interval between events is booked to the hour it starts in.
    public var batteryPercentSecondsByHour = [Double](repeating: 0, count: 24)
    public var secondsByHour = [Double](repeating: 0, count: 24)

    public init() {}
}
