@testable import BackgroundSim
import SimKernel
import Testing

/// The `replay` launch model: launches exactly when a log says the system made them.
@Suite("Replaying logged launch decisions")
struct ReplayLaunchModelTests {
    /// The probe-processing preset (a processing request that requires power and network,
    /// resubmitted 15 min ahead whenever the app leaves the foreground and in its handler),
    /// replaying `devices`, with a user who never force-quits (which would clear the request
    /// until the next use: the app's own state still counts under replay).
    static func scenario(_ devices: [ReplayedLaunches.Device], preset: String = "probe-processing") -> Scenario {
        var scenario = Presets.scenario(named: preset)!
        scenario.user.app.forceQuitProbability = 0
        scenario.system.launchModel = .replay
        scenario.system.replay.devices = devices
        return scenario
    }

    /// The hours of the run's task launches, and whether the phone was charging at each.
    static func launches(_ scenario: Scenario, seed: UInt64 = 1, days: Int = 4) throws -> [(hour: Double, charging: Bool)] {
        final class Box { var launches: [(hour: Double, charging: Bool)] = [] }
        let box = Box()
        _ = try SimulationRunner.run(scenario: scenario, seed: seed, days: days, configure: { system in
            system.log = { [unowned system] entry in
                if case .taskLaunch = entry.event {
                    box.launches.append((Double(entry.time.nanosecondsSinceStart) / 3_600e9, system.snapshot.isCharging))
                }
            }
        })
        return box.launches
    }

    static func launchHours(_ scenario: Scenario, seed: UInt64 = 1, days: Int = 4) throws -> [Double] {
        try launches(scenario, seed: seed, days: days).map(\.hour)
    }

    @Test("a pending request launches at each logged launch of its kind, and nowhere else, whatever the phone's charging")
    func launchesWhenLogged() throws {
        // The default user opens the app each day; 03:30 on days 1-3, and 13:00 on day 2 when
        // the phone is usually off the charger (the request requires power: the heuristic model
        // would not run it then, a replayed decision runs).
        let logged = [27.5, 51.5, 61, 75.5]
        let device = ReplayedLaunches.Device(id: "d", launches: logged.map { ReplayedLaunches.Launch(atHours: $0, kind: .processing) }
            + [ReplayedLaunches.Launch(atHours: 40, kind: .refresh)])
        let launches = try Self.launches(Self.scenario([device]))
        let hours = launches.map(\.hour)
        // At least one replayed launch found the simulated phone off the charger, which the
        // request requires: the device rules are not applied again.
        #expect(launches.contains { !$0.charging })
        for hour in hours { #expect(logged.contains { abs($0 - hour) < 1e-9 }, "launched at \(hour) h, not a logged processing launch") }
        #expect(hours.count == logged.count, "\(hours)")
    }

    @Test("with several devices each seed replays one, drawn from its own stream; with none, validation refuses replay")
    func devicesPerSeed() throws {
        let devices = (0..<3).map { index in
            ReplayedLaunches.Device(id: "d\(index)", launches: [ReplayedLaunches.Launch(atHours: 27.5 + Double(index), kind: .processing)])
        }
        var chosen: Set<String> = []
        for seed in 1...12 as ClosedRange<UInt64> {
            let id = try #require(Self.scenario(devices).system.replay.device(forSeed: seed)?.id)
            chosen.insert(id)
            let hours = try Self.launchHours(Self.scenario(devices), seed: seed, days: 2)
            #expect(hours.allSatisfy { abs($0 - (27.5 + Double(Int(id.dropFirst())!))) < 1e-9 }, "seed \(seed) replays \(id): \(hours)")
        }
        #expect(chosen.count == 3)
        #expect(throws: ScenarioError.self) { try Self.scenario([]).requireValid() }
        var unused = Presets.scenario(named: "probe-processing")!
        unused.system.replay.devices = [ReplayedLaunches.Device(id: "", launches: [ReplayedLaunches.Launch(atHours: -1, kind: .refresh)])]
        do {
            try unused.requireValid()
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains("system.replay.devices[0].id") && "\(error)".contains("system.replay.devices[0].launches[0].atHours"), "\(error)")
        }
    }

    @Test("a replay file's launch may be as late as the most days a run simulates (2,400,000 h) and no later: 3,000,000 h is refused naming the field, before the clock's nanoseconds could overflow")
    func replayTimesAreBounded() throws {
        let base = try #require(Presets.scenario(named: "probe-refresh"))
        func fragment(_ hours: Double) -> String {
            #"{"system": {"launchModel": "replay", "replay": {"devices": [{"id": "d", "launches": [{"atHours": \#(hours), "kind": "refresh"}]}]}}}"#
        }
        #expect(SimulationRunner.hours.upperBound == 2_400_000)
        let atLimit = try ScenarioLoader.overlay(fragment(2_400_000), source: "replay.json", over: base)
        #expect(atLimit.system.replay.devices.first?.launches.first?.atHours == 2_400_000)
        do {
            _ = try ScenarioLoader.overlay(fragment(3_000_000), source: "replay.json", over: base)
            Issue.record("a launch at 3,000,000 h was accepted")
        } catch {
            #expect(error.source == "replay.json" && error.issues.map(\.path) == ["system.replay.devices[0].launches[0].atHours"], "\(error)")
        }
    }

    @Test("a replay with a device twice, a launch twice, or devices under another launch model is refused naming the entry")
    func replayMistakes() throws {
        let launch = ReplayedLaunches.Launch(atHours: 3, kind: .refresh)
        var twice = Self.scenario([ReplayedLaunches.Device(id: "a", launches: [launch]), ReplayedLaunches.Device(id: "a", launches: [])])
        var repeated = Self.scenario([ReplayedLaunches.Device(id: "a", launches: [launch, launch])])
        var ignored = Self.scenario([ReplayedLaunches.Device(id: "a", launches: [launch])])
        ignored.system.launchModel = .heuristic
        for (scenario, path, message) in [(twice, "system.replay.devices[1].id", "also replay.devices[0]"),
                                          (repeated, "system.replay.devices[0].launches[1]", "comes earlier"),
                                          (ignored, "system.replay.devices", "which would ignore them")] {
            let issues = scenario.validate()
            #expect(issues.contains { $0.path == path && $0.message.contains(message) }, "\(issues)")
        }
        twice.system.replay.devices[1].id = "b"
        repeated.system.replay.devices[0].launches[1].atHours = 4
        #expect(twice.validate().isEmpty && repeated.validate().isEmpty)
    }
}
