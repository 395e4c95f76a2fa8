import BackgroundSim
import Foundation
import SimKernel

extension UIDevice {
    /// Posted when the battery's charge changes, while battery monitoring is on; no more often
    /// than once a minute [A].
    public static let batteryLevelDidChangeNotification = Notification.Name("UIDeviceBatteryLevelDidChangeNotification")
    /// Posted when the battery's state (on the charger, full, or not) changes, while battery
    /// monitoring is on.
    public static let batteryStateDidChangeNotification = Notification.Name("UIDeviceBatteryStateDidChangeNotification")
}

extension Notification.Name {
    /// Posted when Low Power Mode turns on or off.
    public static let NSProcessInfoPowerStateDidChange = Notification.Name("NSProcessInfoPowerStateDidChangeNotification")
}

/// Tells a process's code of changes to the phone's battery, Low Power Mode, thermal state,
/// Background App Refresh status and protected data, through its `NotificationCenter`, as iOS
/// does.
///
/// A suspended app hears nothing; iOS tells it on resuming. The simulation does the same for
/// a running app: a change is posted just before the app's code next runs (a callback, a timer,
/// a request's end), not at the instant it happens, and several changes since then post once,
/// with the values then [Inf].
struct DeviceNotifier {
    /// What the code was last told, or, before its first run, nothing.
    private var told: Readings?
    /// When the code was last told of the battery's level.
    private var levelToldAt: SimInstant?

    private struct Readings: Equatable {
        var batteryLevel: Double
        var batteryState: BatteryState
        var isLowPowerModeEnabled: Bool
        var thermalState: ThermalState
        var isProtectedDataAvailable: Bool
        var isBackgroundRefreshAvailable: Bool
    }

    /// The least time between two battery-level notifications [A] (Apple's documentation of
    /// `batteryLevelDidChangeNotification`: "no more frequently than once per minute",
    /// https://developer.apple.com/documentation/uikit/uidevice/batteryleveldidchangenotification).
    static let batteryLevelInterval = SimDuration.seconds(60)

    /// Posts, in `process`'s notification center, each change since the code last ran.
    mutating func postChanges(in process: SimulatedProcess) {
        let state = process.state
        let now = Readings(batteryLevel: state.batteryLevel, batteryState: state.batteryState,
                           isLowPowerModeEnabled: state.isLowPowerModeEnabled, thermalState: state.thermalState,
                           isProtectedDataAvailable: state.isProtectedDataAvailable,
                           isBackgroundRefreshAvailable: state.isBackgroundRefreshAvailable)
        guard var told else {
            told = now
            return
        }
        defer { self.told = told }
        let center = process.notifications
        if now.batteryState != told.batteryState {
            told.batteryState = now.batteryState
            if process.isBatteryMonitoringEnabled { center.post(name: UIDevice.batteryStateDidChangeNotification, object: UIDevice.current) }
        }
        if now.batteryLevel != told.batteryLevel, levelToldAt.map({ state.instant - $0 >= Self.batteryLevelInterval }) ?? true {
            told.batteryLevel = now.batteryLevel
            if process.isBatteryMonitoringEnabled {
                levelToldAt = state.instant
                center.post(name: UIDevice.batteryLevelDidChangeNotification, object: UIDevice.current)
            }
        }
        if now.isLowPowerModeEnabled != told.isLowPowerModeEnabled {
            told.isLowPowerModeEnabled = now.isLowPowerModeEnabled
            center.post(name: .NSProcessInfoPowerStateDidChange, object: ProcessInfo.processInfo)
        }
        if now.thermalState != told.thermalState {
            told.thermalState = now.thermalState
            center.post(name: ProcessInfo.thermalStateDidChangeNotification, object: ProcessInfo.processInfo)
        }
        if now.isBackgroundRefreshAvailable != told.isBackgroundRefreshAvailable {
            told.isBackgroundRefreshAvailable = now.isBackgroundRefreshAvailable
            center.post(name: UIApplication.backgroundRefreshStatusDidChangeNotification, object: UIApplication.shared)
        }
        if now.isProtectedDataAvailable != told.isProtectedDataAvailable {
            told.isProtectedDataAvailable = now.isProtectedDataAvailable
            // On iOS the "will become unavailable" notice comes just before the lock; here, as
            // every device notice, it comes when the code next runs, after the lock [Inf].
            center.post(name: now.isProtectedDataAvailable ? UIApplication.protectedDataDidBecomeAvailableNotification
                                                           : UIApplication.protectedDataWillBecomeUnavailableNotification,
                        object: UIApplication.shared)
        }
    }
}
