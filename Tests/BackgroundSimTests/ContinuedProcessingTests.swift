@testable import BackgroundSim
import SimKernel
import Testing

/// Continued-processing tasks (iOS 26): submitted in the foreground on the user's action, they
/// keep running after the app leaves, until completed, cancelled by the user, or expired for
/// stalled progress.
@Suite("Continued processing")
struct ContinuedProcessingTests {
    static let wildcard = "com.example.export.*"

    /// On a user launch, queues `bytes` of upload and submits a continued-processing request;
    /// the task runs the work and completes when the queue is empty (or, with `works` false,
    /// does nothing). Every expiration completes the task unsuccessfully.
    final class ExportPolicy: BackgroundPolicy {
        let bytes: Double
        let works: Bool
        let strategy: ContinuedProcessingTaskRequest.SubmissionStrategy
        let requests: Int
        var errors: [TaskSchedulerError.Code] = []

        init(bytes: Double = 12_500_000, works: Bool = true, strategy: ContinuedProcessingTaskRequest.SubmissionStrategy = .queue, requests: Int = 1) {
            self.bytes = bytes
            self.works = works
            self.strategy = strategy
            self.requests = requests
        }

        func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
            app.taskScheduler.register(forTaskWithIdentifier: ContinuedProcessingTests.wildcard) { [unowned self] task in
                task.expirationHandler = { task.setTaskCompleted(success: false) }
                guard self.works else { return }
                app.work.onQueueEmpty = { task.setTaskCompleted(success: true) }
                app.work.start()
            }
            guard reason == .user else { return }
            if bytes > 0 { try? app.work.enqueue(WorkRequest(uploadBytes: bytes)) }
            for index in 0..<requests {
                do throws(TaskSchedulerError) {
                    try app.taskScheduler.submit(ContinuedProcessingTaskRequest(identifier: "com.example.export.\(index)", strategy: strategy))
                } catch {
                    errors.append(error.code)
                }
            }
        }
    }

    /// The quiet phone on Wi-Fi at 1 Mbps; with `stallsEnd`, a stalled task is expired whatever
    /// the phone's resources (``ContinuedProcessingParameters/stallEndsOnlyUnderPressure`` false).
    func scenario(cancel: Double = 0, stallsEnd: Bool = false) -> Scenario {
        var scenario = SystemHarness.onOneNetwork(wifi: true, uplinkMbps: 1)
        scenario.app.permittedIdentifiers = [Self.wildcard]
        scenario.system.continuedProcessing.userCancelProbability = cancel
        scenario.system.continuedProcessing.stallEndsOnlyUnderPressure = !stallsEnd
        return scenario
    }

    @Test("the user turned them off: the submit is refused (unavailable) and nothing starts")
    func userTurnedOff() throws {
        var off = scenario()
        off.system.continuedProcessing.userTurnedOff = true
        let policy = ExportPolicy()
        let h = try SystemHarness(off) { policy }
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(600))
        #expect(policy.errors == [.unavailable])
        #expect(h.entries(.taskLaunch).isEmpty)
    }

    @Test("a phone that never starts them: the submit succeeds, the handler is never called (thread 805088)")
    func neverStarts() throws {
        var never = scenario()
        never.system.continuedProcessing.neverStartsProbability = 1
        let policy = ExportPolicy()
        let h = try SystemHarness(never) { policy }
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(600))
        #expect(policy.errors.isEmpty)
        #expect(h.entries(.submit).count == 1 && h.entries(.taskLaunch).isEmpty)
    }

    @Test("an early expiry: 5 s after the app leaves, the task is expired whatever its progress (thread 805554), ahead of a later user cancel, once")
    func earlyExpiry() throws {
        var early = scenario(cancel: 1)
        early.system.continuedProcessing.earlyExpiryProbability = 1
        let h = try SystemHarness(early) { ExportPolicy() }
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(600))
        let expired = try #require(h.entries(.taskExpire).first)
        #expect(expired.time == .at(20))
        #expect(expired.event == .taskExpire(identifier: "com.example.export.0", serial: 1, cause: .earlyExpiry))
        #expect(h.entries(.taskCompleted).first?.event == .taskCompleted(identifier: "com.example.export.0", serial: 1, success: false))
        #expect(h.entries(.taskExpire).count == 1, "the user's later cancel gave way")
    }

    @Test("it starts at once in the foreground and keeps the app running after it leaves, until the work is done")
    func runsAfterLeaving() throws {
        let h = try SystemHarness(scenario()) { ExportPolicy() }
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(3_600))
        let launch = try #require(h.entries(.taskLaunch).first)
        #expect(launch.time == .at(10))
        #expect(launch.event == .taskLaunch(identifier: "com.example.export.0", kind: .continuedProcessing, serial: 1, allotment: .zero))
        let done = try #require(h.entries(.taskCompleted).first)
        #expect(done.event == .taskCompleted(identifier: "com.example.export.0", serial: 1, success: true))
        // 100 s of upload at 1 Mbps after the radio's promotion; the app is suspended only then.
        #expect(done.time > .at(110) && done.time < .at(115))
        #expect(h.times(.suspend) == [done.time])
        #expect(h.entries(.taskExpire).isEmpty)
        #expect(h.system.metrics.continuedProcessingLaunches == 1)
    }

    @Test("stalls ending regardless of resources: a task that makes no progress is expired for it after the 60 s timeout; reported progress keeps it alive")
    func stall() throws {
        let h = try SystemHarness(scenario(stallsEnd: true)) { ExportPolicy(bytes: 0, works: false) }
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(600))
        let expire = try #require(h.entries(.taskExpire).first)
        #expect(expire.event == .taskExpire(identifier: "com.example.export.0", serial: 1, cause: .noProgress))
        #expect(expire.time == .at(70))
        #expect(h.system.metrics.expirations(.noProgress) == 1)

        // Reporting progress every 50 s moves the stall: it comes 60 s after the last report.
        final class Reporter: BackgroundPolicy {
            func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
                app.taskScheduler.register(forTaskWithIdentifier: ContinuedProcessingTests.wildcard) { task in
                    task.expirationHandler = { task.setTaskCompleted(success: false) }
                    func report(_ n: Int64) {
                        task.updateProgress(completedUnitCount: n, totalUnitCount: 10)
                        if n < 4 { app.schedule(after: .seconds(50)) { report(n + 1) } }
                    }
                    report(0)
                }
                if reason == .user { try? app.taskScheduler.submit(ContinuedProcessingTaskRequest(identifier: "com.example.export.1")) }
            }
        }
        let reported = try SystemHarness(scenario(stallsEnd: true)) { Reporter() }
        reported.useApp(at: .at(10), for: .seconds(5))
        try reported.run(until: .at(600))
        // Reports at 10 (0, no advance), 60, 110, 160, 210 s: the stall is at 270 s.
        #expect(reported.entries(.taskExpire).first?.time == .at(270))
    }

    /// By default a stall ends a task only when the phone's resources are constrained.
    @Test("unconstrained, a task that makes no progress runs on past the timeout (looked at every 60 s); with a second request waiting for the only slot, or the battery at 15 % off the charger, it is expired at the timeout")
    func stallEndsUnderPressure() throws {
        let calm = try SystemHarness(scenario()) { ExportPolicy(bytes: 0, works: false) }
        calm.useApp(at: .at(10), for: .seconds(5))
        try calm.run(until: .at(600))
        #expect(calm.entries(.taskExpire).isEmpty)
        #expect(calm.system.running.count(of: .continuedProcessing) == 1)
        var crowded = scenario()
        crowded.system.continuedProcessing.maximumConcurrentTasks = 1
        let h = try SystemHarness(crowded) { ExportPolicy(bytes: 0, works: false, requests: 2) }
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(100))
        let expire = try #require(h.entries(.taskExpire).first)
        #expect(expire.event == .taskExpire(identifier: "com.example.export.0", serial: 1, cause: .noProgress))
        #expect(expire.time == .at(70))
        #expect(h.entries(.taskLaunch).map(\.time).count == 2)
        // A battery below the 20 % floor, off the charger, is constrained too.
        var low = scenario()
        low.power.initialBatteryPercent = 15
        let drained = try SystemHarness(low) { ExportPolicy(bytes: 0, works: false) }
        drained.useApp(at: .at(10), for: .seconds(5))
        try drained.run(until: .at(100))
        #expect(drained.entries(.taskExpire).first?.time == .at(70))
    }

    @Test("stalls ending regardless of resources: a network outage of 120 s during the upload ends the task 60 s after progress stopped")
    func stallOnNetworkLoss() throws {
        var scenario = scenario(stallsEnd: true)
        scenario.faults.networkFlaps = [.init(fromHours: 50.0 / 3_600, toHours: 50.0 / 3_600 + 200.0 / 3_600, offSeconds: 120, onSeconds: 80)]
        let h = try SystemHarness(scenario) { ExportPolicy() }
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(600))
        let expire = try #require(h.entries(.taskExpire).first)
        #expect(expire.event == .taskExpire(identifier: "com.example.export.0", serial: 1, cause: .noProgress))
        #expect(expire.time == .at(110))
    }

    @Test("the user's cancel: with probability 1 every task is cancelled, with 0 none is")
    func userCancel() throws {
        let always = try SystemHarness(scenario(cancel: 1)) { ExportPolicy(bytes: 1_000_000_000) }
        always.useApp(at: .at(10), for: .seconds(5))
        try always.run(until: .at(3 * 3_600))
        let expire = try #require(always.entries(.taskExpire).first)
        guard case .taskExpire(_, _, .userCancelled) = expire.event else {
            Issue.record("expected a user cancel, got \(expire.event)")
            return
        }
        #expect(always.system.metrics.expirations(.userCancelled) == 1)
        let never = try SystemHarness(scenario(cancel: 0)) { ExportPolicy(bytes: 1_000_000_000) }
        never.useApp(at: .at(10), for: .seconds(5))
        try never.run(until: .at(3 * 3_600))
        #expect(never.entries(.taskExpire).isEmpty)
        #expect(never.system.metrics.expirations(.userCancelled) == 0)
    }

    @Test("the share of tasks the user cancels matches the probability (0.3, 400 seeds, ± 0.07)")
    func cancelShare() throws {
        var cancelled = 0
        for seed in 1...400 {
            var scenario = scenario(cancel: 0.3)
            scenario.user.sessionsPerDay = 0
            let policy = ExportPolicy(bytes: 1_000_000_000)
            let setup = try RunSetup(scenario: scenario, seed: UInt64(seed), policy: { policy })
            var simulation = setup.simulation
            var world = setup.world
            simulation.schedule(.device(.appOpen), at: .at(10), priority: .late)
            simulation.schedule(.device(.appClose(forceQuit: false)), at: .at(15), priority: .late)
            try simulation.run(until: .at(3 * 3_600), handler: &world)
            cancelled += world.system.metrics.expirations(.userCancelled)
        }
        #expect(abs(Double(cancelled) / 400 - 0.3) < 0.07)
    }

    @Test("submits: refused from the background; with `fail` and no free slot, immediateRunIneligible; with `queue`, the third waits for a slot")
    func submissionRules() throws {
        // Two slots (the default): a third request fails with `fail` …
        let failing = ExportPolicy(bytes: 1_000_000_000, strategy: .fail, requests: 3)
        let h = try SystemHarness(scenario()) { failing }
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(60))
        #expect(failing.errors == [.immediateRunIneligible])
        #expect(h.entries(.taskLaunch).count == 2)
        // … and waits with `queue`, starting once a slot frees (here when a task whose work is
        // done ends).
        let queueing = ExportPolicy(bytes: 1_000, strategy: .queue, requests: 3)
        let q = try SystemHarness(scenario()) { queueing }
        q.useApp(at: .at(10), for: .seconds(5))
        try q.run(until: .at(600))
        #expect(queueing.errors.isEmpty)
        #expect(q.entries(.continuedProcessingQueued).map(\.event) == [.continuedProcessingQueued(identifier: "com.example.export.2")])
        #expect(q.entries(.taskLaunch).count == 3)
        // From the background: unavailable.
        var refused: [TaskSchedulerError.Code] = []
        let background = try SystemHarness(scenario()) {
            ScriptedPolicy(onBackground: { app in
                do throws(TaskSchedulerError) { try app.taskScheduler.submit(ContinuedProcessingTaskRequest(identifier: "com.example.export.9")) } catch { refused.append(error.code) }
            })
        }
        background.useApp(at: .at(10), for: .seconds(5))
        try background.run(until: .at(60))
        #expect(refused == [.unavailable])
    }

    @Test("a force-quit ends the running task with the process and cancels queued requests")
    func forceQuit() throws {
        var scenario = scenario()
        scenario.system.continuedProcessing.maximumConcurrentTasks = 1
        let h = try SystemHarness(scenario) { ExportPolicy(bytes: 1_000_000_000, requests: 2) }
        h.useApp(at: .at(10), for: .seconds(5), forceQuit: true)
        try h.run(until: .at(600))
        #expect(h.entries(.taskLaunch).count == 1)
        #expect(h.entries(.continuedProcessingQueueCancelled).map(\.event) == [.continuedProcessingQueueCancelled(count: 1)])
        #expect(h.entries(.terminate).first?.time == .at(15))
    }

    @Test("wildcard identifiers: a continued-processing identifier matches `prefix.*`; refresh requests do not")
    func wildcards() throws {
        let permitted = ["com.example.export.*", "refresh"]
        #expect(ContinuedProcessingTaskRequest.matches("com.example.export.42", wildcardIn: permitted))
        #expect(!ContinuedProcessingTaskRequest.matches("com.example.export.", wildcardIn: permitted))
        #expect(!ContinuedProcessingTaskRequest.matches("com.example.other.1", wildcardIn: permitted))
        // The scheduler: a refresh request does not match a wildcard; a continued one does.
        var scenario = SystemHarness.quietScenario
        scenario.app.permittedIdentifiers = permitted
        let h = try SystemHarness(scenario) { ScriptedPolicy() }
        #expect(h.system.submitRefusal(identifier: "com.example.export.42", kind: .appRefresh) == .notPermitted)
        #expect(h.system.submitRefusal(identifier: "refresh", kind: .appRefresh) == nil)
        #expect(h.system.submitRefusal(identifier: "com.example.export.42", kind: .continuedProcessing) == nil)
    }
}
