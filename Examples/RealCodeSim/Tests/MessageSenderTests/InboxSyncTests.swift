import BackgroundSim
import BackgroundSimTesting
import Dispatch
import Foundation
@testable import InboxSync
import SimKernel
import SimulatedBackgroundTasks
import Testing

/// Serialized: one test runs the service's code in this OS process (the build that resets its
/// statics by hand), and a process per launch starts from a copy of this process.
@Suite("The inbox service, a singleton with statics, run as iOS runs a process", .serialized)
struct InboxSyncTests {
    /// A run of the inbox service on `scenario` (the preset's, with `app` changed), and its log.
    static func run(seed: UInt64 = 1, days: Int, forceQuitProbability: Double = 0.5, crashEveryNthLaunch: Int = 0,
                    policy: PolicyDefinition = .inboxSync) throws -> (result: RunResult, log: [SystemLogEntry]) {
        var scenario = Presets.Preset.inboxSync.scenario
        scenario.user.app.forceQuitProbability = forceQuitProbability
        var parameters = InboxParameters()
        parameters.crashEveryNthLaunch = crashEveryNthLaunch
        scenario.app.policy = PolicyConfiguration(policy, parameters: parameters)
        var log: [SystemLogEntry] = []
        let result = try SimulationRunner.run(scenario: scenario, seed: seed, days: days, log: { log.append($0) })
        return (result, log)
    }

    static func lines(_ log: [SystemLogEntry], at time: SimInstant) -> [String] {
        log.compactMap { entry in
            guard entry.time == time, case .appOutput(let line) = entry.event else { return nil }
            return line
        }
    }

    @Test("after every force-quit, the next launch runs the start-up path again, at the launch's instant: the sync and the failsafe request, as on iOS")
    func startUpRunsAtEveryLaunch() throws {
        let (result, log) = try Self.run(days: 21, forceQuitProbability: 1)
        let launches = log.filter { if case .launch = $0.event { true } else { false } }
        #expect(launches.count >= 20)
        for launch in launches {
            #expect(Self.lines(log, at: launch.time).first == "com.example.inbox sync info: start-up: syncing the inbox", "at \(launch.time)")
            let submitted = log.contains { entry in
                if case .submit(InboxSyncService.refreshIdentifier, _, _) = entry.event { entry.time == launch.time } else { false }
            }
            #expect(submitted, "the failsafe request at \(launch.time)")
        }
        #expect(result.os.metrics.crashes(.duplicateRegistration) == 0)
    }

    @Test("a process per launch gives the same run, event for event, as a build that resets the service's statics by hand at each launch")
    func equalsStaticsResetByHand() throws {
        let resetByHand = PolicyDefinition.appDelegate(
            name: "inbox-real", summary: "The inbox service, its statics reset by hand at each launch, in one process.",
            parameters: InboxParameters.self, taskIdentifiers: [InboxSyncService.refreshIdentifier],
            server: SimulatedServer { _, _ in Data(count: InboxSyncService.syncBytes) }, isolation: .sharedProcess) { _ in
            InboxSyncService.resetProcessState()
            return InboxAppDelegate()
        }
        for seed: UInt64 in [1, 2, 3] {
            let own = try Self.run(seed: seed, days: 28)
            // The build that resets by hand runs in this process: its statics are put back after,
            // for a process per launch starts from a copy of this one.
            defer { InboxSyncService.resetProcessState() }
            let byHand = try Self.run(seed: seed, days: 28, policy: resetByHand)
            #expect(own.result.digest == byHand.result.digest, "seed \(seed)")
            #expect(own.log == byHand.log, "seed \(seed)")
            #expect(own.result.work.completed > 20, "seed \(seed)")
        }
    }

    @Test("an expiration completes its task from the main queue in simulated time: no task is killed for not completing")
    func expirationsCompleteInTime() throws {
        let (result, log) = try Self.run(seed: 4, days: 60)
        #expect(result.os.metrics.expirations > 0)
        #expect(!log.contains { if case .kill(.taskNotCompleted) = $0.event { true } else { false } })
    }

    @Test("a trap every third launch is counted as a crash of that process (appCodeTrapped) with the runtime's message, and the run goes on")
    func crashesAreContained() throws {
        let (result, log) = try Self.run(days: 14, crashEveryNthLaunch: 3)
        let launches = log.filter { if case .launch = $0.event { true } else { false } }
        let crashes = log.filter { if case .crash(.appCodeTrapped, _) = $0.event { true } else { false } }
        #expect(crashes.count == launches.count / 3)
        #expect(result.os.metrics.crashes(.appCodeTrapped) == crashes.count)
        for crash in crashes {
            #expect(Self.lines(log, at: crash.time).last?.contains("Unexpectedly found nil") == true, "at \(crash.time)")
        }
    }

    @Test("simulations on two threads at once give the same digests as one after another")
    func parallelEqualsSequential() throws {
        let seeds: [UInt64] = Array(1...8)
        let alone = try seeds.map { try Self.run(seed: $0, days: 14).result.digest }
        let parallel = DigestSlots(count: seeds.count)
        Dispatch.DispatchQueue.concurrentPerform(iterations: seeds.count) { index in
            parallel.set(index, try? Self.run(seed: seeds[index], days: 14).result.digest)
        }
        #expect(parallel.values == alone.map(Optional.some))
    }

    @Test("the service keeps every standard invariant over 30 swarm seeds")
    func keepsTheInvariants() throws {
        var checker = PolicyChecker(scenario: Presets.Preset.inboxSync.scenario, days: 7)
        checker.swarm = Swarm()
        try checker.expectNoViolations(seeds: Array(1...30))
    }
}

/// Digests written from several threads, each to its own slot.
final class DigestSlots: @unchecked Sendable {
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
