import SimKernel

/// What the system and the app can see of the device at one moment.
package struct DeviceSnapshot: Sendable {
    package var now: SimInstant = .start
    package var clockReading: SimInstant = .start
    /// Local hour of day.
    package var hour = 0
    package var day = 0
    package var network: NetworkPath = .offline
    package var batteryPercent = 100.0
    package var batteryState: BatteryState = .unplugged
    package var isLowPowerMode = false
    package var thermalState: ThermalState = .nominal
    package var isScreenOn = false
    /// When the screen last went off.
    package var screenOffSince: SimInstant = .start
    package var isPoweredOn = true
    /// The user has unlocked the phone since it last started.
    package var isUnlockedSinceBoot = true
    /// How many times the phone has started again.
    package var bootCount: UInt32 = 0
    /// When the phone last started (``Device/bootedAt``).
    package var bootedAt: SimInstant = .start
    /// The app's energy drawn from the battery while not in the foreground so far, in joules.
    package var appBackgroundBatteryJoules = 0.0

    package var isCharging: Bool { batteryState != .unplugged }

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
        isUnlockedSinceBoot = device.isUnlockedSinceBoot
        bootCount = device.bootCount
        bootedAt = device.bootedAt
        appBackgroundBatteryJoules = device.ledger.appBackgroundBatteryJoules
    }
}
