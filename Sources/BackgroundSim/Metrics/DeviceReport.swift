import SimKernel

/// The `device` group of a run's report: what the simulated user and phone did, per day.
///
/// Every field is documented in `docs/OUTPUT.md`.
public struct DeviceReport: Sendable, Equatable {
    /// Hours per day with the screen on.
    public var screenOnHoursPerDay: Double
    /// Phone sessions per day in which the screen came on.
    public var phoneSessionsPerDay: Double
    /// Sessions per day the user could not have because the battery was flat.
    public var missedSessionsPerDay: Double
    /// App sessions per day.
    public var appSessionsPerDay: Double
    /// App sessions per day that ended with a swipe-away (force-quit).
    public var forceQuitsPerDay: Double
    /// Hours per day on the charger.
    public var chargingHoursPerDay: Double
    /// Shares of powered-on time on Wi-Fi, cellular and no service (they add up to 1).
    public var wifiShare: Double
    public var cellularShare: Double
    public var offlineShare: Double
    /// Hours per day in Low Power Mode.
    public var lowPowerModeHoursPerDay: Double
    /// Low Power Mode prompts per day (at 20 % and 10 %).
    public var lowPowerModePromptsPerDay: Double
    /// Energy drawn from the battery per day, as a percentage of its capacity.
    public var batteryDrainPercentPerDay: Double
    /// The lowest battery level reached, in percent.
    public var minimumBatteryPercent: Double
    /// Battery level at the end of the run, in percent.
    public var finalBatteryPercent: Double
    /// Hours in all that the phone was off with a flat battery.
    public var hoursAtZeroBattery: Double
    /// Times the battery ran flat.
    public var batteryDepletions: Int
    /// Restarts to install an iOS update, and inactivity reboots (``RestartParameters``).
    public var updateRestarts: Int
    public var inactivityReboots: Int
    /// Device clock jumps.
    public var clockJumps: Int
    /// Share of time at each thermal state: nominal, fair, serious, critical.
    public var thermalStateShares: [Double]
    /// Mean battery level in each local hour 00..23, over the run: a typical day.
    public var batteryPercentByHour: [Double]

    init(device: Device, days: Int) {
        let metrics = device.metrics
        let dayCount = Swift.max(1, Double(days))
        let onSeconds = metrics.wifiSeconds + metrics.cellularSeconds + metrics.offlineSeconds
        let totalSeconds = metrics.thermalSeconds.reduce(0, +)
        screenOnHoursPerDay = metrics.screenOnSeconds / 3_600 / dayCount
        phoneSessionsPerDay = Double(metrics.phoneSessions) / dayCount
        missedSessionsPerDay = Double(metrics.missedSessions) / dayCount
        appSessionsPerDay = Double(metrics.appSessions) / dayCount
        forceQuitsPerDay = Double(metrics.forceQuits) / dayCount
        chargingHoursPerDay = metrics.chargingSeconds / 3_600 / dayCount
        wifiShare = onSeconds > 0 ? metrics.wifiSeconds / onSeconds : 0
        cellularShare = onSeconds > 0 ? metrics.cellularSeconds / onSeconds : 0
        offlineShare = onSeconds > 0 ? metrics.offlineSeconds / onSeconds : 0
        lowPowerModeHoursPerDay = metrics.lowPowerModeSeconds / 3_600 / dayCount
        lowPowerModePromptsPerDay = Double(metrics.lowPowerModePrompts) / dayCount
        batteryDrainPercentPerDay = device.ledger.totalBatteryJoules / device.battery.capacityJoules * 100 / dayCount
        minimumBatteryPercent = metrics.minimumBatteryPercent
        finalBatteryPercent = device.battery.percent
        hoursAtZeroBattery = metrics.zeroBatterySeconds / 3_600
        batteryDepletions = metrics.batteryDepletions
        updateRestarts = metrics.updateRestarts
        inactivityReboots = metrics.inactivityReboots
        clockJumps = metrics.clockJumps
        thermalStateShares = metrics.thermalSeconds.map { totalSeconds > 0 ? $0 / totalSeconds : 0 }
        batteryPercentByHour = zip(metrics.batteryPercentSecondsByHour, metrics.secondsByHour).map { $1 > 0 ? $0 / $1 : 0 }
    }

    /// The report as a JSON object, fields in a fixed order, numbers rounded to 4 significant
    /// decimals for readability (the digest, not these numbers, is the exact fingerprint).
    package var json: JSONValue {
        .object([
            ("screenOnHoursPerDay", .number(rounded(screenOnHoursPerDay))),
            ("phoneSessionsPerDay", .number(rounded(phoneSessionsPerDay))),
            ("missedSessionsPerDay", .number(rounded(missedSessionsPerDay))),
            ("appSessionsPerDay", .number(rounded(appSessionsPerDay))),
            ("forceQuitsPerDay", .number(rounded(forceQuitsPerDay))),
            ("chargingHoursPerDay", .number(rounded(chargingHoursPerDay))),
            ("wifiShare", .number(rounded(wifiShare))),
            ("cellularShare", .number(rounded(cellularShare))),
            ("offlineShare", .number(rounded(offlineShare))),
            ("lowPowerModeHoursPerDay", .number(rounded(lowPowerModeHoursPerDay))),
            ("lowPowerModePromptsPerDay", .number(rounded(lowPowerModePromptsPerDay))),
            ("batteryDrainPercentPerDay", .number(rounded(batteryDrainPercentPerDay))),
            ("minimumBatteryPercent", .number(rounded(minimumBatteryPercent))),
            ("finalBatteryPercent", .number(rounded(finalBatteryPercent))),
            ("hoursAtZeroBattery", .number(rounded(hoursAtZeroBattery))),
            ("batteryDepletions", .number(Double(batteryDepletions))),
            ("updateRestarts", .number(Double(updateRestarts))),
            ("inactivityReboots", .number(Double(inactivityReboots))),
            ("clockJumps", .number(Double(clockJumps))),
            ("thermalStateShares", .object(zip(["nominal", "fair", "serious", "critical"], thermalStateShares).map {
                ($0, .number(rounded($1)))
            })),
            ("batteryPercentByHour", .array(batteryPercentByHour.map { .number(rounded($0)) })),
        ])
    }
}

/// `value` rounded to 4 decimal places, for reports.
func rounded(_ value: Double) -> Double {
    (value * 10_000).rounded() / 10_000
}
