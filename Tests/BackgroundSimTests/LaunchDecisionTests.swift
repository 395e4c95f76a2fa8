@testable import BackgroundSim
import SimKernel
import Testing

@Suite("Launch decisions")
struct LaunchDecisionTests {
    /// The decisions logged for pending requests, in order, with their times.
    static func decisions(_ harness: SystemHarness) -> [(time: SimInstant, decision: LaunchDecision)] {
        harness.log.compactMap { entry in
            if case .launchDecision(_, _, let decision) = entry.event { return (entry.time, decision) }
            return nil
        }
    }

    @Test("the documented rules are logged as reasons: in the foreground, then without the charger, then launched on it")
    func rulesAsReasons() throws {
        let harness = try SystemHarness {
            ScriptedPolicy(onLaunch: { app, _ in
                app.taskScheduler.register(forTaskWithIdentifier: "work") { task in task.setTaskCompleted(success: true) }
                var request = TaskRequest.processing(identifier: "work", requiresExternalPower: true)
                request.earliestBeginDate = app.date + .seconds(10)
                try! app.taskScheduler.submit(request)
            })
        }
        harness.useApp(at: .at(0), for: .seconds(60))
        harness.inject(.plugIn(overnight: false), at: .at(500))
        try harness.run(until: .at(1_000))
        let decisions = Self.decisions(harness)
        // Looked at on submitting (the eager model looks at every change) and when due, both in the foreground.
        #expect(decisions.prefix(2).map(\.time) == [.at(0), .at(10)])
        #expect(decisions.prefix(2).allSatisfy { $0.decision == .notLaunched(.appInForeground) })
        #expect(decisions.contains { $0.time == .at(60) && $0.decision == .notLaunched(.requiresExternalPower) })
        #expect(decisions.last?.time == .at(500))
        #expect(decisions.last?.decision == .launched)
        #expect(harness.times(.taskLaunch) == [.at(500)])
    }

    @Test("a force-quit app's requests are denied for the force-quit, until the user opens it again")
    func forceQuitDenial() throws {
        var scenario = SystemHarness.quietScenario
        scenario.system.forceQuitClearsPendingRequests = false
        let harness = try SystemHarness(scenario) {
            TaskExecutionTests.policy(TaskExecutionTests.refreshIn15) { task, _ in task.setTaskCompleted(success: true) }
        }
        harness.useApp(at: .at(0), forceQuit: true)
        harness.inject(.plugIn(overnight: false), at: .at(2_000))   // a device change: the eager model looks again
        try harness.run(until: .at(3_000))
        let decisions = Self.decisions(harness)
        #expect(decisions.first?.time == .at(60))
        #expect(decisions.first?.decision == .notLaunched(.notDue), "the date is checked first")
        let due = decisions.dropFirst()
        #expect(due.first?.time == .at(60) + .minutes(15))
        #expect(due.contains { $0.time == .at(2_000) }, "the plug-in")
        #expect(due.allSatisfy { $0.decision == .notLaunched(.forceQuit) })
        #expect(harness.entries(.taskLaunch).isEmpty)
    }

    @Test("after a kill the model's choice is logged as throttled")
    func throttledDenial() throws {
        let harness = try SystemHarness {
            ScriptedPolicy(onLaunch: { app, _ in
                app.taskScheduler.register(forTaskWithIdentifier: "refresh") { task in
                    task.expirationHandler = {}
                    try? app.taskScheduler.submit(TaskExecutionTests.refreshIn15(app))
                }
            }, onBackground: { app in try? app.taskScheduler.submit(TaskExecutionTests.refreshIn15(app)) })
        }
        harness.useApp(at: .at(0))
        try harness.run(until: .at(0) + .hours(2))
        let kill = try #require(harness.times(.kill).first)
        let throttled = Self.decisions(harness).filter { $0.decision == .notLaunched(.throttled) }
        #expect(!throttled.isEmpty)
        #expect(throttled.allSatisfy { $0.time > kill })
        #expect(harness.system.metrics.throttledLaunches == throttled.count)
    }

    /// Conditions for the heuristic model: 10:00 on day 3, the app used at 09:00, screen off an hour.
    static func conditions(battery: Double = 80, charging: Bool = false, thermal: ThermalState = .nominal,
                           screenOffFor: SimDuration = .hours(1), lastAppUse: SimInstant? = .start + .days(3) + .hours(9),
                           lastLaunch: SimInstant? = nil) -> LaunchConditions {
        LaunchConditions(now: .start + .days(3) + .hours(10), hour: 10, isCharging: charging, screenOffFor: screenOffFor,
                         batteryPercent: battery, thermalState: thermal, lastAppUse: lastAppUse, lastLaunchOfKind: lastLaunch)
    }

    @Test("the heuristic model says why: no recent use, not idle, rate limit")
    func heuristicReasons() {
        var model = HeuristicLaunchModel(parameters: HeuristicLaunchParameters(), calendar: Scenario().calendar.calendar)
        var random = RandomStream(seed: 1)
        let processing = TaskRequest.processing(identifier: "p")
        func decide(_ conditions: LaunchConditions, _ request: TaskRequest = processing) -> LaunchDecision {
            model.decide(request, conditions: conditions, random: &random)
        }
        // (The battery floor and heat are the model's floors, applied by the admission: LaunchRuleTests.)
        #expect(decide(Self.conditions(battery: 10, charging: true, lastAppUse: nil)) == .notLaunched(.appNotUsedRecently))
        #expect(decide(Self.conditions(screenOffFor: .minutes(1))) == .notLaunched(.deviceNotIdle))
        #expect(decide(Self.conditions(lastLaunch: .start + .days(3) + .hours(8))) == .notLaunched(.rateLimit))
        // Never used: no refresh either.
        #expect(decide(Self.conditions(), .appRefresh(identifier: "r")) == .notLaunched(.appNotUsedRecently))
    }

    @Test("the heuristic model's refresh: chance until it launches, then its spacing, then its spent budget")
    func heuristicRefresh() throws {
        var model = HeuristicLaunchModel(parameters: HeuristicLaunchParameters(), calendar: Scenario().calendar.calendar)
        var random = RandomStream(seed: 1)
        let refresh = TaskRequest.appRefresh(identifier: "r")
        // Twenty app sessions at 01:00: a budget of about five a day, all of it wanted in the hour
        // after midnight (the model looks half an hour ahead).
        for _ in 0..<20 { model.appDidEnterForeground(at: .start + .hours(1), hour: 1) }
        func decide(at now: SimInstant) -> LaunchDecision {
            let conditions = LaunchConditions(now: now, hour: 0, isCharging: false, screenOffFor: .hours(1), batteryPercent: 80,
                                              thermalState: .nominal, lastAppUse: .start + .hours(23), lastLaunchOfKind: nil)
            return model.decide(refresh, conditions: conditions, random: &random)
        }
        // Every 15 min until the model's chance falls.
        var now = SimInstant.start + .days(1)
        var outcomes: [LaunchDecision] = []
        while outcomes.last != .launched && outcomes.count < 96 {
            outcomes.append(decide(at: now))
            now = now + .minutes(15)
        }
        #expect(outcomes.last == .launched)
        #expect(outcomes.dropLast().allSatisfy { $0 == .notLaunched(.notChosen) })
        let launch = now - .minutes(15)
        model.didLaunch(.appRefresh, at: launch)
        #expect(decide(at: launch + .minutes(1)) == .notLaunched(.rateLimit))
        // Looking every 16 min and launching when chosen spends the bucket (a day's budget, 6 at
        // most) long before the day is out, and the model then says so.
        var launches = 1
        var look = launch + .minutes(16)
        var exhausted = false
        while !exhausted && look < launch + .days(1) {
            let decision = decide(at: look)
            if decision == .launched { launches += 1; model.didLaunch(.appRefresh, at: look) }
            exhausted = decision == .notLaunched(.budgetExhausted)
            look = look + .minutes(16)
        }
        #expect(exhausted)
        #expect((2...6).contains(launches), "about a day's budget: \(launches)")
    }
}
