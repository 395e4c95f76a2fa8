@testable import BackgroundSim
import SimKernel
import Testing

@Suite("App lifecycle and assertions")
struct LifecycleTests {
    @Test("an app with no assertion is suspended as soon as didEnterBackground returns")
    func suspendsWithoutAssertion() throws {
        let harness = try SystemHarness { ScriptedPolicy() }
        harness.useApp(at: .at(100), for: .seconds(30))
        try harness.run(until: .at(200))
        #expect(harness.times(.launch) == [.at(100)])
        #expect(harness.times(.didEnterBackground) == [.at(130)])
        #expect(harness.times(.suspend) == [.at(130)])
        #expect(harness.system.processState == .suspended)
    }

    @Test("a new policy instance per launch: in-memory state is lost, the persistent store survives")
    func stateAcrossLaunches() throws {
        final class Counter: BackgroundPolicy {
            var launchesSeenInMemory = 0
            func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
                launchesSeenInMemory += 1
                app.defaults.set(app.defaults.integer(forKey: "launches") + 1, forKey: "launches")
                app.defaults.set(launchesSeenInMemory, forKey: "memory")
            }
        }
        var scenario = SystemHarness.quietScenario
        scenario.app.backgroundModes = []
        let harness = try SystemHarness(scenario) { Counter() }
        harness.useApp(at: .at(100), forceQuit: true)   // terminated at 160
        harness.useApp(at: .at(1_000))
        try harness.run(until: .at(2_000))
        #expect(harness.system.defaults.integer(forKey: "launches") == 2)
        #expect(harness.system.defaults.integer(forKey: "memory") == 1, "the second process started from scratch")
    }

    @Test("all assertions share one 30 s budget: handlers run 3 s before it ends, a leak is killed at the end")
    func sharedBudgetAndWatchdog() throws {
        var remainingAtStart: SimDuration?
        let harness = try SystemHarness {
            ScriptedPolicy(onBackground: { app in
                app.beginBackgroundTask(withName: "a")
                app.beginBackgroundTask(withName: "b")
                remainingAtStart = app.backgroundTimeRemaining
            })
        }
        harness.useApp(at: .at(100), for: .seconds(20))
        try harness.run(until: .at(500))
        #expect(remainingAtStart == .seconds(30))
        #expect(harness.times(.backgroundTaskExpiring) == [.at(147), .at(147)])
        #expect(harness.entries(.kill).map { $0.time } == [.at(150)])
        #expect(harness.system.metrics.backgroundTaskAssertionTimeoutExits == 1)
        #expect(harness.system.processState == .notRunning)
    }

    @Test("a task's launch in the background starts a new assertion budget with its own warning")
    func warningAgainAfterResume() throws {
        let harness = try SystemHarness {
            ScriptedPolicy(onLaunch: { app, _ in
                app.taskScheduler.register(forTaskWithIdentifier: "refresh") { task in
                    var id = BackgroundTaskIdentifier.invalid
                    id = app.beginBackgroundTask(withName: "in task") {
                        app.endBackgroundTask(id)
                        task.setTaskCompleted(success: true)
                    }
                }
            }, onBackground: { app in
                var id = BackgroundTaskIdentifier.invalid
                id = app.beginBackgroundTask(withName: "on leaving") { app.endBackgroundTask(id) }
                try? app.taskScheduler.submit(TaskExecutionTests.refreshIn15(app))
            })
        }
        harness.useApp(at: .at(0))
        try harness.run(until: .at(0) + .hours(1))
        let launch = try #require(harness.times(.taskLaunch).first)
        // Warned 27 s into each stretch: after leaving the app at 60 s, and after the resume.
        #expect(harness.times(.backgroundTaskExpiring) == [.at(87), launch + .seconds(27)])
        #expect(harness.entries(.kill).isEmpty)
    }

    @Test("an app that ends its assertion in the expiration handler is suspended, not killed")
    func wellBehavedAssertion() throws {
        let harness = try SystemHarness {
            ScriptedPolicy(onBackground: { app in
                var id = BackgroundTaskIdentifier.invalid
                id = app.beginBackgroundTask(withName: "upload") { app.endBackgroundTask(id) }
            })
        }
        harness.useApp(at: .at(100))
        try harness.run(until: .at(500))
        #expect(harness.times(.suspend) == [.at(187)])
        #expect(harness.entries(.kill).isEmpty)
        #expect(harness.system.metrics.backgroundTaskAssertionTimeoutExits == 0)
    }

    @Test("an assertion begun in the foreground counts its budget from entering the background")
    func budgetStartsInBackground() throws {
        let harness = try SystemHarness {
            ScriptedPolicy(onLaunch: { app, _ in
                app.beginBackgroundTask(withName: "early")
                #expect(app.backgroundTimeRemaining == .max, "the foreground reports DBL_MAX")
            })
        }
        harness.useApp(at: .at(100), for: .minutes(10))
        try harness.run(until: .at(1_000))
        #expect(harness.entries(.kill).map(\.time) == [.at(730)])
    }

    @Test("timers fire while the app runs, wait while it is suspended, and die with the process")
    func timers() throws {
        var fired: [SimInstant] = []
        let harness = try SystemHarness {
            ScriptedPolicy(onLaunch: { app, _ in
                app.schedule(after: .seconds(10)) { fired.append(harness_now(app)) }
                app.schedule(after: .seconds(100)) { fired.append(harness_now(app)) }
                app.schedule(after: .seconds(400)) { fired.append(harness_now(app)) }
            })
        }
        harness.useApp(at: .at(100), for: .seconds(30))      // suspended at 130; second timer due at 200
        // Resumes at 300: the overdue timer fires; the force-quit at 330 ends the process before
        // the third timer (due at 500), which never fires, even after the app is opened again.
        harness.useApp(at: .at(300), for: .seconds(30), forceQuit: true)
        harness.useApp(at: .at(600), for: .seconds(30))
        try harness.run(until: .at(1_500))
        #expect(fired == [.at(110), .at(300), .at(610)])
    }

    @Test("willTerminate comes only when a force-quit ends an app still running in the background")
    func willTerminate() throws {
        final class Policy: BackgroundPolicy {
            let holdsAssertion: Bool
            init(holdsAssertion: Bool) { self.holdsAssertion = holdsAssertion }
            func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {}
            func didEnterBackground(_ app: AppContext) { if holdsAssertion { app.beginBackgroundTask() } }
            func willTerminate(_ app: AppContext) { app.defaults.set(true, forKey: "told") }
        }
        for holdsAssertion in [true, false] {
            let harness = try SystemHarness { Policy(holdsAssertion: holdsAssertion) }
            harness.useApp(at: .at(100), forceQuit: true)
            try harness.run(until: .at(200))
            #expect(harness.system.defaults.bool(forKey: "told") == holdsAssertion)
        }
    }

    @Test("a force-quit terminates the app and sets the flag until the user opens it again")
    func forceQuitFlag() throws {
        let harness = try SystemHarness { ScriptedPolicy() }
        harness.useApp(at: .at(100), forceQuit: true)
        try harness.run(until: .at(200))
        #expect(harness.system.forceQuitFlag)
        #expect(harness.system.metrics.terminations(.forceQuit) == 1)
        harness.useApp(at: .at(300))
        try harness.run(until: .at(400))
        #expect(!harness.system.forceQuitFlag)
        #expect(harness.times(.forceQuitFlagCleared) == [.at(300)])
    }
}

/// The device clock's reading through the app, for timer tests.
func harness_now(_ app: AppContext) -> SimInstant { app.date }
