@testable import BackgroundSim
import SimKernel

/// Runs the iOS model on a quiet device — no random sessions, charging or jetsam; the eager
/// launch model; no early expiry — so that a test can inject user and charger events at chosen
/// instants and read the system's log.
final class SystemHarness {
    var simulation: Simulation<WorldEvent>
    var world: World
    var log: [SystemLogEntry] = []

    static var quietScenario: Scenario {
        var scenario = Scenario()
        scenario.user.sessionsPerDay = 0
        // No one unlocks this phone: no restarts either (tests that want them set them).
        scenario.restarts.updateEveryDays = 0
        scenario.restarts.inactivityRebootHours = 0
        scenario.power.overnightChargeProbability = 0
        scenario.power.topUpsPerDay = 0
        scenario.network.offlineShare = 0
        scenario.system.launchModel = .eager
        scenario.system.suspendedTerminationPerHour = 0
        scenario.system.refreshEarlyExpiryProbability = 0
        scenario.app.permittedIdentifiers = ["refresh", "refresh2", "work"] + (0..<12).map { "p\($0)" }
        return scenario
    }

    /// The quiet scenario always on one network with good signal and no other traffic to share
    /// the radio: LTE, or Wi-Fi with `wifi`; optionally with that network's uplink rate set.
    static func onOneNetwork(wifi: Bool = false, uplinkMbps: Double? = nil) -> Scenario {
        var scenario = quietScenario
        alwaysOnOneNetwork(&scenario, wifi: wifi)
        if let uplinkMbps {
            scenario.network.lteUplinkMbps = uplinkMbps
            scenario.network.wifiUplinkMbps = uplinkMbps
        }
        scenario.energy.tailShareProbability = 0
        return scenario
    }

    /// Puts `scenario` always on one network with good signal: LTE, or Wi-Fi with `wifi`.
    static func alwaysOnOneNetwork(_ scenario: inout Scenario, wifi: Bool) {
        scenario.network.offlineShare = 0
        scenario.network.goodSignalShare = 1
        scenario.network.poorSignalShare = 0
        scenario.network.fiveGShare = 0
        scenario.network.wifiShare = wifi ? 1 : 0
        scenario.network.homeWifiProbability = wifi ? 1 : 0
    }

    init(_ scenario: Scenario = quietScenario, policy: @escaping () -> any BackgroundPolicy) throws {
        let setup = try RunSetup(scenario: scenario, seed: 1, policy: policy)
        simulation = setup.simulation
        world = setup.world
        world.system.log = { [unowned self] in self.log.append($0) }
    }

    var system: SimulatedSystem { world.system }

    /// Schedules `event` at `time` (after events already due then).
    func inject(_ event: DeviceEvent, at time: SimInstant) {
        simulation.schedule(.device(event), at: time, priority: .late)
    }

    /// The user opens the app at `time` and leaves it `length` later.
    func useApp(at time: SimInstant, for length: SimDuration = .minutes(1), forceQuit: Bool = false) {
        inject(.appOpen, at: time)
        inject(.appClose(forceQuit: forceQuit), at: time + length)
    }

    func run(until time: SimInstant) throws {
        try simulation.run(until: time, handler: &world)
    }

    /// Log entries of `kind`.
    func entries(_ kind: SystemLogEvent.Kind) -> [SystemLogEntry] { log.filter { $0.event.kind == kind } }

    /// Times of log entries of `kind`.
    func times(_ kind: SystemLogEvent.Kind) -> [SimInstant] { entries(kind).map(\.time) }
}

/// A policy whose callbacks are closures, for tests.
final class ScriptedPolicy: BackgroundPolicy {
    var onLaunch: (AppContext, LaunchReason) -> Void
    var onBackground: (AppContext) -> Void
    var onForeground: (AppContext) -> Void

    init(onLaunch: @escaping (AppContext, LaunchReason) -> Void = { _, _ in },
         onBackground: @escaping (AppContext) -> Void = { _ in },
         onForeground: @escaping (AppContext) -> Void = { _ in }) {
        self.onLaunch = onLaunch
        self.onBackground = onBackground
        self.onForeground = onForeground
    }

    func didFinishLaunching(_ app: AppContext, reason: LaunchReason) { onLaunch(app, reason) }
    func didEnterBackground(_ app: AppContext) { onBackground(app) }
    func willEnterForeground(_ app: AppContext) { onForeground(app) }
}

extension SimInstant {
    /// `seconds` seconds after the start, for readable test times.
    static func at(_ seconds: Double) -> SimInstant { .start + .seconds(seconds) }
}
