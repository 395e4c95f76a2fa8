@testable import BackgroundSim
import SimKernel
import Testing

/// Items a policy makes itself, and the per-wake energy the report gives for them.
@Suite("Work a policy makes")
struct PolicyWorkTests {
    /// Enqueues `request` in every refresh task, completing it when the queue empties; submits
    /// the next request `interval` after each, the first on entering the background.
    static func uploader(_ request: WorkRequest, every interval: SimDuration, wakes: @escaping () -> Int = { 0 }) -> () -> any BackgroundPolicy {
        {
            final class Count { var value = 0 }
            let count = Count()
            return ScriptedPolicy(onLaunch: { app, _ in
                app.taskScheduler.register(forTaskWithIdentifier: "refresh") { task in
                    count.value += 1
                    var next = TaskRequest.appRefresh(identifier: "refresh")
                    next.earliestBeginDate = app.date + interval
                    try? app.taskScheduler.submit(next)
                    do {
                        try app.work.enqueue(request)
                    } catch {
                        Issue.record("enqueue: \(error)")
                    }
                    app.work.onQueueEmpty = { task.setTaskCompleted(success: true) }
                    app.work.start()
                }
            }, onBackground: { app in
                var first = TaskRequest.appRefresh(identifier: "refresh")
                first.earliestBeginDate = app.date + interval
                try? app.taskScheduler.submit(first)
            })
        }
    }

    @Test("a policy's 2.5 MB upload per wake on LTE at 1 Mbps: the report's per-wake energy is the hand calculation's 47.67 J, by component")
    func perWakeEnergy() throws {
        let scenario = SystemHarness.onOneNetwork(uplinkMbps: 1)
        let harness = try SystemHarness(scenario, policy: Self.uploader(WorkRequest(uploadBytes: 2_500_000, label: "photo"), every: .minutes(30)))
        harness.useApp(at: SimInstant.start, for: .seconds(1))
        let end = SimInstant.start + .days(1) + .minutes(1)
        try harness.run(until: end)
        var device = harness.world.device
        device.advance(to: end)
        let wakes = harness.system.metrics.backgroundWakes
        #expect(wakes == 48)
        let report = EnergyReport(device: device, days: 1, backgroundWakes: wakes)
        let perWake = try #require(report.joulesPerBackgroundWake)
        // By hand: overhead 2 s × 0.25 W; promotion 0.26 s × 1.21 W; 20 s × (1.29 + 0.438 × 1) W; tail 11.6 s × 1.06 W.
        #expect(abs((perWake[.appLaunchOverhead] ?? 0) - 0.5) < 1e-9)
        #expect(abs((perWake[.appRadioPromotion] ?? 0) - 0.3146) < 1e-9)
        #expect(abs((perWake[.appRadioActive] ?? 0) - 34.56) < 1e-9)
        #expect(abs((perWake[.appRadioTail] ?? 0) - 12.296) < 1e-9)
        #expect(perWake[.appCPU] == 0)
        #expect(abs(perWake.values.reduce(0, +) - 47.6706) < 1e-9)
        let progress = harness.system.work.progress(label: "photo", at: end)
        #expect(progress == WorkProgress(queued: 0, completed: 48, failed: 0))
    }

    @Test("an item past its deadline fails without blocking the items behind it, and its label counts it")
    func deadlineAndLabels() throws {
        var scenario = SystemHarness.quietScenario
        // No network for the first hour: the upload cannot progress.
        scenario.faults.networkFlaps = [FaultPlan.NetworkFlap(fromHours: 0, toHours: 2, offSeconds: 3_600, onSeconds: 1)]
        let harness = try SystemHarness(scenario) {
            ScriptedPolicy(onLaunch: { app, _ in
                try? app.work.enqueue(WorkRequest(uploadBytes: 1_000, deadline: .minutes(10), label: "late"))
                try? app.work.enqueue(WorkRequest(cpuSeconds: 5))
                app.work.start()
            })
        }
        harness.useApp(at: SimInstant.start, for: .minutes(30))
        try harness.run(until: .start + .hours(1))
        #expect(harness.system.work.progress(label: "late", at: .start + .hours(1)) == WorkProgress(queued: 0, completed: 0, failed: 1))
        let metrics = harness.system.work.finish(at: .start + .hours(1))
        #expect(metrics.created == 2 && metrics.failedDeadline == 1 && metrics.completed == 1)
    }

    @Test("a request out of range is refused naming its field, and a cadence workload refuses policy items",
          arguments: [(WorkRequest(uploadBytes: -1), "uploadBytes"), (WorkRequest(downloadBytes: .nan), "downloadBytes"),
                      (WorkRequest(cpuSeconds: .infinity), "cpuSeconds"), (WorkRequest(), "uploadBytes"),
                      (WorkRequest(cpuSeconds: 1, deadline: .zero), "deadline"),
                      (WorkRequest(cpuSeconds: 1, label: String(repeating: "x", count: 65)), "label")])
    func refusals(request: WorkRequest, path: String) throws {
        final class Found { var issue: ScenarioIssue? }
        let found = Found()
        let harness = try SystemHarness {
            ScriptedPolicy(onLaunch: { app, _ in
                do throws(ScenarioIssue) { try app.work.enqueue(request) } catch { found.issue = error }
            })
        }
        harness.useApp(at: SimInstant.start)
        try harness.run(until: .start + .minutes(5))
        #expect(found.issue?.path == path, "\(String(describing: found.issue))")
        #expect(harness.system.work.finish(at: .start + .minutes(5)).created == 0)
    }

    @Test("a cadence workload owns the queue: a policy's item is refused naming work.arrivals")
    func cadenceRefuses() throws {
        var scenario = SystemHarness.quietScenario
        scenario.work.arrivals = .cadence
        scenario.work.cpuMedianSeconds = 1
        final class Found { var issue: ScenarioIssue? }
        let found = Found()
        let harness = try SystemHarness(scenario) {
            ScriptedPolicy(onLaunch: { app, _ in
                do throws(ScenarioIssue) { try app.work.enqueue(WorkRequest(cpuSeconds: 1)) } catch { found.issue = error }
            })
        }
        harness.useApp(at: SimInstant.start)
        try harness.run(until: .start + .minutes(5))
        #expect(found.issue?.path == "work.arrivals")
    }
}
