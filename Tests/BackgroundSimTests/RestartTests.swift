@testable import BackgroundSim
import SimKernel
import Testing

/// The phone restarting on its own — an overnight iOS update, the inactivity reboot — and what a
/// start means for the app: locked until the first unlock, the force-quit block lifted.
@Suite("Restarts")
struct RestartTests {
    /// The quiet scenario on Wi-Fi with the refresh probe, restarts as given.
    func scenario(_ configure: (inout RestartParameters) -> Void) -> Scenario {
        var scenario = SystemHarness.onOneNetwork(wifi: true)
        scenario.app.permittedIdentifiers = [ProbePolicy.refreshIdentifier]
        configure(&scenario.restarts)
        return scenario
    }

    func harness(_ scenario: Scenario) throws -> SystemHarness {
        try SystemHarness(scenario) { ProbePolicy(kind: .appRefresh) }
    }

    @Test("an update installs at 03:00 on the charger and Wi-Fi: off 15 min, then no background launch until the user unlocks the phone")
    func updateBlocksLaunchesUntilFirstUnlock() throws {
        let h = try harness(scenario { $0.updateEveryDays = 1; $0.inactivityRebootHours = 0 })
        h.inject(.plugIn(overnight: true), at: .at(60))
        h.useApp(at: .at(100))
        // The user unlocks the phone at 08:00 without opening the app.
        h.inject(.sessionStart, at: .at(8 * 3_600))
        h.inject(.sessionEnd, at: .at(8 * 3_600 + 30))
        try h.run(until: .at(9 * 3_600))
        let restart = SimInstant.at(3 * 3_600), started = restart + .minutes(15)
        #expect(h.entries(.terminate).contains { $0.time == restart && $0.event == .terminate(reason: .powerOff) })
        #expect(h.entries(.phoneStarted).map(\.time) == [started])
        #expect(h.entries(.phoneStarted).first?.event == .phoneStarted(forceQuitFlagCleared: false, pendingRequestsCleared: false))
        #expect(h.world.device.metrics.updateRestarts == 1)
        #expect(h.world.device.metrics.zeroBatterySeconds == 0, "a restart is not a flat battery")
        // Launches every 15 min before the restart, none from it until the unlock, then again.
        let launches = h.entries(.taskLaunch).map(\.time)
        #expect(launches.contains { $0 < restart })
        #expect(!launches.contains { $0 >= restart && $0 < .at(8 * 3_600) })
        #expect(launches.contains { $0 >= .at(8 * 3_600) && $0 <= .at(8 * 3_600) + .minutes(15) })
        let held = h.entries(.launchDecision).filter {
            $0.event == .launchDecision(identifier: ProbePolicy.refreshIdentifier, kind: .appRefresh, decision: .notLaunched(.beforeFirstUnlock))
        }
        // (The eager model evaluates when something changes: fewer than every 15 minutes.)
        #expect(!held.isEmpty && held.allSatisfy { $0.time >= started && $0.time < .at(8 * 3_600) })
    }

    @Test("an update waits for a night on the charger: unplugged on the first night, it installs on the second")
    func updateWaitsForTheCharger() throws {
        let h = try harness(scenario { $0.updateEveryDays = 30; $0.inactivityRebootHours = 0 })
        // Find the day it falls due (drawn from its stream), then unplug the phone for that night.
        let first = try Self.firstUpdateDay(h)
        let due = try #require(first)
        h.inject(.plugIn(overnight: true), at: .at(1))
        h.inject(.unplug, at: .at(Double(due) * 86_400 + 3_600))
        h.inject(.plugIn(overnight: true), at: .at(Double(due + 1) * 86_400 + 3_600))
        h.useApp(at: .at(100))
        try h.run(until: .at(Double(due + 2) * 86_400))
        #expect(h.entries(.phoneStarted).map(\.time) == [.at(Double(due + 1) * 86_400 + 3 * 3_600) + .minutes(15)])
    }

    /// The day the first update falls due: the first day at 03:00 with the phone on the charger
    /// and Wi-Fi that restarts it, found with a phone that is always plugged in.
    static func firstUpdateDay(_ h: SystemHarness) throws -> Int? {
        let probe = try SystemHarness(h.world.device.scenario) { ProbePolicy(kind: .appRefresh) }
        probe.inject(.plugIn(overnight: true), at: .at(1))
        try probe.run(until: .at(40 * 86_400))
        return probe.entries(.phoneStarted).first.map { Int($0.time.nanosecondsSinceStart / 86_400_000_000_000) }
    }

    @Test("a restart lifts the force-quit block: refresh launches resume after the unlock, without the user opening the app")
    func restartLiftsForceQuit() throws {
        var scenario = scenario { $0.updateEveryDays = 1; $0.inactivityRebootHours = 0 }
        scenario.system.forceQuitClearsPendingRequests = false
        let h = try harness(scenario)
        h.inject(.plugIn(overnight: true), at: .at(60))
        h.useApp(at: .at(100), forceQuit: true)
        h.inject(.sessionStart, at: .at(8 * 3_600))
        h.inject(.sessionEnd, at: .at(8 * 3_600 + 30))
        try h.run(until: .at(9 * 3_600))
        #expect(h.entries(.phoneStarted).first?.event == .phoneStarted(forceQuitFlagCleared: true, pendingRequestsCleared: false))
        let launches = h.entries(.taskLaunch).map(\.time)
        #expect(!launches.contains { $0 < .at(8 * 3_600) }, "force-quit, then locked")
        #expect(launches.contains { $0 >= .at(8 * 3_600) }, "the restart lifted the block")
    }

    @Test("with restartDropsPendingRequests the pending request is gone after a restart, and nothing launches until the app submits again")
    func restartDropsPendingRequests() throws {
        var scenario = scenario { $0.updateEveryDays = 1; $0.inactivityRebootHours = 0 }
        scenario.system.restartDropsPendingRequests = true
        let h = try harness(scenario)
        h.inject(.plugIn(overnight: true), at: .at(60))
        h.useApp(at: .at(100))
        h.inject(.sessionStart, at: .at(8 * 3_600))
        h.inject(.sessionEnd, at: .at(8 * 3_600 + 30))
        try h.run(until: .at(10 * 3_600))
        #expect(h.entries(.phoneStarted).first?.event == .phoneStarted(forceQuitFlagCleared: false, pendingRequestsCleared: true))
        #expect(h.system.pending.isEmpty)
        #expect(!h.entries(.taskLaunch).contains { $0.time >= .at(3 * 3_600) })
    }

    @Test("the inactivity reboot: 72 h after the last unlock with none since, the phone restarts, and stays locked")
    func inactivityReboot() throws {
        let h = try harness(scenario { $0.updateEveryDays = 0; $0.inactivityRebootHours = 72 })
        h.inject(.plugIn(overnight: false), at: .at(1))
        h.useApp(at: .at(100), for: .seconds(10))
        try h.run(until: .at(100 * 3_600))
        // The app opened at 100 s (an unlock): the reboot is 72 h later, off for a minute.
        #expect(h.world.device.metrics.inactivityReboots == 1)
        let reboot: SimInstant = .at(100 + 72 * 3_600)
        let started: [SimInstant] = h.entries(.phoneStarted).map(\.time)
        #expect(started == [reboot + .minutes(1)])
        #expect(!h.entries(.taskLaunch).contains { $0.time >= reboot })
        // An unlock in time puts it off.
        let used = try harness(scenario { $0.updateEveryDays = 0; $0.inactivityRebootHours = 72 })
        used.inject(.plugIn(overnight: false), at: .at(1))
        used.useApp(at: .at(100), for: .seconds(10))
        used.inject(.sessionStart, at: .at(50 * 3_600))
        used.inject(.sessionEnd, at: .at(50 * 3_600 + 30))
        try used.run(until: .at(100 * 3_600))
        #expect(used.world.device.metrics.inactivityReboots == 0)
    }

    @Test("restart settings out of range are refused with their paths")
    func validation() {
        var scenario = Scenario()
        scenario.restarts.updateEveryDays = -1
        scenario.restarts.updateHour = 24
        scenario.restarts.updateMinutes = 0
        #expect(scenario.validate().map(\.path) == ["restarts.updateEveryDays", "restarts.updateHour", "restarts.updateMinutes"])
    }
}
