import BackgroundSim
import SimKernel

/// What the app's code reads of its phone and its process at one instant: the clocks, the
/// app's state, the battery, the network and the switches that gate background work.
///
/// The system side (``ProcessHost``) makes one from the model with every delivery and every
/// answer to a call, so the app's process reads these without asking: nothing in it changes
/// while the app's code runs except through the app's own calls, each of which brings a fresh
/// one back.
struct PhoneState: Equatable {
    /// The simulation's time: the time base of the app's simulated async work.
    var instant: SimInstant
    /// The device clock's reading: what the app sees as the current `Date`.
    var clockReading: SimInstant
    /// The app is in the foreground (`UIApplication.State.active`).
    var isActive: Bool
    /// The process is running, in the foreground or in the background (not suspended).
    var isRunning: Bool
    /// The time left of the background-task assertions' budget (`.max` in the foreground).
    var backgroundTimeRemaining: SimDuration
    /// `UIApplication.isProtectedDataAvailable`.
    var isProtectedDataAvailable: Bool
    /// The user's Background App Refresh switch is on for the app.
    var isBackgroundAppRefreshOn: Bool
    /// `ProcessInfo.isLowPowerModeEnabled`.
    var isLowPowerModeEnabled: Bool
    /// `UIDevice.batteryLevel`: 0 ... 1.
    var batteryLevel: Double
    /// `UIDevice.batteryState`.
    var batteryState: BatteryState
    /// `ProcessInfo.thermalState`.
    var thermalState: ThermalState
    /// The network path now.
    var networkPath: NetworkPath

    /// The state of `app`'s phone and process now.
    init(_ app: AppContext) {
        instant = app.instant
        clockReading = app.date
        isActive = app.applicationState == .active
        isRunning = app.isRunning
        backgroundTimeRemaining = app.backgroundTimeRemaining
        isProtectedDataAvailable = app.isProtectedDataAvailable
        isBackgroundAppRefreshOn = app.isBackgroundAppRefreshOn
        isLowPowerModeEnabled = app.isLowPowerModeEnabled
        batteryLevel = app.batteryLevel
        batteryState = app.batteryState
        thermalState = app.thermalState
        networkPath = app.networkPath
    }

    /// A state from its fields (for the wire).
    init(instant: SimInstant, clockReading: SimInstant, isActive: Bool, isRunning: Bool, backgroundTimeRemaining: SimDuration,
         isProtectedDataAvailable: Bool, isBackgroundAppRefreshOn: Bool, isLowPowerModeEnabled: Bool, batteryLevel: Double,
         batteryState: BatteryState, thermalState: ThermalState, networkPath: NetworkPath) {
        self.instant = instant
        self.clockReading = clockReading
        self.isActive = isActive
        self.isRunning = isRunning
        self.backgroundTimeRemaining = backgroundTimeRemaining
        self.isProtectedDataAvailable = isProtectedDataAvailable
        self.isBackgroundAppRefreshOn = isBackgroundAppRefreshOn
        self.isLowPowerModeEnabled = isLowPowerModeEnabled
        self.batteryLevel = batteryLevel
        self.batteryState = batteryState
        self.thermalState = thermalState
        self.networkPath = networkPath
    }

    /// Whether the app may refresh in the background: its switch is on and Low Power Mode off.
    var isBackgroundRefreshAvailable: Bool { isBackgroundAppRefreshOn && !isLowPowerModeEnabled }
}
