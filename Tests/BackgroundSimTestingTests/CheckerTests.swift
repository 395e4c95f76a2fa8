@testable import BackgroundSimChecking
import BackgroundSim
import BackgroundSimTesting
import Foundation
import SimKernel
import Testing

@Suite("Checking policies over seeds")
struct CheckerTests {
    @Test("a many-seed check keeps no scenario per passing run, yet each run still tells its own")
    func passingRunsDrawTheirScenario() throws {
        var checker = PolicyChecker(scenario: Presets.scenario(named: ReferenceApp.CoverDropName.designed)!, days: 2)
        checker.swarm = Swarm()
        let report = try checker.check(seeds: [3, 4, 5], jobs: 1)
        for run in report.runs where run.passed {
            #expect(run.scenario == checker.scenario(forSeed: run.seed))
            if case .kept = run.source { Issue.record("seed \(run.seed) kept its scenario") }
        }
        #expect(report.runs.contains { $0.passed })
    }

    @Test("a minimal scenario file holds the policy's name and only the parameters that differ, and reads back equal")
    func minimalPolicyParameters() throws {
        var scenario = Presets.scenario(named: "coverdrop-send-forgetful")!
        var parameters = CoverDropDesignedParameters()
        parameters.messagesPerRun = 3
        scenario.app.policy.parameters = parameters
        let document = ScenarioFile.minimalDocument(of: scenario)
        #expect(JSONWriter.compact(document["app"]?["policy"] ?? .null) == #"{"name":"coverdrop-send-forgetful","parameters":{"messagesPerRun":3}}"#)
        #expect(try ScenarioLoader.decode(JSONWriter.compact(document), source: "minimal") == scenario)
    }

    @Test("a checker refuses an invalid scenario or a bad number of days before any run")
    func refusesInvalidScenarios() {
        var scenario = Presets.scenario(named: ReferenceApp.CoverDropName.designed)!
        scenario.system.heuristic.usageHalfLifeDays = -.infinity
        #expect(throws: ScenarioError.self) { try PolicyChecker(scenario: scenario).check(seeds: [1, 2], jobs: 1) }
        #expect(throws: ScenarioError.self) { try PolicyChecker(scenario: Presets.scenario(named: ReferenceApp.CoverDropName.designed)!, days: -3).check(seeds: [1], jobs: 1) }
    }

    @Test("every reference policy keeps the library's invariants and its own, on plain and swarm seeds",
          arguments: ["proton-upload-designed", "coverdrop-designed", "zashi-designed", "bgscheduler-designed", "probe-refresh", "probe-processing",
                     "proton-upload-urlsession", "proton-upload-continued", "coverdrop-push"])
    func referencePoliciesHold(preset: String) throws {
        let scenario = Presets.scenario(named: preset)!
        var checker = PolicyChecker(scenario: scenario, days: 4, invariants: Invariants.standard + Invariants.declared(by: scenario))
        let plain = try checker.check(seeds: Array(1...12), jobs: 2)
        #expect(plain.failures.isEmpty, "\(plain.firstFailure.map { "seed \($0.seed): \($0.violations[0])" } ?? "")")
        checker.swarm = Swarm()
        let swarm = try checker.check(seeds: Array(1...12), jobs: 2)
        #expect(swarm.failures.isEmpty, "\(swarm.firstFailure.map { "seed \($0.seed): \($0.violations[0])" } ?? "")")
    }

    @Test("the checker knows no app: a policy's promises come from its parameters — CoverDrop's delays and, as designed, its hourly limit; none for Zashi; a team's own parameters' promises become the same invariants")
    func promisesComeFromTheParameters() throws {
        func names(_ preset: String) -> [String] { Invariants.declared(by: Presets.scenario(named: preset)!).map(\.name) }
        #expect(names("coverdrop-designed") == ["earliestBeginWithin(5–130 min)", "minimumRunInterval(60 min)"])
        #expect(names("coverdrop-shipped") == ["earliestBeginWithin(5–130 min)"])
        #expect(names("zashi-designed").isEmpty && names("proton-upload-designed").isEmpty)
        // A team's policy that promises to ask for 15–60 min and asks for 5: the check finds it.
        var scenario = Presets.scenario(named: "probe-refresh")!
        scenario.app.policy = PolicyConfiguration(PolicyDefinition(name: "team-sync", summary: "A team's sync.", parameters: TeamSyncParameters.self) { _ in TeamSync() })
        scenario.app.permittedIdentifiers = ["team.sync"]
        let invariants = Invariants.standard + Invariants.declared(by: scenario)
        #expect(invariants.map(\.name).suffix(2) == ["earliestBeginWithin(15–60 min)", "minimumRunInterval(30 min)"])
        let report = try PolicyChecker(scenario: scenario, days: 2, invariants: invariants).check(seeds: [1], jobs: 1)
        #expect(report.firstFailure?.violations.first?.invariant == "earliestBeginWithin(15–60 min)", "\(report.firstFailure.map { "\($0.violations)" } ?? "none")")
    }

    @Test("a check gives the same runs, violations and digests for 1 and 2 jobs")
    func jobsDoNotMatter() throws {
        var checker = PolicyChecker(scenario: Presets.scenario(named: "coverdrop-send-forgetful")!, days: 3)
        checker.swarm = Swarm()
        let one = try checker.check(seeds: Array(1...40), jobs: 1)
        let two = try checker.check(seeds: Array(1...40), jobs: 2)
        #expect(one.runs.map(\.digest) == two.runs.map(\.digest))
        #expect(one.runs.map(\.violations) == two.runs.map(\.violations))
        #expect(one.runs.map(\.seed) == Array(1...40))
    }

    @Test("a check keeping only the failures finds the same failing runs and first failure as one keeping every run, and counts every seed")
    func keepingFailures() throws {
        // Without a swarm, seed 24 of 1–40 fails within 3 days (the planted bug).
        let checker = PolicyChecker(scenario: Presets.scenario(named: "coverdrop-send-forgetful")!, days: 3)
        let every = try checker.check(seeds: Array(1...40), jobs: 2)
        let kept = try checker.checkKeepingFailures(first: 1, count: 40, jobs: 2)
        #expect(!kept.runs.isEmpty && kept.runs.allSatisfy { !$0.passed })
        #expect(kept.runs.map(\.seed) == every.failures.map(\.seed))
        #expect(kept.runs.map(\.violations) == every.failures.map(\.violations))
        #expect(kept.firstFailure?.seed == every.firstFailure?.seed && kept.seedsChecked == 40 && every.seedsChecked == 40)
        #expect(FailureReport.describe(kept, shrunk: nil, scenarioFile: nil, replayable: false)
                == FailureReport.describe(every, shrunk: nil, scenarioFile: nil, replayable: false))
    }

    @Test("a swarm draws the same scenario for a seed every time, different ones for different seeds, all valid")
    func swarmScenarios() throws {
        let base = Presets.scenario(named: "proton-upload-designed")!
        let swarm = Swarm()
        #expect(swarm.scenario(around: base, seed: 9, days: 7) == swarm.scenario(around: base, seed: 9, days: 7))
        var launchModels: Set<String> = []
        var faultKinds = [0, 0, 0, 0, 0, 0]
        for seed in UInt64(1)...200 {
            let scenario = swarm.scenario(around: base, seed: seed, days: 7)
            #expect(scenario.validate().isEmpty, "seed \(seed): \(scenario.validate())")
            _ = try RunSetup(scenario: scenario, seed: seed)
            launchModels.insert(scenario.system.launchModel.rawValue)
            let f = scenario.faults
            for (index, count) in [f.earlyExpirations.count, f.jetsams.count, f.backgroundAppRefreshOff.count,
                                   f.networkFlaps.count, f.submitErrors.count, f.batteryDeaths.count].enumerated() {
                faultKinds[index] += count
            }
        }
        #expect(launchModels.count == 3)
        #expect(faultKinds.allSatisfy { $0 > 0 }, "every kind of fault is drawn: \(faultKinds)")
        #expect(swarm.scenario(around: base, seed: 1, days: 7) != swarm.scenario(around: base, seed: 2, days: 7))
    }

    @Test("the planted bug is found and shrunk to at most 2 days and one clock jump; the written scenario replays it")
    func plantedBug() throws {
        let checker = PolicyChecker(scenario: Presets.scenario(named: "coverdrop-send-forgetful")!, days: 7)
        let report = try checker.check(seeds: Array(1...400), jobs: 2)
        let first = try #require(report.firstFailure)
        #expect(first.violations[0].invariant == "taskCompletedExactlyOnce")
        let shrunk = try Shrinker(checker: checker).shrink(first)
        #expect(shrunk.minimal.days <= 2)
        #expect(shrunk.minimal.scenario.clock.jumps.count == 1)
        #expect(shrunk.minimal.scenario.clock.randomJumpsPerDay == 0)
        #expect(shrunk.minimal.scenario.clock.jumps[0].byMinutes < 0, "the bug needs the clock to go back")
        #expect(shrunk.minimal.scenario.faults.isEmpty)
        #expect(shrunk.violation.invariant == "taskCompletedExactlyOnce")

        // The minimal scenario, written and read back, fails the same way with the same seed.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("shrunk-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ScenarioFile.write(shrunk.minimal.scenario, to: path)
        let replayed = try checker.check(seed: shrunk.minimal.seed, scenario: try ScenarioLoader.load(path: path), days: shrunk.minimal.days)
        #expect(replayed.violations.first?.invariant == "taskCompletedExactlyOnce")
        #expect(replayed.violations.first?.time == shrunk.violation.time)
    }

    @Test("shrinking removes every fault the failure does not need and cuts the run at the failing day")
    func shrinkingRemovesUnneededFaults() throws {
        /// Fails at the first jetsam-fault kill.
        struct NoJetsamKills: Invariant {
            let name = "noJetsamKills"
            func observe(_ entry: SystemLogEntry, in run: inout RunContext) {
                if entry.event == .kill(.jetsamFault) { run.fail("killed by a jetsam fault") }
            }
        }
        var scenario = Presets.scenario(named: "probe-refresh")!
        scenario.system.launchModel = .eager
        scenario.faults.networkFlaps = [.init(fromHours: 2, toHours: 3, offSeconds: 30, onSeconds: 30)]
        scenario.faults.submitErrors = [.init(fromHours: 30, toHours: 40, error: .unavailable)]
        scenario.faults.jetsams = [.init(atHours: 60.25), .init(atHours: 61.25), .init(atHours: 100.25)]
        scenario.faults.batteryDeaths = [.init(atHours: 120)]
        let checker = PolicyChecker(scenario: scenario, days: 7, invariants: [NoJetsamKills()])
        let failure = try #require(try checker.check(seeds: [1, 2, 3], jobs: 1).firstFailure)
        let shrunk = try Shrinker(checker: checker).shrink(failure)
        let faults = shrunk.minimal.scenario.faults
        #expect(faults.count == 1 && faults.jetsams.count == 1, "\(faults)")
        #expect(shrunk.minimal.days == shrunk.violation.day + 1)
        #expect(shrunk.minimal.days <= failure.days)
    }

    @Test("a test's own policy is checked through the policy factory, and its failure names a replay in code")
    func ownPolicy() throws {
        /// Registers, submits a refresh on leaving the app, and never completes the task.
        final class Forgetful: BackgroundPolicy {
            func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
                app.taskScheduler.register(forTaskWithIdentifier: "own.refresh") { task in
                    task.expirationHandler = {}
                }
            }
            func didEnterBackground(_ app: AppContext) {
                try? app.taskScheduler.submit(.appRefresh(identifier: "own.refresh"))
            }
        }
        var scenario = Scenario()
        scenario.app.permittedIdentifiers = ["own.refresh"]
        scenario.system.launchModel = .eager
        let checker = PolicyChecker(scenario: scenario, days: 3, policy: { Forgetful() })
        let report = try checker.check(seeds: Array(1...5), jobs: 2)
        #expect(report.failures.count == 5)
        let text = FailureReport.describe(report, shrunk: try Shrinker(checker: checker).shrink(report.firstFailure!),
                                          scenarioFile: "/tmp/x.json", replayable: false)
        #expect(text.contains("replay: checker.check(seed:"))
        #expect(!text.contains("bgsim run"))
        // A team's tool that knows the policy replays it by its own name.
        let shrunk = try Shrinker(checker: checker).shrink(report.firstFailure!)
        let named = FailureReport.describe(report, shrunk: shrunk, scenarioFile: "/tmp/x.json", replayable: true, toolName: "mysim")
        #expect(named.contains("replay: mysim run --scenario /tmp/x.json --seed ") && named.contains("check:  mysim check --scenario /tmp/x.json"))
        #expect(!named.contains("bgsim"))
    }

    @Test("expectNoViolations records one issue, with the replay, when a run breaks an invariant")
    func swiftTestingIssue() throws {
        let checker = PolicyChecker(scenario: Presets.scenario(named: "coverdrop-send-forgetful")!, days: 7)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try withKnownIssue {
            try checker.expectNoViolations(seeds: Array(1...300), jobs: 2, directory: directory.path)
        } matching: { issue in
            issue.description.contains("taskCompletedExactlyOnce broken") && issue.description.contains("replay: bgsim run --scenario")
        }
        // And none when every invariant holds.
        try PolicyChecker(scenario: Presets.scenario(named: ReferenceApp.CoverDropName.designed)!, days: 3).expectNoViolations(seeds: Array(1...10), jobs: 2)
    }

    @Test("the app draws nothing while the phone is off (found by a swarm: the ledger booked a radio tail at 0 %)")
    func nothingDrawnWhileOff() throws {
        // The scenario the shrinker wrote for swarm seed 639 of coverdrop-send-forgetful.
        var scenario = Presets.scenario(named: "coverdrop-send-forgetful")!
        scenario.clock.randomJumpsPerDay = 0
        scenario.power.initialBatteryPercent = 94.61196192097609
        scenario.power.overnightChargeProbability = 0.3197843094242244
        scenario.power.topUpsPerDay = 0.6818740065469568
        scenario.system.launchModel = .eager
        scenario.user.app.profile = .severalTimesADay
        scenario.user.sessionsPerDay = 112.6568767680401
        let run = try PolicyChecker(scenario: scenario, days: 2, invariants: [EnergyLedgerBalances()]).check(seed: 639)
        #expect(run.violations.isEmpty)
    }
}

/// A team's parameters promising delays of 15–60 min and runs 30 min apart.
private struct TeamSyncParameters: PolicyParameters {
    func validate(_ validator: inout ParameterValidator) {}
    var promises: [PolicyPromise] { [.earliestBeginWithin(identifier: "team.sync", minutes: 15...60), .minimumRunInterval(minutes: 30)] }
}

/// A policy that breaks its parameters' promise: it asks to begin 5 min after leaving.
private final class TeamSync: BackgroundPolicy {
    func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: "team.sync") { task in task.setTaskCompleted(success: true) }
    }
    func didEnterBackground(_ app: AppContext) {
        var request = TaskRequest.appRefresh(identifier: "team.sync")
        request.earliestBeginDate = app.date + .minutes(5)
        try? app.taskScheduler.submit(request)
    }
}
