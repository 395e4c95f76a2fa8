@testable import BackgroundSim
import SimKernel
import Testing

/// Each seed document's described behaviour, checked on preset runs through the system's log.
@Suite("Reference policies")
struct ReferencePolicyTests {
    struct Run {
        var result: RunResult
        var log: [SystemLogEntry]
        func entries(_ kind: SystemLogEvent.Kind) -> [SystemLogEntry] { log.filter { $0.event.kind == kind } }

        /// The earliest-begin delay of a `submit` entry, in seconds.
        func delaySeconds(_ entry: SystemLogEntry) -> Double? {
            if case .submit(_, _, let delay) = entry.event { return delay.seconds }
            return nil
        }
    }

    func run(_ scenario: Scenario, seed: UInt64 = 1, days: Int = 60) throws -> Run {
        final class Sink { var log: [SystemLogEntry] = [] }
        let sink = Sink()
        let result = try SimulationRunner.run(scenario: scenario, seed: seed, days: days, log: { sink.log.append($0) })
        return Run(result: result, log: sink.log)
    }

    // MARK: Proton Drive (seeds 000, 001)

    @Test("Proton: uploads complete, some in the background; URLs expire after 3 h")
    func protonUploads() throws {
        let run = try run(Presets.scenario(named: "proton-upload-designed")!, days: 120)
        let work = run.result.work
        #expect(work.created > 50)
        #expect(work.completed + work.metrics.failed + work.metrics.backlogAtEnd == work.created)
        // Every item that never completed counts once, censored at the run's end.
        #expect(work.metrics.censoredLatency.count == UInt64(work.metrics.failed + work.metrics.backlogAtEnd))
        #expect(work.metrics.censoredLatency.maximum <= 120 * 86_400)
        #expect(work.metrics.latency.maximum <= 3 * 3_600, "nothing completes after its URL expired")
        #expect(work.metrics.failedDeadline > 0, "some URLs expire")
        #expect(run.result.os.metrics.assertionsBegun > 0)
        // Some uploads finish while the app is in the background: the queue empties between a
        // didEnterBackground and the next return to the foreground.
        var inBackground = false
        var emptiedInBackground = 0
        for entry in run.log {
            switch entry.event {
            case .didEnterBackground, .launch(reason: .backgroundTask): inBackground = true
            case .willEnterForeground, .launch(reason: .user): inBackground = false
            case .workQueueEmpty where inBackground: emptiedInBackground += 1
            default: break
            }
        }
        #expect(emptiedInBackground > 0)
    }

    @Test("Proton: the extension is begun only with uploads in progress")
    func protonExtensionOnlyWithWork() throws {
        var scenario = Presets.scenario(named: "proton-upload-designed")!
        scenario.work.arrivals = .none
        let run = try run(scenario)
        #expect(run.result.os.metrics.assertionsBegun == 0)
        #expect(run.entries(.submit).isEmpty, "no work, nothing scheduled")
    }

    @Test("Proton: an extension expiring with uploads left leaves a processing request pending; none once all are done")
    func protonSchedulesProcessing() throws {
        var scenario = SystemHarness.quietScenario
        let parameters = ProtonUploadDesignedParameters()
        scenario.app.permittedIdentifiers = [parameters.identifier]
        scenario.work.deadlineHours = 3
        scenario.energy.tailShareProbability = 0
        let harness = try SystemHarness(scenario) { ProtonUploadDesigned(parameters: parameters) }
        harness.system.work.enqueue(created: .at(0), uploadBytes: 200_000_000)  // far more than 30 s of upload
        harness.useApp(at: .at(0), for: .seconds(20))
        try harness.run(until: .at(48))
        #expect(harness.system.pending.entries.map(\.request.identifier) == [parameters.identifier])
        #expect(harness.entries(.kill).isEmpty)
        // The processing task (earliest +1 min, eager model) finishes the upload; nothing is left pending.
        try harness.run(until: .at(3 * 3_600))
        #expect(harness.system.work.finish(at: .at(3 * 3_600)).completed == 1)
        #expect(harness.system.pending.isEmpty)
        #expect(harness.system.metrics.tasksCompletedSuccessfully >= 1)
    }

    // MARK: CoverDrop

    @Test("CoverDrop: no two successful runs within an hour (no clock jumps)")
    func coverDropRateLimit() throws {
        let run = try run(Presets.scenario(named: ReferenceApp.CoverDropName.designed)!, days: 120)
        let successes = run.log.filter { $0.event == .workQueueEmpty || $0.event == .workLimitReached }.map(\.time)
        #expect(successes.count > 30)
        for (earlier, later) in zip(successes, successes.dropFirst()) {
            #expect(earlier.duration(to: later) >= .hours(1), "successes at \(earlier) and \(later)")
        }
    }

    @Test("CoverDrop: a clock jump back lets the worker run within the hour")
    func coverDropClockJump() throws {
        var scenario = SystemHarness.quietScenario
        let parameters = CoverDropDesignedParameters()
        scenario.app.permittedIdentifiers = [parameters.identifier]
        let harness = try SystemHarness(scenario) { CoverDropDesigned(parameters: parameters) }
        // Force-quits make every open a cold start, where onAppStart runs.
        harness.useApp(at: .at(0), for: .minutes(1), forceQuit: true)
        try harness.run(until: .at(120))
        // Work pending, and a successful run 10 min ago by the device clock.
        harness.system.defaults.set(true, forKey: CoverDropDesigned.pendingKey)
        harness.system.defaults.set(.at(120) - .minutes(10), forKey: CoverDropDesigned.lastRunKey)
        harness.useApp(at: .at(200), for: .minutes(1), forceQuit: true)   // rate-limited: no run
        try harness.run(until: .at(300))
        #expect(harness.entries(.workQueueEmpty).isEmpty)
        harness.inject(.clockJump(seconds: -3_600), at: .at(400))  // the clock goes back an hour
        harness.useApp(at: .at(500), for: .minutes(1))       // the last run now lies in the future: run
        try harness.run(until: .at(600))
        #expect(harness.entries(.workQueueEmpty).map(\.time) == [.at(500)])
    }

    @Test("CoverDrop: every delay within 5–120 min (+10 for the failsafe); a failsafe after each app start", arguments: [UInt64(1), 2])
    func coverDropDelays(seed: UInt64) throws {
        var scenario = Presets.scenario(named: ReferenceApp.CoverDropName.designed)!
        scenario.network.offlineShare = 0.3                  // errors: retries with backoff
        let run = try run(scenario, seed: seed, days: 60)
        let submits = run.entries(.submit)
        #expect(submits.count > 50)
        for submit in submits {
            let seconds = try #require(run.delaySeconds(submit))
            #expect((5 * 60...130 * 60).contains(seconds.rounded()), "delay \(seconds / 60) min")
        }
        // At each app start, after any immediate run of the worker (whose retry may come first),
        // the failsafe: 10 min plus a delay of at least 5.
        for launch in run.entries(.launch) {
            let delays = submits.filter { $0.time == launch.time }.compactMap(run.delaySeconds)
            #expect(delays.contains { $0 >= 15 * 60 - 1e-6 }, "a failsafe request at the start at \(launch.time): \(delays)")
        }
        #expect(run.result.os.metrics.submits > 0)
    }

    // MARK: Zashi

    @Test("Zashi: setTaskCompleted(true) exactly when synced; processing only on power, syncing only on Wi-Fi")
    func zashiCompletion() throws {
        let run = try run(Presets.scenario(named: "zashi-designed")!, days: 60)
        let synced = Set(run.entries(.workQueueEmpty).map(\.time))
        let completions = run.entries(.taskCompleted)
        #expect(completions.count > 30)
        for completion in completions {
            guard case .taskCompleted(_, _, let success) = completion.event else { continue }
            #expect(success == synced.contains(completion.time), "completion at \(completion.time)")
        }
        #expect(run.result.os.launchesWhileChargingShare == 1)
        #expect(run.result.work.created == 60 * 1_152)
        #expect(run.result.work.completed > run.result.work.created * 9 / 10)
        // Without Wi-Fi, the same user's tasks still launch (on power) but never sync.
        var cellular = Presets.scenario(named: "zashi-designed")!
        cellular.network.homeWifiProbability = 0
        cellular.network.wifiShare = 0
        let noWifi = try self.run(cellular, days: 60)
        let outcomes = noWifi.entries(.taskCompleted).compactMap { entry -> Bool? in
            if case .taskCompleted(_, _, let success) = entry.event { return success }
            return nil
        }
        #expect(outcomes.count > 30, "tasks still launch")
        #expect(!outcomes.contains(true), "no task syncs off Wi-Fi")
    }

    // MARK: TestBGScheduler

    @Test("The demo runs its three operations in order in each refresh run")
    func demoOperations() throws {
        var scenario = Presets.scenario(named: "bgscheduler-designed")!
        scenario.system.launchModel = .eager
        final class Holder { var system: SimulatedSystem? }
        let holder = Holder()
        let result = try SimulationRunner.run(scenario: scenario, seed: 1, days: 3, policy: nil, tracer: nil, log: nil,
                                              configure: { holder.system = $0 })
        let defaults = try #require(holder.system).defaults
        let operations = defaults.integer(forKey: BGSchedulerDesigned.completedKey)
        #expect(operations > 100)
        #expect(defaults.integer(forKey: BGSchedulerDesigned.outOfOrderKey) == 0)
        #expect(operations >= 3 * result.os.metrics.tasksCompletedSuccessfully)
        // Eager: a launch every 60 s while the app is in the background and not in Low Power Mode.
        #expect(result.os.refreshLaunchesPerDay > 500)
    }
}
