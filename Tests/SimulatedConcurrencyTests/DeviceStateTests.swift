import BackgroundSim
import SimulatedBackgroundTasks
import Testing

/// An app delegate that reads the phone as apps do at each launch, and keeps what it read.
final class DeviceReadingDelegate: UIApplicationDelegate {
    let readings: DeviceReadings

    init(_ readings: DeviceReadings) {
        self.readings = readings
    }

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        readings.unmonitored.append((UIDevice.current.batteryLevel, UIDevice.current.batteryState))
        UIDevice.current.isBatteryMonitoringEnabled = true
        readings.levels.append(UIDevice.current.batteryLevel)
        readings.states.append(UIDevice.current.batteryState)
        readings.lowPower.append(ProcessInfo.processInfo.isLowPowerModeEnabled)
        readings.thermal.append(ProcessInfo.processInfo.thermalState)
        return true
    }
}

final class DeviceReadings: @unchecked Sendable {
    var unmonitored: [(Float, UIDevice.BatteryState)] = []
    var levels: [Float] = []
    var states: [UIDevice.BatteryState] = []
    var lowPower: [Bool] = []
    var thermal: [ProcessInfo.ThermalState] = []
}

@Suite("The phone as the app's own code reads it")
struct DeviceStateTests {
    @Test("UIDevice's battery reads −1 and unknown until monitoring is on, then the simulated phone's level and state; ProcessInfo gives Low Power Mode and the thermal state")
    func batteryAndPower() throws {
        let readings = DeviceReadings()
        var policies = PolicyRegistry.builtIn
        try policies.register(.appDelegate(name: "reads-device", summary: "Reads the phone at each launch.", taskIdentifiers: []) {
            DeviceReadingDelegate(readings)
        })
        // The default phone and user over two weeks: the battery drains by day and charges at night.
        let scenario = try ScenarioLoader.decode(#"{"app": {"policy": "reads-device"}}"#, source: "device.json", policies: policies)
        _ = try SimulationRunner.run(scenario: scenario, seed: 2, days: 14, policies: policies)
        #expect(readings.levels.count >= 10)
        #expect(readings.unmonitored.allSatisfy { $0.0 == -1 && $0.1 == .unknown })
        #expect(readings.levels.allSatisfy { (0...1).contains($0) })
        #expect(Set(readings.levels.map { ($0 * 100).rounded() }).count > 5, "\(readings.levels)")
        #expect(!readings.states.contains(.unknown))
        #expect(readings.states.contains(.unplugged), "\(readings.states)")
        #expect(readings.lowPower.count == readings.levels.count && readings.thermal.count == readings.levels.count)
    }
}
