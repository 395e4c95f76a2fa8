import SimKernel

/// What the system and the app can see of the device at one moment.
public struct DeviceSnapshot: Sendable {
    public var now: SimInstant = .start
    public var clockReading: SimInstant = .start
    /// Local hour of day.
    public var hour = 0
    public var day = 0
    public var network: NetworkPath = .offline
    public var batteryPercent = 100.0
    public var batteryState: BatteryState = .unplugged
    public var isLowPowerMode = false
    public var thermalState: ThermalState = .nominal
    public var isScreenOn = false
    /// When the screen last went off.
    public var screenOffSince: SimInstant = .start
    public var isPoweredOn = true
    /// The app's energy drawn from the battery while not in the foreground so far, in joules.
    public var appBackgroundBatteryJoules = 0.0

    public var isCharging: Bool { batteryState != .unplugged }

    init() {}

    init(device: borrowing Device, at now: SimInstant) {
        self.now = now
        clockReading = device.clock.reading(at: now)
        day = device.calendar.day(of: now)
        hour = Int(device.calendar.timeOfDay(at: now) / .hours(1))
        network = device.network
        batteryPercent = device.battery.level
        batteryState = !device.isPluggedIn ? .unplugged : device.battery.netWatts > 0 ? .charging : .full
        isLowPowerMode = device.isLowPowerMode
        thermalState = device.thermal.state
        isScreenOn = device.isScreenOn
        screenOffSince = device.screenOffSince
        isPoweredOn = device.isPoweredOn
        appBackgroundBatteryJoules = device.ledger.appBackgroundBatteryJoules
    }
}
