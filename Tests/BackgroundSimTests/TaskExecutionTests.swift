@testable import BackgroundSim
import SimKernel
import Testing

@Suite("Background tasks")
struct TaskExecutionTests {
    @Test("a completed task is released, though its expiration handler captured it (memory stays flat over a run)")
    func completedTasksAreReleased() throws {
        final class Seen { weak var task: BackgroundTask?; var count = 0 }
        let seen = Seen()
        let harness = try SystemHarness {
            Self.policy(Self.refreshIn15) { task, _ in
                seen.task = task
                seen.count += 1
                task.expirationHandler = { task.setTaskCompleted(success: false) }   // the usual cycle
                task.setTaskCompleted(success: true)
            }
        }
        harness.useApp(at: .at(0))
        try harness.run(until: .at(3_600))
        #expect(seen.count == 1)
        #expect(seen.task == nil)
    }

    /// A policy that registers `identifier`, submits `request` when backgrounded, and hands each
    /// task to `onTask`.
    static func policy(_ request: @escaping (AppContext) -> TaskRequest, onTask: @escaping (BackgroundTask, AppContext) -> Void) -> ScriptedPolicy {
        ScriptedPolicy(onLaunch: { app, _ in
            app.taskScheduler.register(forTaskWithIdentifier: request(app).identifier) { task in onTask(task, app) }
        }, onBackground: { app in
            try! app.taskScheduler.submit(request(app))
        })
    }

    static func refreshIn15(_ app: AppContext) -> TaskRequest {
        var request = TaskRequest.appRefresh(identifier: "refresh")
        request.earliestBeginDate = app.date + .minutes(15)
        return request
    }

    @Test("a refresh task that does not finish is expired after 30 s; completing in the handler avoids a kill")
    func refreshExpiresOnTime() throws {
        let harness = try SystemHarness {
            Self.policy(Self.refreshIn15) { task, _ in
                task.expirationHandler = { task.setTaskCompleted(success: false) }
            }
        }
        harness.useApp(at: .at(0))
        try harness.run(until: .at(3_600))
        let launch = try #require(harness.times(.taskLaunch).first)
        #expect(launch == .at(60) + .minutes(15))
        #expect(harness.times(.taskExpire) == [launch + .seconds(30)])
        #expect(harness.entries(.kill).isEmpty)
        #expect(harness.system.metrics.tasksCompletedUnsuccessfully == 1)
    }

    @Test("early expiry cuts a refresh task to 2–5 s")
    func earlyExpiry() throws {
        var scenario = SystemHarness.quietScenario
        scenario.system.refreshEarlyExpiryProbability = 1
        let harness = try SystemHarness(scenario) {
            Self.policy(Self.refreshIn15) { task, _ in task.expirationHandler = { task.setTaskCompleted(success: false) } }
        }
        harness.useApp(at: .at(0))
        try harness.run(until: .at(3_600))
        let launch = try #require(harness.times(.taskLaunch).first)
        let expiry = try #require(harness.times(.taskExpire).first)
        #expect((2...5).contains(launch.duration(to: expiry).seconds))
    }

    @Test("a task never completed after expiration gets the app killed and throttled")
    func killAndThrottle() throws {
        var scenario = SystemHarness.quietScenario
        scenario.app.permittedIdentifiers.append(ProbePolicy.refreshIdentifier)
        let harness = try SystemHarness(scenario) {
            ScriptedPolicy(onLaunch: { app, _ in
                app.taskScheduler.register(forTaskWithIdentifier: "refresh") { task in
                    // Resubmits but never completes the task; the expiration handler does
                    // nothing (with no handler at all, the system would complete it).
                    task.expirationHandler = {}
                    try? app.taskScheduler.submit(Self.refreshIn15(app))
                }
            }, onBackground: { app in try? app.taskScheduler.submit(Self.refreshIn15(app)) })
        }
        harness.useApp(at: .at(0))
        try harness.run(until: .at(0) + .hours(30))
        let launch = try #require(harness.times(.taskLaunch).first)
        #expect(harness.entries(.kill).map(\.time).first == launch + .seconds(30 + 3))
        #expect(harness.system.metrics.backgroundTaskAssertionTimeoutExits >= 1)
        #expect(harness.system.metrics.throttledLaunches > 0)
        // No launch during the 12 h penalty after the kill.
        let kill = harness.entries(.kill).map(\.time)[0]
        let launches = harness.times(.taskLaunch)
        #expect(!launches.contains { $0 > kill && $0 < kill + .hours(12) })
        #expect(launches.contains { $0 >= kill + .hours(12) }, "launches resume after the penalty")
    }

    @Test("calling setTaskCompleted twice is counted; with no expiration handler the task completes unsuccessfully")
    func completionRules() throws {
        let twice = try SystemHarness {
            Self.policy(Self.refreshIn15) { task, _ in
                task.setTaskCompleted(success: true)
                task.setTaskCompleted(success: true)
            }
        }
        twice.useApp(at: .at(0))
        try twice.run(until: .at(3_600))
        #expect(twice.system.metrics.duplicateCompletions == 1)
        #expect(twice.system.metrics.tasksCompletedSuccessfully == 1)

        let silent = try SystemHarness { Self.policy(Self.refreshIn15) { _, _ in } }
        silent.useApp(at: .at(0))
        try silent.run(until: .at(3_600))
        #expect(silent.system.metrics.tasksCompletedUnsuccessfully == 1)
        #expect(silent.entries(.kill).isEmpty)
    }

    @Test("a processing task ends when the user picks up the phone")
    func processingEndsAtPickup() throws {
        let harness = try SystemHarness {
            Self.policy({ _ in .processing(identifier: "work") }) { task, _ in
                task.expirationHandler = { task.setTaskCompleted(success: false) }
            }
        }
        harness.useApp(at: .at(0))
        harness.inject(.sessionStart, at: .at(300))
        try harness.run(until: .at(1_000))
        #expect(harness.times(.taskLaunch) == [.at(60)])
        #expect(harness.times(.taskExpire) == [.at(300)])
        #expect(harness.system.metrics.expirations(.userActivity) == 1)
    }

    @Test("a crash in an expiration handler run at pickup ends the process at once")
    func crashInExpirationHandler() throws {
        let harness = try SystemHarness {
            Self.policy({ _ in .processing(identifier: "work") }) { task, app in
                // Registering outside launch is a crash.
                task.expirationHandler = { app.taskScheduler.register(forTaskWithIdentifier: "refresh") { _ in } }
            }
        }
        harness.useApp(at: .at(0))
        harness.inject(.sessionStart, at: .at(300))
        try harness.run(until: .at(1_000))
        #expect(harness.entries(.terminate).map(\.time) == [.at(300)])
        #expect(harness.system.metrics.abnormalExits == 1)
    }

    @Test("a processing task that requires power ends on unplugging, and runs only on the charger")
    func processingEndsOnUnplug() throws {
        let harness = try SystemHarness {
            Self.policy({ _ in .processing(identifier: "work", requiresExternalPower: true) }) { task, _ in
                task.expirationHandler = { task.setTaskCompleted(success: false) }
            }
        }
        harness.useApp(at: .at(0))
        harness.inject(.plugIn(overnight: false), at: .at(500))
        harness.inject(.unplug, at: .at(700))
        try harness.run(until: .at(2_000))
        #expect(harness.times(.taskLaunch) == [.at(500)], "waits for the charger")
        #expect(harness.times(.taskExpire) == [.at(700)])
        #expect(harness.system.metrics.expirations(.powerLoss) == 1)
    }

    @Test("a processing task runs at most its maximum runtime")
    func processingMaximumRuntime() throws {
        let harness = try SystemHarness {
            Self.policy({ _ in .processing(identifier: "work") }) { task, _ in
                task.expirationHandler = { task.setTaskCompleted(success: true) }
            }
        }
        harness.useApp(at: .at(0))
        try harness.run(until: .at(3_600))
        #expect(harness.times(.taskExpire) == [.at(60) + .minutes(10)])
    }

    @Test("tasks launched together share one time allotment")
    func sharedAllotment() throws {
        let harness = try SystemHarness {
            ScriptedPolicy(onLaunch: { app, _ in
                for id in ["refresh", "work"] {
                    app.taskScheduler.register(forTaskWithIdentifier: id) { task in
                        task.expirationHandler = { task.setTaskCompleted(success: false) }
                    }
                }
            }, onBackground: { app in
                try! app.taskScheduler.submit(.appRefresh(identifier: "refresh"))
                try! app.taskScheduler.submit(.processing(identifier: "work"))
            })
        }
        harness.useApp(at: .at(0))
        try harness.run(until: .at(3_600))
        #expect(harness.times(.taskLaunch) == [.at(60), .at(60)])
        #expect(harness.times(.taskExpire) == [.at(90), .at(90)], "the processing task gets the refresh task's 30 s")
    }

    @Test("Low Power Mode pauses refresh")
    func lowPowerModeBlocksRefresh() throws {
        var scenario = SystemHarness.quietScenario
        scenario.power.initialBatteryPercent = 20.001
        scenario.power.lowPowerModeAcceptProbability = 1
        scenario.app.permittedIdentifiers = [ProbePolicy.refreshIdentifier]
        let harness = try SystemHarness(scenario) { ProbePolicy(kind: .appRefresh) }
        harness.useApp(at: .at(0), for: .minutes(5))  // 5 min at 1.1 W crosses 20 %: Low Power Mode on
        try harness.run(until: .at(0) + .hours(12))
        #expect(harness.world.device.isLowPowerMode)
        #expect(harness.system.metrics.refreshLaunches == 0)
    }

    @Test("the CPU monitor kills a processing task that uses over 80 % for 60 s, not one that requires power — unless the observed bug is switched on")
    func cpuMonitor() throws {
        let harness = try SystemHarness {
            Self.policy({ _ in .processing(identifier: "work") }) { _, app in app.reportCPUUsage(0.95) }
        }
        harness.useApp(at: .at(0))
        try harness.run(until: .at(1_000))
        #expect(harness.entries(.kill).map(\.time) == [.at(120)])
        #expect(harness.system.metrics.cpuResourceLimitExits == 1)

        let onPower = try SystemHarness {
            Self.policy({ _ in .processing(identifier: "work", requiresExternalPower: true) }) { task, app in
                app.reportCPUUsage(0.95)
                task.expirationHandler = { task.setTaskCompleted(success: true) }
            }
        }
        onPower.useApp(at: .at(0))
        onPower.inject(.plugIn(overnight: false), at: .at(100))
        try onPower.run(until: .at(1_000))
        #expect(onPower.system.metrics.cpuResourceLimitExits == 0, "requiresExternalPower disables the monitor")

        // The bug developers report (forum thread 675166), as a switch: killed despite the power.
        var buggy = SystemHarness.quietScenario
        buggy.system.cpuMonitorIgnoresExternalPower = true
        let bug = try SystemHarness(buggy) {
            Self.policy({ _ in .processing(identifier: "work", requiresExternalPower: true) }) { task, app in
                app.reportCPUUsage(0.95)
                task.expirationHandler = { task.setTaskCompleted(success: true) }
            }
        }
        bug.useApp(at: .at(0))
        bug.inject(.plugIn(overnight: false), at: .at(100))
        try bug.run(until: .at(1_000))
        #expect(bug.system.metrics.cpuResourceLimitExits == 1)
    }
}
