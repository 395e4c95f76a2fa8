import BackgroundSim
import Dispatch
import Foundation
import SimKernel
import SimulatedBackgroundTasks
import Testing

/// The log of one run of app code, with each entry's time.
func runAppCodeTimed(_ name: String, taskIdentifiers: [String] = [], scenario: String = "{}", seed: UInt64 = 1, days: Int,
                      isolation: AppProcessIsolation, make: @escaping @Sendable () -> any UIApplicationDelegate) throws
    -> (result: RunResult, log: [SystemLogEntry]) {
    var policies = PolicyRegistry.builtIn
    try policies.register(.appDelegate(name: name, summary: "App code under test.", taskIdentifiers: taskIdentifiers,
                                       isolation: isolation, make: make))
    var object = try JSONSerialization.jsonObject(with: Data(scenario.utf8)) as? [String: Any] ?? [:]
    object["app"] = ["policy": name, "permittedIdentifiers": taskIdentifiers]
    let json = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    let decoded = try ScenarioLoader.decode(json, source: "\(name).json", policies: policies)
    var log: [SystemLogEntry] = []
    let result = try SimulationRunner.run(scenario: decoded, seed: seed, days: days, policies: policies, log: { log.append($0) })
    return (result, log)
}

/// The lines the app's code wrote, each with its time.
private func output(_ log: [SystemLogEntry]) -> [(time: SimInstant, line: String)] {
    log.compactMap { if case .appOutput(let line) = $0.event { ($0.time, line) } else { nil } }
}

/// Serialized: one test runs the statics service's code in this process (with its statics reset
/// by hand, and put back after), and a process per launch starts from a copy of this process.
@Suite("A simulated app process is a process", .serialized)
struct ProcessIsolationTests {
    /// Runs an app of these suites in one process and with a process per launch: the same
    /// events, at the same times, and the same digest, whatever the app shares with the test.
    private func expectSameRun(_ name: String, taskIdentifiers: [String] = [], scenario: String = "{}", seed: UInt64 = 1, days: Int,
                               make: @escaping @Sendable () -> any UIApplicationDelegate) throws {
        let shared = try runAppCodeTimed(name, taskIdentifiers: taskIdentifiers, scenario: scenario, seed: seed, days: days, isolation: .sharedProcess, make: make)
        let own = try runAppCodeTimed(name, taskIdentifiers: taskIdentifiers, scenario: scenario, seed: seed, days: days, isolation: .processPerLaunch, make: make)
        #expect(shared.result.digest == own.result.digest, "\(name)")
        #expect(shared.log.count == own.log.count, "\(name)")
        if let first = zip(shared.log.indices, own.log.indices).first(where: { shared.log[$0.0] != own.log[$0.1] })?.0 {
            Issue.record("\(name): the logs part at entry \(first): \(shared.log[first]) in one process, \(own.log[first]) with a process per launch")
        }
        #expect(shared.log.contains { if case .launch = $0.event { true } else { false } }, "\(name) never launched")
    }

    @Test("each app of these suites gives the same events, at the same times, and the same digest with a process per launch as in one process")
    func theSameRunEitherWay() throws {
        try expectSameRun("refresh", taskIdentifiers: [RefreshService.identifier], days: 14) { RefreshAppDelegate(fetchSeconds: 2) { _ in } }
        try expectSameRun("refresh-expiring", taskIdentifiers: [RefreshService.identifier], days: 14) {
            RefreshAppDelegate(fetchSeconds: 60) { _ in }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-isolation-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try expectSameRun("photos", scenario: #"{"work": {"arrivals": "none"}}"#, days: 7) {
            PhotoAppDelegate(uploader: PhotoUploader(photoBytes: 30_000_000, directory: directory) { _ in })
        }
        try expectSameRun("export", taskIdentifiers: [ExportService.wildcard],
                          scenario: #"{"system": {"continuedProcessing": {"userCancelProbability": 0.3}}}"#, days: 3) {
            ExportAppDelegate(service: ExportService(steps: 10, stepSeconds: 20, reportsEachStep: true) { _ in })
        }
        try expectSameRun("hears-device", scenario: #"""
            {"user": {"app": {"profile": "custom", "customSessionsPerDay": 20, "forceQuitProbability": 0}},
             "power": {"initialBatteryPercent": 60, "overnightChargeProbability": 0, "lowPowerModeAcceptProbability": 1},
             "pushes": {"schedule": "cadence", "everyMinutes": 30}}
            """#, seed: 2, days: 2) { DeviceNotificationsDelegate(SharedJournal()) }
        try expectSameRun("pushed", scenario: #"{"pushes": {"schedule": "cadence", "everyMinutes": 61}}"#, days: 3) {
            PushFetchingDelegate(fetchSeconds: 40, journal: SharedJournal())
        }
        try expectSameRun("probes-services", scenario: #"{"calendar": {"startDate": "2026-03-02", "startTime": "08:00"}}"#, days: 7) {
            ServiceProbingDelegate(ServiceReadings())
        }
        try expectSameRun("probe", scenario: #"{"work": {"arrivals": "none"}, "user": {"app": {"forceQuitProbability": 0}}}"#, days: 2) {
            TransferProbe(uploadBytes: 50_000_000, cancelAfter: 1, journal: SharedJournal())
        }
    }

    @Test("after a force-quit, the next launch starts with every static fresh: the singleton's start-up path runs again at each launch's instant, as on iOS")
    func staticsAreFreshAtEachLaunch() throws {
        let scenario = #"{"user": {"app": {"forceQuitProbability": 1}}}"#
        let run = try runAppCodeTimed("statics", taskIdentifiers: [StaticsService.identifier], scenario: scenario, days: 3,
                               isolation: .processPerLaunch) { StaticsAppDelegate() }
        let launches = run.log.filter { if case .launch = $0.event { true } else { false } }
        #expect(launches.count >= 5)
        for launch in launches {
            let lines = output(run.log).filter { $0.time == launch.time }.map(\.line)
            #expect(lines == ["launch 1 in this process", "start-up ran"], "at \(launch.time)")
        }
        #expect(run.result.os.metrics.submits >= launches.count)
    }

    @Test("a process per launch gives the same results as the same service with its statics reset by hand at each launch")
    func freshStaticsEqualStaticsResetByHand() throws {
        let scenario = #"{"user": {"app": {"forceQuitProbability": 0.5}}}"#
        let own = try runAppCodeTimed("statics", taskIdentifiers: [StaticsService.identifier], scenario: scenario, seed: 3, days: 14,
                               isolation: .processPerLaunch) { StaticsAppDelegate() }
        // The build that resets them runs its code in this process: its statics are put back after.
        defer { ResettingStaticsAppDelegate.resetStatics() }
        let byHand = try runAppCodeTimed("statics", taskIdentifiers: [StaticsService.identifier], scenario: scenario, seed: 3, days: 14,
                                  isolation: .sharedProcess) { ResettingStaticsAppDelegate() }
        #expect(output(own.log).count > 20)
        #expect(own.result.digest == byHand.result.digest)
        #expect(own.log == byHand.log)
    }

    @Test("simulations on two threads at once give the same digests as one after another, and a seed's result does not depend on the seeds run before it")
    func nothingSharedBetweenSimulations() throws {
        let scenario = #"{"user": {"app": {"forceQuitProbability": 0.5}}}"#
        let seeds: [UInt64] = [1, 2, 3, 4, 5, 6]
        let alone = try seeds.map { seed in
            try runAppCodeTimed("statics", taskIdentifiers: [StaticsService.identifier], scenario: scenario, seed: seed, days: 7,
                         isolation: .processPerLaunch) { StaticsAppDelegate() }.result.digest
        }
        let parallel = Digests(count: seeds.count)
        Dispatch.DispatchQueue.concurrentPerform(iterations: seeds.count) { index in
            let digest = try? runAppCodeTimed("statics", taskIdentifiers: [StaticsService.identifier], scenario: scenario, seed: seeds[index],
                                       days: 7, isolation: .processPerLaunch) { StaticsAppDelegate() }.result.digest
            parallel.set(index, digest)
        }
        #expect(parallel.values == alone.map(Optional.some))
        let reversed = try seeds.reversed().map { seed in
            try runAppCodeTimed("statics", taskIdentifiers: [StaticsService.identifier], scenario: scenario, seed: seed, days: 7,
                         isolation: .processPerLaunch) { StaticsAppDelegate() }.result.digest
        }
        #expect(Array(reversed.reversed()) == alone)
    }

    @Test("a trap in the app's code is a crash of that process (appCodeTrapped) at its instant, with the runtime's message as its last output in a debug build; the run goes on, later launches run, and the request made before the trap stays")
    func trapIsACrash() throws {
        let run = try runAppCodeTimed("traps", taskIdentifiers: [TrappingOnSecondLaunchDelegate.identifier],
                                      scenario: #"{"user": {"app": {"forceQuitProbability": 1}}}"#, days: 4,
                                      isolation: .processPerLaunch) { TrappingOnSecondLaunchDelegate() }
        let launches = run.log.filter { if case .launch = $0.event { true } else { false } }
        let crashes = run.log.filter { if case .crash(.appCodeTrapped, _) = $0.event { true } else { false } }
        #expect(crashes.count == 1)
        #expect(run.result.os.metrics.crashes(.appCodeTrapped) == 1 && run.result.os.metrics.appCodeCrashes == 1)
        guard let crash = crashes.first else { return }
        #expect(crash.time == launches[1].time, "the second launch traps")
        let said = output(run.log).filter { $0.time == crash.time }.map(\.line)
        #expect(said.first == "launch 2", "\(said)")
        #if DEBUG
        // An optimised build traps without the message, as an App Store build does.
        #expect(said.contains { $0.contains("Fatal error") && $0.contains("Unexpectedly found nil") }, "\(said)")
        #endif
        let terminated = run.log.first { entry in
            if case .terminate(.crash) = entry.event { entry.time == crash.time } else { false }
        }
        #expect(terminated != nil, "the process ends at the crash")
        #expect(launches.count >= 4, "launches go on after the crash")
        // The phone is as iOS leaves it after a crash: the request the process made before it
        // trapped stays pending, and the system weighs it before anything asks again.
        let crashIndex = try #require(run.log.firstIndex { if case .crash = $0.event { true } else { false } })
        let afterCrash = run.log[(crashIndex + 1)...].prefix { entry in if case .submit = entry.event { false } else { true } }
        let weighed = afterCrash.contains { entry in
            if case .launchDecision(TrappingOnSecondLaunchDelegate.identifier, _, _) = entry.event { return true }
            if case .launchDeferred(TrappingOnSecondLaunchDelegate.identifier, _, _, _) = entry.event { return true }
            return false
        }
        #expect(weighed, "the request did not survive the crash")
    }
}

/// Digests written from several threads, each to its own slot.
private final class Digests: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var values: [TraceDigest?]

    init(count: Int) {
        values = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ digest: TraceDigest?) {
        lock.lock()
        values[index] = digest
        lock.unlock()
    }
}
