import BackgroundSim
import Foundation

/// `ProcessInfo`, for the simulated app's process: the environment and launch arguments the
/// scenario gives (`app.launch`), and the simulated phone's Low Power Mode and thermal state.
/// What describes the machine (processors, memory, the process's identifier) is Foundation's.
///
/// Outside the simulated app's code, `environment` and `arguments` are the tool's own.
public final class ProcessInfo: Sendable {
    /// The process's information; in the app's code, of the simulated process running it.
    public static let processInfo = ProcessInfo()

    private init() {}

    private var foundation: Foundation.ProcessInfo { Foundation.ProcessInfo.processInfo }

    /// The environment variables the scenario launches the app with (`app.launch.environment`),
    /// and no others.
    public var environment: [String: String] {
        SimulatedProcess.current?.launch.environment ?? foundation.environment
    }

    /// The process's name, then the scenario's launch arguments (`app.launch.arguments`).
    public var arguments: [String] {
        guard let process = SimulatedProcess.current else { return foundation.arguments }
        return [processName] + process.launch.arguments
    }

    /// The process's name: the app's (`"App"`) in the simulated app's code.
    public var processName: String { SimulatedProcess.current == nil ? foundation.processName : "App" }

    public var processIdentifier: Int32 { foundation.processIdentifier }
    public var globallyUniqueString: String { foundation.globallyUniqueString }
    public var hostName: String { foundation.hostName }
    public var operatingSystemVersion: OperatingSystemVersion { foundation.operatingSystemVersion }
    public var operatingSystemVersionString: String { foundation.operatingSystemVersionString }
    public func isOperatingSystemAtLeast(_ version: OperatingSystemVersion) -> Bool { foundation.isOperatingSystemAtLeast(version) }
    public var processorCount: Int { foundation.processorCount }
    public var activeProcessorCount: Int { foundation.activeProcessorCount }
    public var physicalMemory: UInt64 { foundation.physicalMemory }
    /// The app runs on iOS, not as an iOS app on a Mac.
    public var isiOSAppOnMac: Bool { false }
    public var isMacCatalystApp: Bool { false }

    /// `ProcessInfo.ThermalState`.
    public enum ThermalState: Int, Sendable {
        case nominal, fair, serious, critical
    }

    /// Whether Low Power Mode is on, on the simulated phone whose code is running.
    public var isLowPowerModeEnabled: Bool {
        SimulatedProcess.required(by: "ProcessInfo.isLowPowerModeEnabled").state.isLowPowerModeEnabled
    }

    /// The simulated phone's thermal state.
    public var thermalState: ThermalState {
        switch SimulatedProcess.required(by: "ProcessInfo.thermalState").state.thermalState {
        case .nominal: .nominal
        case .fair: .fair
        case .serious: .serious
        case .critical: .critical
        }
    }

    /// Posted when the thermal state changes.
    public static let thermalStateDidChangeNotification = Notification.Name("NSProcessInfoThermalStateDidChangeNotification")
}
