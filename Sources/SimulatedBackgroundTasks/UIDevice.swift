import BackgroundSim
import Foundation

/// `UIDevice`: the simulated phone's battery, as the app's code reads it.
open class UIDevice: @unchecked Sendable {
    /// The device.
    public static let current = UIDevice()

    init() {}

    /// `UIDevice.BatteryState`.
    public enum BatteryState: Int, Sendable {
        case unknown, unplugged, charging, full
    }

    /// Whether the app reads the battery; until it does, as on iOS, the level is −1 and the state
    /// unknown. Per simulated process: it starts off at each launch.
    open var isBatteryMonitoringEnabled: Bool {
        get { SimulatedProcess.required(by: "UIDevice.isBatteryMonitoringEnabled").isBatteryMonitoringEnabled }
        set { SimulatedProcess.required(by: "UIDevice.isBatteryMonitoringEnabled").isBatteryMonitoringEnabled = newValue }
    }

    /// The charge, 0 … 1, or −1 while battery monitoring is off.
    open var batteryLevel: Float {
        let process = SimulatedProcess.required(by: "UIDevice.batteryLevel")
        return process.isBatteryMonitoringEnabled ? Float(process.state.batteryLevel) : -1
    }

    /// On the charger, full, or not; unknown while battery monitoring is off.
    open var batteryState: BatteryState {
        let process = SimulatedProcess.required(by: "UIDevice.batteryState")
        guard process.isBatteryMonitoringEnabled else { return .unknown }
        return switch process.state.batteryState {
        case .unplugged: .unplugged
        case .charging: .charging
        case .full: .full
        }
    }
}
