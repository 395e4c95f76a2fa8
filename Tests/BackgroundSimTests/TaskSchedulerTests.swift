@testable import BackgroundSim
import SimKernel
import Testing

@Suite("Task scheduler")
struct TaskSchedulerTests {
    /// Runs `body` in the app's first launch and returns the harness afterwards.
    func inLaunch(_ scenario: Scenario = SystemHarness.quietScenario, _ body: @escaping (AppContext) -> Void) throws -> SystemHarness {
        let harness = try SystemHarness(scenario) { ScriptedPolicy(onLaunch: { app, _ in body(app) }) }
        harness.useApp(at: .at(100))
        try harness.run(until: .at(110))
        return harness
    }

    func refresh(_ identifier: String = "refresh", in delay: SimDuration = .hours(1), from app: AppContext) -> TaskRequest {
        var request = TaskRequest.appRefresh(identifier: identifier)
        request.earliestBeginDate = app.date + delay
        return request
    }

    @Test("submitting the same identifier replaces the pending request")
    func replaceByIdentifier() throws {
        var pending: [TaskRequest] = []
        _ = try inLaunch { app in
            try! app.taskScheduler.submit(refresh(in: .hours(1), from: app))
            try! app.taskScheduler.submit(refresh(in: .hours(2), from: app))
            pending = app.taskScheduler.pendingTaskRequests()
        }
        #expect(pending.count == 1)
        #expect(pending.first?.earliestBeginDate == .at(100) + .hours(2))
    }

    @Test("at most 1 refresh and 10 processing requests; more fail with tooManyPendingTaskRequests")
    func limits() throws {
        var refreshError: TaskSchedulerError?
        var processingErrors: [TaskSchedulerError] = []
        let harness = try inLaunch { app in
            try! app.taskScheduler.submit(refresh(from: app))
            do { try app.taskScheduler.submit(refresh("refresh2", from: app)) } catch let error as TaskSchedulerError { refreshError = error } catch {}
            for index in 0..<11 {
                do { try app.taskScheduler.submit(.processing(identifier: "p\(index)")) } catch let error as TaskSchedulerError { processingErrors.append(error) } catch {}
            }
        }
        #expect(refreshError?.code == .tooManyPendingTaskRequests)
        #expect(processingErrors.map(\.code) == [.tooManyPendingTaskRequests])
        #expect(harness.system.pending.entries.count == 11)
        #expect(harness.system.metrics.submitErrorsByCode[.tooManyPendingTaskRequests] == 2)
    }

    @Test("an unlisted identifier or a missing background mode is notPermitted; Background App Refresh off is unavailable")
    func errors() throws {
        var errors: [TaskSchedulerError.Code] = []
        var scenario = SystemHarness.quietScenario
        scenario.app.backgroundModes = [.fetch]
        _ = try inLaunch(scenario) { app in
            do { try app.taskScheduler.submit(.appRefresh(identifier: "not.listed")) } catch let error as TaskSchedulerError { errors.append(error.code) } catch {}
            do { try app.taskScheduler.submit(.processing(identifier: "work")) } catch let error as TaskSchedulerError { errors.append(error.code) } catch {}
        }
        #expect(errors == [.notPermitted, .notPermitted])

        var off = SystemHarness.quietScenario
        off.app.backgroundAppRefreshEnabled = false
        var unavailable: TaskSchedulerError?
        _ = try inLaunch(off) { app in
            do { try app.taskScheduler.submit(.appRefresh(identifier: "refresh")) } catch let error as TaskSchedulerError { unavailable = error } catch {}
        }
        #expect(unavailable?.code == .unavailable)
    }

    @Test("cancel and cancelAll remove pending requests")
    func cancelling() throws {
        var afterCancel = 0, afterCancelAll = 0
        _ = try inLaunch { app in
            try! app.taskScheduler.submit(refresh(from: app))
            try! app.taskScheduler.submit(.processing(identifier: "work"))
            app.taskScheduler.cancel(taskRequestWithIdentifier: "refresh")
            afterCancel = app.taskScheduler.pendingTaskRequests().count
            app.taskScheduler.cancelAllTaskRequests()
            afterCancelAll = app.taskScheduler.pendingTaskRequests().count
        }
        #expect(afterCancel == 1)
        #expect(afterCancelAll == 0)
    }

    @Test("registering after launch, or twice, crashes the app; an unlisted identifier returns false")
    func registrationRules() throws {
        var unlisted: Bool?
        let late = try SystemHarness {
            ScriptedPolicy(onLaunch: { app, _ in
                unlisted = app.taskScheduler.register(forTaskWithIdentifier: "not.listed") { _ in }
            }, onBackground: { app in
                app.taskScheduler.register(forTaskWithIdentifier: "refresh") { _ in }
            })
        }
        late.useApp(at: .at(100))
        try late.run(until: .at(500))
        #expect(unlisted == false)
        #expect(late.system.metrics.registrationCrashes == 1)
        #expect(late.system.metrics.abnormalExits == 1)
        #expect(late.system.processState == .notRunning)

        let twice = try SystemHarness {
            ScriptedPolicy(onLaunch: { app, _ in
                app.taskScheduler.register(forTaskWithIdentifier: "refresh") { _ in }
                app.taskScheduler.register(forTaskWithIdentifier: "refresh") { _ in }
            })
        }
        twice.useApp(at: .at(100))
        try twice.run(until: .at(500))
        #expect(twice.system.metrics.registrationCrashes == 1)
        #expect(twice.entries(.crash).first?.event == .crash(reason: .duplicateRegistration, identifier: "refresh"))
    }

    @Test("launching a task whose handler this process did not register crashes the app")
    func unregisteredHandler() throws {
        // Submits but never registers: the task is delivered to the suspended process, which has
        // no launch handler for it.
        let harness = try SystemHarness {
            ScriptedPolicy(onLaunch: { app, _ in
                var request = TaskRequest.appRefresh(identifier: "refresh")
                request.earliestBeginDate = app.date + .minutes(15)
                try! app.taskScheduler.submit(request)
            })
        }
        harness.useApp(at: .at(100))
        try harness.run(until: .at(100) + .hours(1))
        #expect(harness.system.metrics.refreshLaunches == 1)
        #expect(harness.system.metrics.unregisteredLaunchCrashes == 1)
        #expect(harness.system.metrics.abnormalExits == 1)
        #expect(harness.entries(.crash).map(\.time) == [.at(100) + .minutes(15)])
    }

    @Test("a force-quit deletes pending requests and blocks launches until the user opens the app")
    func forceQuitBlocksLaunches() throws {
        var scenario = SystemHarness.quietScenario
        scenario.app.permittedIdentifiers = [ProbePolicy.refreshIdentifier]
        let probe = try SystemHarness(scenario) { ProbePolicy(kind: .appRefresh) }
        probe.useApp(at: .at(100), forceQuit: true)
        try probe.run(until: .at(100) + .hours(6))
        #expect(probe.system.pending.isEmpty)
        #expect(probe.system.metrics.refreshLaunches == 0)
        probe.useApp(at: .at(100) + .hours(6))
        try probe.run(until: .at(100) + .hours(12))
        #expect(probe.system.metrics.refreshLaunches > 10, "launches resume once the user opens the app")
    }

    @Test("with pending requests kept after a force-quit, the flag alone still blocks launches")
    func forceQuitFlagAloneBlocks() throws {
        var scenario = SystemHarness.quietScenario
        scenario.app.permittedIdentifiers = [ProbePolicy.refreshIdentifier]
        scenario.system.forceQuitClearsPendingRequests = false
        let probe = try SystemHarness(scenario) { ProbePolicy(kind: .appRefresh) }
        probe.useApp(at: .at(100), forceQuit: true)
        try probe.run(until: .at(100) + .hours(6))
        #expect(probe.system.pending.entries.count == 1)
        #expect(probe.system.metrics.refreshLaunches == 0)
    }
}
