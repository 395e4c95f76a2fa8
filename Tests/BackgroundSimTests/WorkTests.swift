@testable import BackgroundSim
import SimKernel
import Testing

@Suite("Work model")
struct WorkTests {
    /// A quiet harness with `work` and a policy that starts the executor at every launch.
    func harness(_ work: WorkParameters = WorkParameters(), items: [(created: Double, cpu: Double, upload: Double)] = [],
                 policy: (() -> any BackgroundPolicy)? = nil) throws -> SystemHarness {
        var scenario = SystemHarness.quietScenario
        scenario.work = work
        let harness = try SystemHarness(scenario, policy: policy ?? { ScriptedPolicy(onLaunch: { app, _ in app.work.start() }) })
        for item in items {
            harness.system.work.enqueue(created: .at(item.created), cpuSeconds: item.cpu, uploadBytes: item.upload)
        }
        return harness
    }

    func latencies(_ harness: SystemHarness, at end: SimInstant) -> WorkMetrics {
        harness.system.work.finish(at: end)
    }

    @Test("items complete back to back in the foreground, at the exact times their CPU time gives")
    func completesOnTime() throws {
        var emptyAt: SimInstant?
        let harness = try harness(items: [(0, 20, 0), (0, 30, 0), (0, 50, 0)]) {
            ScriptedPolicy(onLaunch: { app, _ in
                app.work.onQueueEmpty = { emptyAt = app.date }
                app.work.start()
            })
        }
        harness.inject(.appOpen, at: .at(100))
        try harness.run(until: .at(1_000))
        let metrics = latencies(harness, at: .at(1_000))
        #expect(metrics.completed == 3)
        #expect(metrics.latency.minimum == 120)
        #expect(metrics.latency.maximum == 200)
        #expect(emptyAt.map { abs($0.duration(to: .at(200)).seconds) < 1e-6 } == true)
    }

    @Test("work never progresses while the app is suspended; a resumable item continues, another starts again")
    func suspensionAndResumability() throws {
        for resumable in [true, false] {
            var work = WorkParameters()
            work.resumable = resumable
            let harness = try harness(work, items: [(0, 100, 0)])
            harness.useApp(at: .at(0), for: .seconds(60))       // 60 s of work, then suspended
            harness.useApp(at: .at(1_000), for: .minutes(10))
            try harness.run(until: .at(5_000))
            let metrics = latencies(harness, at: .at(5_000))
            #expect(metrics.completed == 1)
            // Resumable: 40 s left at 1,000. Not: all 100 s again.
            #expect(metrics.latency.maximum == (resumable ? 1_040 : 1_100), "resumable \(resumable)")
        }
    }

    @Test("an assertion keeps work going in the background until it ends")
    func assertionKeepsWorking() throws {
        let harness = try harness(items: [(0, 100, 0)]) {
            ScriptedPolicy(onLaunch: { app, _ in app.work.start() }, onBackground: { app in
                var id = BackgroundTaskIdentifier.invalid
                id = app.beginBackgroundTask { app.endBackgroundTask(id) }
            })
        }
        harness.useApp(at: .at(0), for: .seconds(60))  // 60 s + 27 s in the extension = 87 s
        harness.useApp(at: .at(1_000), for: .minutes(5))
        try harness.run(until: .at(2_000))
        #expect(latencies(harness, at: .at(2_000)).latency.maximum == 1_013)
    }

    @Test("uploads run at the network's throughput, after the radio's promotion")
    func uploadThroughput() throws {
        var scenario = SystemHarness.quietScenario
        scenario.energy.tailShareProbability = 0
        let harness = try SystemHarness(scenario) { ScriptedPolicy(onLaunch: { app, _ in app.work.start() }) }
        harness.system.work.enqueue(created: .at(0), uploadBytes: 13_000_000)
        harness.inject(.appOpen, at: .at(0))
        try harness.run(until: .at(3_600))
        let path = harness.world.device.network
        let rate = NetworkParameters().throughput(on: path).uplinkMbps
        let promotion = path.interface == .wifi ? 0.08 : 0.26
        let metrics = latencies(harness, at: .at(3_600))
        #expect(metrics.completed == 1)
        #expect(abs(metrics.latency.maximum - (promotion + 13 * 8 / rate)) < 1e-6, "on \(path.interface) at \(rate) Mbps")
    }

    @Test("an item not started before its deadline fails")
    func deadline() throws {
        var work = WorkParameters()
        work.deadlineHours = 0.5
        let harness = try harness(work, items: [(0, 600, 0), (0, 600, 0), (0, 600, 0), (0, 600, 0)])
        harness.inject(.appOpen, at: .at(0))
        try harness.run(until: .at(3 * 3_600))
        let metrics = latencies(harness, at: .at(3 * 3_600))
        // 10 min each, 30 min to live: the fourth reaches the head at 30 min, too late.
        #expect(metrics.completed == 3)
        #expect(metrics.failedDeadline == 1)
    }

    @Test("items arrive with app sessions, the same ones whatever the policy")
    func appSessionArrivals() throws {
        var scenario = Presets.scenario(named: "probe-refresh")!
        scenario.work.arrivals = .appSessions
        scenario.work.cpuMedianSeconds = 2
        var none = scenario
        none.app.policy = .none
        final class Sink { var count = 0 }
        let first = try SimulationRunner.run(scenario: scenario, seed: 3, days: 30)
        let second = try SimulationRunner.run(scenario: none, seed: 3, days: 30)
        #expect(first.work.created == second.work.created)
        #expect(first.work.created > 20)
        #expect(first.work.completed == 0, "the probe never starts work")
    }

    @Test("cadence items arrive one per interval, and a run's limit stops the executor")
    func cadenceAndLimit() throws {
        var work = WorkParameters()
        work.arrivals = .cadence
        work.cadenceSeconds = 75
        work.cpuMedianSeconds = 0.5
        var limitAt: SimInstant?
        let harness = try harness(work) {
            ScriptedPolicy(onLaunch: { app, _ in
                app.work.onLimitReached = { limitAt = app.date }
                app.work.start(limit: 10)
            })
        }
        harness.inject(.appOpen, at: .at(7_500))   // 100 items queued by then
        try harness.run(until: .at(8_000))
        let metrics = latencies(harness, at: .at(8_000))
        #expect(metrics.created == 106)  // ⌊8,000 / 75⌋
        #expect(metrics.completed == 10)
        #expect(limitAt == .at(7_505))
        #expect(metrics.backlogAtEnd == 96)
        // The 96 left (created at 75 s × 11 … 106) count as censored at the end, 8,000 s:
        // 96 × 8,000 − 75 × (11 + … + 106) = 768,000 − 421,200 seconds in all.
        #expect(metrics.censoredLatency.count == 96)
        #expect(metrics.censoredLatency.sum == 346_800)
        #expect(metrics.censoredLatency.minimum == 50 && metrics.censoredLatency.maximum == 7_175)
    }
}

@Suite("Work energy")
struct WorkEnergyTests {
    /// A quiet phone always on LTE with good signal, no other traffic to share the radio, no
    /// charger, whose app uploads `bytes` after `cpuSeconds` of computing when the user opens it
    /// at 100 s; the ledger at 200 s.
    func uploadLedger(bytes: Double, cpuSeconds: Double = 0, transferCPUWatts: Double = 0) throws -> EnergyLedger {
        var scenario = SystemHarness.onOneNetwork()
        scenario.energy.transferCPUWatts = transferCPUWatts
        let harness = try SystemHarness(scenario) { ScriptedPolicy(onLaunch: { app, _ in app.work.start() }) }
        harness.system.work.enqueue(created: .at(0), cpuSeconds: cpuSeconds, uploadBytes: bytes)
        harness.inject(.appOpen, at: .at(100))
        try harness.run(until: .at(200))
        var device = harness.world.device
        device.advance(to: .at(200))
        return device.ledger
    }

    @Test("one upload over LTE costs promotion + active + tail by hand, and no CPU while data flows")
    func uploadEnergyByHand() throws {
        let ledger = try uploadLedger(bytes: 6_000_000)   // 6 MB at 6 Mbps: 8 s
        // Promotion 0.26 s × 1.21 W, then data flows: active 8 s × (1.29 + 0.438 × 6) W; tail
        // 11.6 s × 1.06 W. The CPU is booked only for work not overlapped with the transfer:
        // none. The app was launched by the user: no launch overhead.
        #expect(ledger.batteryJoules(of: .appCPU) == 0)
        #expect(abs(ledger.batteryJoules(of: .appRadioPromotion) - 0.3146) < 1e-6)
        #expect(abs(ledger.batteryJoules(of: .appRadioActive) - 8 * (1.29 + 0.438 * 6)) < 1e-6)
        #expect(abs(ledger.batteryJoules(of: .appRadioTail) - 12.296) < 1e-6)
        #expect(ledger.batteryJoules(of: .appLaunchOverhead) == 0)
    }

    @Test("energy.transferCPUWatts books CPU power for the promotion and the transfer")
    func transferCPU() throws {
        let ledger = try uploadLedger(bytes: 6_000_000, transferCPUWatts: 0.1)
        // 0.26 s of promotion and 8 s of transfer at 0.1 W.
        #expect(abs(ledger.batteryJoules(of: .appCPU) - 0.1 * 8.26) < 1e-6)
    }

    @Test("an item that computes, then uploads, books CPU power for about its compute time (within the promotion's 2 %)")
    func computeThenUpload() throws {
        let ledger = try uploadLedger(bytes: 6_000_000, cpuSeconds: 4)
        // 4 s of computing at 0.25 W = 1 J. The CPU share of the item (4 of 12 s) is applied from
        // the start, so the 0.26 s promotion adds a third of 0.26 s at 0.25 W: 1.0217 J.
        let cpu = ledger.batteryJoules(of: .appCPU)
        #expect(abs(cpu - (1 + 0.25 * 0.26 / 3)) < 1e-6, "\(cpu) J")
        #expect(abs(cpu / 1 - 1) < 0.025)
    }

    @Test("a background launch costs the wake overhead: 2 s at 0.25 W")
    func launchOverhead() throws {
        let harness = try SystemHarness {
            ScriptedPolicy(onLaunch: { app, _ in
                app.taskScheduler.register(forTaskWithIdentifier: "refresh") { $0.setTaskCompleted(success: true) }
            }, onBackground: { app in
                var request = TaskRequest.appRefresh(identifier: "refresh")
                request.earliestBeginDate = app.date + .minutes(5)   // launched into the suspended app
                try? app.taskScheduler.submit(request)
            })
        }
        harness.useApp(at: .at(0))
        try harness.run(until: .at(600))
        var device = harness.world.device
        device.advance(to: .at(600))
        #expect(harness.system.metrics.refreshLaunches == 1)
        #expect(abs(device.ledger.batteryJoules(of: .appLaunchOverhead) - 0.5) < 1e-9)
    }
}

@Suite("Work failures and the CPU monitor")
struct WorkFailureTests {
    @Test("CPU-heavy work in a processing task on battery trips the CPU monitor; a killed non-resumable item fails")
    func cpuMonitorKillsWork() throws {
        var scenario = SystemHarness.quietScenario
        scenario.work.resumable = false
        let harness = try SystemHarness(scenario) {
            TaskExecutionTests.policy({ _ in .processing(identifier: "work") }) { task, app in
                task.expirationHandler = { task.setTaskCompleted(success: false) }
                app.work.start()
            }
        }
        harness.system.work.enqueue(created: .at(0), cpuSeconds: 600)   // ten minutes of computing
        harness.useApp(at: .at(0), for: .seconds(1))
        try harness.run(until: .at(1_000))
        // Processing launches at 1 s (eager), the monitor kills it 60 s later.
        #expect(harness.entries(.kill).map(\.time) == [.at(61)])
        #expect(harness.system.metrics.cpuResourceLimitExits == 1)
        let metrics = harness.system.work.finish(at: .at(1_000))
        #expect(metrics.failedKilled == 1)
    }

    @Test("giving up fails every queued item")
    func givingUp() throws {
        let harness = try SystemHarness {
            ScriptedPolicy(onLaunch: { app, _ in app.work.giveUp() })
        }
        harness.system.work.enqueue(created: .at(0), cpuSeconds: 10)
        harness.system.work.enqueue(created: .at(0), cpuSeconds: 10)
        harness.useApp(at: .at(5))
        try harness.run(until: .at(100))
        let metrics = harness.system.work.finish(at: .at(100))
        #expect(metrics.failedGivenUp == 2)
        #expect(metrics.backlogAtEnd == 0)
    }

    @Test("the demo preset's energy is its launch overhead: 0.5 J per background launch or resume")
    func demoEnergyByHand() throws {
        final class Sink { var wakes = 0 }
        let sink = Sink()
        let result = try SimulationRunner.run(
            scenario: Presets.scenario(named: "bgscheduler-designed")!, seed: 2, days: 30,
            log: { if $0.event == .resume(reason: .backgroundTask) || $0.event == .launch(reason: .backgroundTask) { sink.wakes += 1 } })
        let energy = result.energy
        #expect(sink.wakes > 30)
        // 2 s at 0.25 W per wake; the demo does no queued work, so nothing else.
        #expect(abs(energy.appJoulesPerDay * 30 - Double(sink.wakes) * 0.5) < 1e-6)
        #expect(energy.joulesPerDay[.appCPU] == 0 && energy.joulesPerDay[.appRadioActive] == 0)
    }
}
