import BackgroundSim
import SimKernel
import SimulatedBackgroundTasks
import Dispatch
import Synchronization
import Testing

/// What a run's app code wrote to its journal, shared with the policy's launches.
final class SharedJournal: @unchecked Sendable {
    var lines: [String] = []
}

@Suite("An app's own code under simulated iOS")
struct AppDelegatePolicyTests {
    /// The scenario, decoded with `policies` (a scenario keeps the definition it was decoded with).
    static func scenario(_ policies: PolicyRegistry) throws -> Scenario {
        try ScenarioLoader.decode(#"{"app": {"policy": "real-refresh", "permittedIdentifiers": ["com.example.refresh"]}}"#,
                                  source: "real.json", policies: policies)
    }

    static func policies(journal: SharedJournal, fetchSeconds: UInt64 = 2) -> PolicyRegistry {
        var policies = PolicyRegistry.builtIn
        // The test reads the journal it shares with the app's code: one process (ProcessIsolationTests
        // requires the same log with a process per launch).
        try! policies.register(.appDelegate(name: "real-refresh", summary: "A refresh service written against Apple's API.",
                                            taskIdentifiers: [RefreshService.identifier], isolation: .sharedProcess) {
            RefreshAppDelegate(fetchSeconds: fetchSeconds) { journal.lines.append($0) }
        })
        return policies
    }

    static func run(seed: UInt64, days: Int, fetchSeconds: UInt64 = 2) throws -> (result: RunResult, journal: [String]) {
        let journal = SharedJournal()
        let policies = policies(journal: journal, fetchSeconds: fetchSeconds)
        let result = try SimulationRunner.run(scenario: try scenario(policies), seed: seed, days: days, policies: policies)
        return (result, journal.lines)
    }

    @Test("an app delegate and a refresh service written against Apple's API run: tasks launch, their async fetch completes in simulated time")
    func refreshServiceRuns() throws {
        let (result, journal) = try Self.run(seed: 1, days: 14)
        #expect(result.os.metrics.refreshLaunches > 5, "\(result.os.metrics)")
        #expect(journal.filter { $0 == "fetched" }.count >= 5, "\(journal)")
        #expect(!journal.contains { $0.hasPrefix("submit failed") || $0 == "not permitted" }, "\(journal)")
        // The last refresh, stored as Date() in UserDefaults, reads back as simulated time ago:
        // at least the hour the service asks between refreshes, and never the real milliseconds.
        let minutes = journal.compactMap { $0.hasPrefix("minutes since the last refresh: ") ? Int($0.split(separator: " ").last!) : nil }
        #expect(minutes.count >= 5 && minutes.allSatisfy { $0 >= 1 }, "\(minutes)")
        #expect(minutes.contains { $0 >= 60 }, "\(minutes)")
    }

    @Test("a fetch longer than a refresh task's 30 s is still running when the task expires: the expiration handler cancels it, the sleep ends in CancellationError, and the run records the expirations")
    func expirationCancelsTheAsyncWork() throws {
        let (result, journal) = try Self.run(seed: 1, days: 14, fetchSeconds: 60)
        #expect(result.os.metrics.refreshLaunches > 5)
        #expect(result.os.metrics.expirations >= result.os.metrics.refreshLaunches - 1, "\(result.os.metrics.expirations) expirations")
        #expect(!journal.contains("fetched"), "\(journal)")
        let expired = journal.indices.filter { journal[$0] == "expired" }
        #expect(expired.count >= 5 && expired.allSatisfy { $0 + 1 < journal.count && journal[$0 + 1] == "cancelled" }, "\(journal)")
    }

    @Test("the same code, scenario and seed give the same digest on repeated runs and in parallel")
    func deterministic() throws {
        let reference = try Self.run(seed: 3, days: 7)
        for _ in 0..<5 { #expect(try Self.run(seed: 3, days: 7).result.digest == reference.result.digest) }
        let digests = Mutex<[TraceDigest?]>(Array(repeating: nil, count: 4))
        Dispatch.DispatchQueue.concurrentPerform(iterations: 4) { index in
            let digest = try? Self.run(seed: 3, days: 7).result.digest
            digests.withLock { $0[index] = digest }
        }
        #expect(digests.withLock { $0 }.allSatisfy { $0 == reference.result.digest })
    }
}

/// An app delegate whose second launch starts a loop that never lets time move.
final class RunawayOnSecondLaunchDelegate: UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let launches = UserDefaults.standard.integer(forKey: "launches") + 1
        UserDefaults.standard.set(launches, forKey: "launches")
        if launches == 2 {
            Task { while true { await Task.yield() } }
        }
        return true
    }
}

@Suite("An app's own code that does not settle")
struct RunawayAppCodeTests {
    @Test("a loop that never lets time move crashes that launch of the app (asyncWorkDidNotSettle), and the run goes on")
    func runawayCrashesTheApp() throws {
        var policies = PolicyRegistry.builtIn
        try policies.register(.appDelegate(name: "runaway", summary: "Loops on its second launch.", taskIdentifiers: []) {
            RunawayOnSecondLaunchDelegate()
        })
        let scenario = try ScenarioLoader.decode(#"{"app": {"policy": "runaway"}}"#, source: "runaway.json", policies: policies)
        var launches = 0, crashes: [SystemLogEntry] = []
        let result = try SimulationRunner.run(scenario: scenario, seed: 1, days: 7, policies: policies, log: { entry in
            if case .launch = entry.event { launches += 1 }
            if case .crash = entry.event { crashes.append(entry) }
        })
        #expect(result.os.metrics.crashes(.asyncWorkDidNotSettle) == 1)
        #expect(result.os.metrics.appCodeCrashes == 1)
        #expect(crashes.count == 1)
        #expect(launches >= 4, "the app launched again after the crash")
    }
}
