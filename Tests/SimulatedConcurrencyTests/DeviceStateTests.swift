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
        try policies.register(.appDelegate(name: "reads-device", summary: "Reads the phone at each launch.", taskIdentifiers: [],
                                           isolation: .sharedProcess) {
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

/// An app delegate that turns battery monitoring on and keeps each device notification it
/// hears, with what it then reads.
final class DeviceNotificationsDelegate: UIApplicationDelegate {
    let heard: SharedJournal
    private var observers: [any NSObjectProtocol] = []

    init(_ heard: SharedJournal) {
        self.heard = heard
    }

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        UIDevice.current.isBatteryMonitoringEnabled = true
        let center = NotificationCenter.default
        let heard = self.heard
        observers = [
            center.addObserver(forName: UIDevice.batteryStateDidChangeNotification, object: nil, queue: nil) { _ in
                heard.lines.append("state \(UIDevice.current.batteryState)")
            },
            center.addObserver(forName: UIDevice.batteryLevelDidChangeNotification, object: nil, queue: nil) { _ in
                heard.lines.append("level \(UIDevice.current.batteryLevel) at \(Int(Date().timeIntervalSince1970))")
            },
            center.addObserver(forName: .NSProcessInfoPowerStateDidChange, object: nil, queue: nil) { _ in
                heard.lines.append("low power \(ProcessInfo.processInfo.isLowPowerModeEnabled)")
            },
            center.addObserver(forName: ProcessInfo.thermalStateDidChangeNotification, object: nil, queue: nil) { _ in
                heard.lines.append("thermal \(ProcessInfo.processInfo.thermalState)")
            },
            center.addObserver(forName: UIApplication.backgroundRefreshStatusDidChangeNotification, object: nil, queue: nil) { _ in
                heard.lines.append("refresh \(UIApplication.shared.backgroundRefreshStatus)")
            },
            center.addObserver(forName: UIApplication.protectedDataDidBecomeAvailableNotification, object: nil, queue: nil) { _ in
                heard.lines.append("protected \(UIApplication.shared.isProtectedDataAvailable)")
            },
            center.addObserver(forName: UIApplication.protectedDataWillBecomeUnavailableNotification, object: nil, queue: nil) { _ in
                heard.lines.append("protected \(UIApplication.shared.isProtectedDataAvailable)")
            },
        ]
        for name in [UIApplication.didBecomeActiveNotification, UIApplication.willResignActiveNotification,
                     UIApplication.didEnterBackgroundNotification, UIApplication.willEnterForegroundNotification] {
            observers.append(center.addObserver(forName: name, object: nil, queue: nil) { note in
                heard.lines.append("lifecycle \(note.name.rawValue)")
            })
        }
        heard.lines.append("lifecycle launch \(application.applicationState)")
        // A clock in the corner, updated every minute while the app runs.
        Task {
            while true { try await Task.sleep(for: .seconds(60)) }
        }
        return true
    }
}

@Suite("The phone's changes as the app's own code hears them")
struct DeviceNotificationTests {
    @Test("the battery's state and level, Low Power Mode, the thermal state, the refresh status and protected data are posted when they change: each notification brings the process a new value, levels at least a minute apart")
    func changesArePosted() throws {
        let heard = SharedJournal()
        // A user who keeps the app open for minutes, 20 times a day, on a phone that starts at
        // 60 % and is never charged (so Low Power Mode, accepted at 20 %, comes on), and that
        // heats past `.fair` under ordinary use; silent pushes run the app's code while the
        // phone is locked too.
        _ = try runAppCode("hears-device", scenario: #"""
            {"user": {"sessionMedianSeconds": 300,
                      "app": {"profile": "custom", "customSessionsPerDay": 20, "sessionMedianSeconds": 600, "forceQuitProbability": 0}},
             "power": {"initialBatteryPercent": 60, "overnightChargeProbability": 0, "topUpsPerDay": 0, "lowPowerModeAcceptProbability": 1},
             "device": {"thermal": {"fairWatts": 0.3}},
             "pushes": {"schedule": "cadence", "everyMinutes": 30}}
            """#, seed: 2, days: 1) { DeviceNotificationsDelegate(heard) }
        let lines = heard.lines
        func values(_ prefix: String) -> [String] {
            lines.filter { $0.hasPrefix(prefix + " ") }.map { String($0.dropFirst(prefix.count + 1)) }
        }
        #expect(values("low power").first == "true", "\(lines)")
        // Low Power Mode turns Background App Refresh off; the status follows it.
        #expect(values("refresh") == ["denied"], "\(lines)")
        // A process hears only the changes made while it runs: one launched after an unlock it
        // missed hears the next lock as its first, so values alternate within each process.
        func valuesPerProcess(_ prefix: String) -> [[String]] {
            var processes: [[String]] = []
            for line in lines {
                if line.hasPrefix("lifecycle launch ") { processes.append([]) }
                if line.hasPrefix(prefix + " "), !processes.isEmpty { processes[processes.count - 1].append(String(line.dropFirst(prefix.count + 1))) }
            }
            return processes
        }
        func alternates(_ values: [String]) -> Bool { zip(values, values.dropFirst()).allSatisfy { $0 != $1 } }
        let protected = valuesPerProcess("protected")
        #expect(protected.joined().count >= 2 && protected.allSatisfy(alternates), "\(protected)")
        let thermal = valuesPerProcess("thermal")
        #expect(thermal.joined().count >= 2 && thermal.allSatisfy(alternates), "\(thermal)")
        let levels = values("level").map { $0.split(separator: " ") }
        #expect(levels.count >= 5, "\(lines)")
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $0[0] != $1[0] && Int($1[2])! - Int($0[2])! >= 60 }, "\(levels)")
        // Without a charger, the state stays unplugged: nothing to post.
        #expect(values("state").isEmpty, "\(lines)")
    }

    @Test("the lifecycle notifications come in UIKit's order: a user's launch becomes active; leaving resigns active, then enters the background; returning enters the foreground, then becomes active")
    func lifecycleOrder() throws {
        let heard = SharedJournal()
        _ = try runAppCode("hears-lifecycle", scenario: #"{"user": {"app": {"profile": "custom", "customSessionsPerDay": 10}}}"#,
                           seed: 4, days: 3) { DeviceNotificationsDelegate(heard) }
        let events = heard.lines.filter { $0.hasPrefix("lifecycle ") }.map { String($0.dropFirst("lifecycle ".count)) }
        #expect(events.filter { $0.hasSuffix("EnterForegroundNotification") }.count >= 3, "\(events)")
        for (index, event) in events.enumerated() {
            let next = index + 1 < events.count ? events[index + 1] : nil
            switch event {
            case "launch active", "UIApplicationWillEnterForegroundNotification":
                #expect(next == "UIApplicationDidBecomeActiveNotification", "\(events[index...])")
            case "UIApplicationWillResignActiveNotification":
                #expect(next == "UIApplicationDidEnterBackgroundNotification", "\(events[index...])")
            case "UIApplicationDidBecomeActiveNotification":
                #expect(next == nil || next == "UIApplicationWillResignActiveNotification", "\(events[index...])")
            default:
                break
            }
        }
    }
}
