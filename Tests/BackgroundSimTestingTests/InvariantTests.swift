@testable import BackgroundSimChecking
import BackgroundSim
import SimKernel
import Testing

/// Feeds hand-made log entries to one invariant and returns its violations.
private func violations(of invariant: some Invariant, _ entries: [(hours: Double, event: SystemLogEvent)]) -> [Violation] {
    var invariant = invariant
    var context = RunContext(scenario: Scenario(), limit: 10, names: [invariant.name])
    for entry in entries {
        let time = SimInstant.start + .seconds(entry.hours * 3_600)
        context.now = time
        invariant.observe(SystemLogEntry(time: time, event: entry.event), in: &context)
    }
    return context.violations
}

@Suite("The invariant library")
struct InvariantTests {
    @Test("a task killed for never completing, or completed twice, breaks taskCompletedExactlyOnce; one ended by the process does not")
    func taskCompletion() {
        let launch = SystemLogEvent.taskLaunch(identifier: "refresh", kind: .appRefresh, serial: 1, allotment: .seconds(30))
        let killed = violations(of: TaskCompletedExactlyOnce(), [
            (1, launch), (1.01, .taskExpire(identifier: "refresh", serial: 1, cause: .timeUp)),
            (1.02, .kill(.taskNotCompleted(identifier: "refresh", serial: 1))),
        ])
        #expect(killed.count == 1)
        #expect(killed.first?.message.contains("never called setTaskCompleted for refresh") == true)
        #expect(killed.first?.invariant == "taskCompletedExactlyOnce")
        let twice = violations(of: TaskCompletedExactlyOnce(), [
            (1, launch), (1.01, .taskCompleted(identifier: "refresh", serial: 1, success: true)),
            (1.02, .duplicateCompletion(identifier: "refresh", serial: 1)),
        ])
        #expect(twice.count == 1)
        let endedWithProcess = violations(of: TaskCompletedExactlyOnce(), [
            (1, launch), (1.01, .terminate(reason: .memoryPressure)),
        ])
        #expect(endedWithProcess.isEmpty)
        let fine = violations(of: TaskCompletedExactlyOnce(), [(1, launch), (1.01, .taskCompleted(identifier: "refresh", serial: 1, success: false))])
        #expect(fine.isEmpty)
    }

    @Test("the other doors: a URL session's handler not called, a continued-processing task killed or completed twice, a push past its time")
    func doors() {
        #expect(violations(of: SessionCompletionHandlerCalled(), [(1, .sessionCompletionHandlerNotCalled(session: "uploads"))]).count == 1)
        #expect(violations(of: SessionCompletionHandlerCalled(), [(1, .sessionCompletionHandlerCalled(session: "uploads"))]).isEmpty)
        let submit = SystemLogEvent.submit(identifier: "export.1", kind: .continuedProcessing, earliestBeginIn: .zero)
        let launch = SystemLogEvent.taskLaunch(identifier: "export.1", kind: .continuedProcessing, serial: 4, allotment: .zero)
        let killed = violations(of: ContinuedProcessingCompletedOnce(), [
            (1, submit), (1, launch), (1.1, .taskExpire(identifier: "export.1", serial: 4, cause: .noProgress)),
            (1.11, .kill(.taskNotCompleted(identifier: "export.1", serial: 4))),
        ])
        #expect(killed.count == 1)
        let twice = violations(of: ContinuedProcessingCompletedOnce(), [
            (1, submit), (1, launch), (1.1, .taskCompleted(identifier: "export.1", serial: 4, success: true)),
            (1.2, .duplicateCompletion(identifier: "export.1", serial: 4)),
        ])
        #expect(twice.count == 1)
        // A refresh task's kill is not this invariant's business.
        let refresh = violations(of: ContinuedProcessingCompletedOnce(), [
            (1, .taskLaunch(identifier: "refresh", kind: .appRefresh, serial: 1, allotment: .seconds(30))),
            (1.01, .kill(.taskNotCompleted(identifier: "refresh", serial: 1))),
        ])
        #expect(refresh.isEmpty)
        #expect(violations(of: PushWorkWithinBudget(), [(1, .kill(.pushNotCompleted))]).count == 1)
        #expect(violations(of: PushWorkWithinBudget(), [(1, .kill(.jetsamFault))]).isEmpty)
    }

    @Test("a policy that forgets a door's completion handler is caught by the checker: a URL session's, a push's")
    func doorsEndToEnd() throws {
        final class ForgetsHandlers: BackgroundPolicy {
            func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
                if reason == .user { try? app.work.startHandingOff(to: .background(withIdentifier: "uploads")) }
            }
            func willEnterForeground(_ app: AppContext) {
                try? app.work.startHandingOff(to: .background(withIdentifier: "uploads"))
            }
            func handleEventsForBackgroundURLSession(_ app: AppContext, identifier: String, completionHandler: @escaping () -> Void) {}
            func didReceiveRemoteNotification(_ app: AppContext, fetchCompletionHandler: @escaping (BackgroundFetchResult) -> Void) {}
        }
        var scenario = Presets.scenario(named: "proton-upload-urlsession")!.running("forgets-handlers") { ForgetsHandlers() }
        scenario.work.uploadMedianKilobytes = 50_000   // so that transfers outlast the user's visit
        scenario.pushes.schedule = .cadence
        scenario.pushes.everyMinutes = 120
        let report = try PolicyChecker(scenario: scenario, days: 4).check(seeds: Array(1...6), jobs: 2)
        let broken = Set(report.runs.flatMap(\.violations).map(\.invariant))
        #expect(broken.contains("sessionCompletionHandlerCalled"))
        #expect(broken.contains("pushWorkWithinBudget"))
    }

    @Test("assertion-timeout kills and crashes are violations; other kills are not")
    func killsAndCrashes() {
        #expect(violations(of: NoAssertionLeaks(), [(1, .kill(.backgroundTaskAssertionTimeout))]).count == 1)
        #expect(violations(of: NoAssertionLeaks(), [(1, .kill(.jetsamFault))]).isEmpty)
        #expect(violations(of: NoCrashes(), [(1, .crash(reason: .noLaunchHandler, identifier: "refresh"))]).count == 1)
        #expect(violations(of: NoCrashes(), [(1, .launch(reason: .user))]).isEmpty)
    }

    @Test("earliestBeginWithin checks each submit of its identifier against the bounds")
    func earliestBegin() {
        let invariant = EarliestBeginWithin(identifier: "r", minutes: 5...130)
        func submit(_ seconds: Double, _ identifier: String = "r") -> (Double, SystemLogEvent) {
            (1, .submit(identifier: identifier, kind: .appRefresh, earliestBeginIn: .seconds(seconds)))
        }
        #expect(violations(of: invariant, [submit(300), submit(7_800), submit(1_800)]).isEmpty)
        #expect(violations(of: invariant, [submit(299)]).count == 1)
        #expect(violations(of: invariant, [submit(7_900)]).count == 1)
        #expect(violations(of: invariant, [submit(1, "other")]).isEmpty, "other identifiers are not its business")
    }

    @Test("minimumRunInterval flags successful runs closer than the interval, except across a clock jump")
    func minimumRunInterval() throws {
        let close = violations(of: MinimumRunInterval(minutes: 60), [(1, .workQueueEmpty), (1.5, .workLimitReached)])
        #expect(close.count == 1)
        #expect(close.first?.message == "a run succeeded 30 min 0 s after the previous one")
        #expect(violations(of: MinimumRunInterval(minutes: 60), [(1, .workQueueEmpty), (2.5, .workQueueEmpty)]).isEmpty)
        // A clock jump in between lifts the limit.
        var invariant = MinimumRunInterval(minutes: 60)
        var context = RunContext(scenario: Scenario(), limit: 10, names: [invariant.name])
        let world = try RunSetup(scenario: Scenario(), seed: 1).world
        invariant.observe(SystemLogEntry(time: .start + .hours(1), event: .workQueueEmpty), in: &context)
        invariant.observe(.clockJump(seconds: 600), device: world.device, system: world.system, in: &context)
        invariant.observe(SystemLogEntry(time: .start + .hours(1.2), event: .workQueueEmpty), in: &context)
        #expect(context.violations.isEmpty)
    }

    @Test("durations in messages read as people write them")
    func durations() {
        #expect(Format.duration(.seconds(3)) == "3 s")
        #expect(Format.duration(.seconds(250)) == "4 min 10 s")
        #expect(Format.duration(.minutes(125)) == "2 h 5 min")
        #expect(Format.duration(.hours(27)) == "1 d 3 h")
    }
}

/// Uploads in the foreground and, when the user leaves with work left, in a processing task —
/// starting foreground work in `willEnterForeground` only (`fixed` false) or also when the
/// user's tap launches the app (`fixed` true).
private final class ForegroundUploads: BackgroundPolicy {
    let fixed: Bool
    init(fixed: Bool) { self.fixed = fixed }

    func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: "com.example.upload") { task in
            var finished = false
            task.expirationHandler = {
                guard !finished else { return }
                finished = true
                app.work.stop()
                task.setTaskCompleted(success: false)
            }
            app.work.onQueueEmpty = {
                guard !finished else { return }
                finished = true
                task.setTaskCompleted(success: true)
            }
            app.work.start()
        }
        if fixed && reason == .user { app.work.start() }
    }
    func willEnterForeground(_ app: AppContext) { app.work.start() }
    func didEnterBackground(_ app: AppContext) {
        guard app.work.hasPendingWork else { return }
        var request = TaskRequest.processing(identifier: "com.example.upload")
        request.requiresNetworkConnectivity = true
        request.earliestBeginDate = app.date + .minutes(5)
        try? app.taskScheduler.submit(request)
    }
}

@Suite("Foreground work starts in the foreground")
struct ForegroundWorkTests {
    func report(fixed: Bool) throws -> CheckReport {
        var scenario = Presets.scenario(named: "proton-upload-designed")!
        scenario.app.permittedIdentifiers = ["com.example.upload"]
        let checker = PolicyChecker(scenario: scenario, days: 7, invariants: [WorkStartsInTheForeground()],
                                    policy: { ForegroundUploads(fixed: fixed) })
        return try checker.check(seeds: Array(1...20))
    }

    @Test("a policy that starts work only in willEnterForeground leaves work queued after a cold launch by the user; starting it on a .user launch too passes")
    func coldLaunch() throws {
        let buggy = try report(fixed: false)
        #expect(buggy.failures.count > 0)
        #expect(buggy.firstFailure?.violations.first?.message.contains("with work queued and not started") == true)
        #expect(try report(fixed: true).failures.isEmpty)
    }
}
