@testable import BackgroundSim
import SimKernel
import Testing

/// Silent pushes: the server's sends, the system's rules for delivering them, and the 30 s a
/// delivered push gives the app.
@Suite("Silent pushes")
struct SilentPushTests {
    /// Counts the pushes it gets and calls the handler (unless told not to).
    final class PushPolicy: BackgroundPolicy {
        let callsHandler: Bool
        init(callsHandler: Bool = true) { self.callsHandler = callsHandler }
        func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {}
        func didReceiveRemoteNotification(_ app: AppContext, fetchCompletionHandler: @escaping (BackgroundFetchResult) -> Void) {
            if callsHandler { fetchCompletionHandler(.newData) }
        }
    }

    func scenario(_ pushes: ServerPushes) -> Scenario {
        var scenario = SystemHarness.quietScenario
        scenario.pushes = pushes
        return scenario
    }

    func cadence(minutes: Double) -> ServerPushes {
        var pushes = ServerPushes()
        pushes.schedule = .cadence
        pushes.everyMinutes = minutes
        return pushes
    }

    func delivered(_ h: SystemHarness, inBackground: Bool = true) -> [SimInstant] {
        h.entries(.pushDelivered).filter { $0.event == .pushDelivered(inBackground: inBackground) }.map(\.time)
    }

    @Test("a push wakes the app in the background; one not handled within 30 s gets the app terminated")
    func wakesAndTerminates() throws {
        let h = try SystemHarness(scenario(cadence(minutes: 60))) { PushPolicy(callsHandler: false) }
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(3_700))
        #expect(delivered(h) == [.at(3_600)])
        #expect(h.times(.resume) == [.at(3_600)])
        #expect(h.entries(.kill).map(\.event) == [.kill(.pushNotCompleted)])
        #expect(h.times(.kill) == [.at(3_630)])
        #expect(h.system.metrics.pushKills == 1)
        // Handled: suspended at once, never killed.
        let ok = try SystemHarness(scenario(cadence(minutes: 60))) { PushPolicy() }
        ok.useApp(at: .at(10), for: .seconds(5))
        try ok.run(until: .at(3_700))
        #expect(ok.entries(.kill).isEmpty)
        #expect(ok.times(.suspend).last == .at(3_600))
        #expect(ok.entries(.pushCompletionHandlerCalled).count == 1)
    }

    @Test("a burst: at most 4 background deliveries in any 60 min; then only the newest push is kept, and delivered when the first of the burst leaves the window")
    func burstAndCoalescing() throws {
        var pushes = ServerPushes()
        pushes.schedule = .times
        pushes.atHours = (1...14).map { 1 + Double($0) * 2 / 60 }   // 62, 64, …, 88 min
        let h = try SystemHarness(scenario(pushes)) { PushPolicy() }
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(6 * 3_600))
        #expect(delivered(h) == [62, 64, 66, 68, 122].map { .at(Double($0) * 60) })
        #expect(h.system.metrics.pushesSent == 14)
        // Pushes 5–14 wait; each after the fifth replaces the one held.
        #expect(h.system.metrics.pushesCoalesced == 9)
        #expect(h.entries(.pushDeferred).allSatisfy { $0.event == .pushDeferred(reason: .rateLimit) })
    }

    @Test("with no other apps' pushes, a device budget of 8 a period: hourly pushes are delivered at 1–8 h; the last held push and the new one at 24 h, then 25–30 h")
    func deviceBudgetAlone() throws {
        var alone = scenario(cadence(minutes: 60))
        alone.system.otherApps.backgroundPushesPerHour = 0
        alone.system.push.deviceBudgetPerHour = 8.0 / 24
        let h = try SystemHarness(alone) { PushPolicy() }
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(48 * 3_600 - 1))
        #expect(delivered(h) == (Array(1...8) + [24] + Array(24...30)).map { .at(Double($0) * 3_600) })
        #expect(h.system.metrics.pushesSent == 47)
    }

    @Test("other apps that spend the device's budget minutes into each period leave the app only the instant each period starts: the push held from the last period and the one sent then, at 24 h and at 48 h")
    func otherAppsSpendTheBudget() throws {
        var crowded = scenario(cadence(minutes: 60))
        crowded.system.otherApps.backgroundPushesPerHour = 100   // 12 arrivals take about 7 minutes
        crowded.system.push.deviceBudgetPerHour = 0.5            // 12 a period
        let h = try SystemHarness(crowded) { PushPolicy() }
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(50 * 3_600))
        let periodStarts: [SimInstant] = [.at(86_400), .at(86_400), .at(172_800), .at(172_800)]
        #expect(delivered(h) == periodStarts)
        #expect(h.entries(.pushDeferred).allSatisfy { $0.event == .pushDeferred(reason: .rateLimit) })
    }

    @Test("a push to an app the user has not opened for 21 days (refreshRecencyDays) is held back")
    func recency() throws {
        let h = try SystemHarness(scenario(cadence(minutes: 24 * 60))) { PushPolicy() }
        h.inject(.plugIn(overnight: false), at: .at(1))   // no Low Power Mode in three weeks
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(22.5 * 86_400))
        #expect(delivered(h) == (1...21).map { .at(Double($0) * 86_400) })
        #expect(h.entries(.pushDeferred).first?.event == .pushDeferred(reason: .appNotUsedRecently))
        #expect(h.entries(.pushDeferred).first?.time == .at(22 * 86_400))
    }

    @Test("hourly pushes for a year (coverdrop-push, seed 1) under the device's default budget of 48 a day: about 21 background deliveries a day with other apps sending none or 1 an hour, about 10 with 4 an hour", arguments: [0.0, 1.0, 4.0])
    func hourlyForAYear(otherAppsPerHour: Double) throws {
        final class Count { var background = 0 }
        let count = Count()
        var scenario = try #require(Presets.scenario(named: "coverdrop-push"))
        scenario.system.otherApps.backgroundPushesPerHour = otherAppsPerHour
        let result = try SimulationRunner.run(scenario: scenario, seed: 1, days: 365, log: {
            if $0.event == .pushDelivered(inBackground: true) { count.background += 1 }
        })
        let perDay = Double(count.background) / 365
        #expect(Double(result.os.metrics.pushesSent) / 365 > 23.9)
        if otherAppsPerHour < 4 {
            // The budget (48) is more than the app's 24 and the other apps' 0 or 24 together,
            // bar unlucky periods: the app gets what its own rules leave it (nights off the
            // network, Low Power Mode, force-quits and its visits take 2–4 a day).
            #expect(perDay > 18 && perDay <= 24, "\(perDay) a day")
        } else {
            // The budget is spent when the app's deliveries (about 0.9 an hour) and the other
            // apps' 4 an hour reach 48: after about 48 / 4.9 ≈ 9.8 h, in which the app gets about
            // 0.9 × 9.8 ≈ 8.8, and the push held from the last period at its start: ≈ 9.8 a day.
            #expect(abs(perDay - 9.8) < 2, "\(perDay) a day")
        }
    }

    @Test("the throttle on its own: a full burst opens when its oldest delivery leaves the window, a spent budget at the next period")
    func throttle() {
        var parameters = PushParameters()
        parameters.burstDeliveries = 2
        parameters.burstWindowMinutes = 10
        parameters.deviceBudgetPerHour = 3.0 / 24
        var none = OtherAppsParameters()
        none.backgroundPushesPerHour = 0
        var throttle = PushThrottle(parameters: parameters, otherApps: none, seed: 1)
        #expect(throttle.budget.perPeriod == 3)
        #expect(throttle.opensAt(.at(0)) == .at(0))
        throttle.delivered(at: .at(60))
        #expect(throttle.opensAt(.at(61)) == .at(61))
        throttle.delivered(at: .at(120))
        #expect(throttle.opensAt(.at(121)) == .at(660))
        throttle.delivered(at: .at(660))
        // Three in the first period: the next starts at 24 h, and the burst is clear by then.
        #expect(throttle.opensAt(.at(800)) == .at(86_400))
        throttle.delivered(at: .at(86_400))
        #expect(throttle.budget.appDeliveries == 1 && throttle.budget.period == 1)
        #expect(throttle.opensAt(.at(86_401)) == .at(86_401))
    }

    @Test("the device's budget against the other apps' arrivals drawn all at once from each period's stream: spent exactly when the app's deliveries and the arrivals so far reach it", arguments: [1.0, 4.0])
    func budgetAgainstArrivalsDrawnAtOnce(otherAppsPerHour: Double) {
        var push = PushParameters()
        push.deviceBudgetPerHour = 1   // 24 a period
        var otherApps = OtherAppsParameters()
        otherApps.backgroundPushesPerHour = otherAppsPerHour
        let seed: UInt64 = 11
        /// The period's arrivals, drawn forwards from its start until the period ends.
        func arrivals(period: Int64) -> [Double] {
            var stream = RandomStream(seed: seed, label: StreamLabel("system.otherApps.pushes"), index: UInt64(period))
            var times: [Double] = [], t = Double(period) * 86_400
            while true {
                t += 3_600 * -PortableMath.log(1 - stream.unit()) / otherAppsPerHour
                if t >= Double(period + 1) * 86_400 { return times }
                times.append(t)
            }
        }
        var budget = DevicePushBudget(push: push, otherApps: otherApps, seed: seed)
        // The app asks every 10 minutes over three periods and takes a delivery whenever one is left.
        var app: [Int64: Int] = [:]
        for step in 0..<(3 * 144) {
            let now = SimInstant.at(Double(step) * 600)
            let period = Int64(step / 144)
            let before = arrivals(period: period).filter { $0 <= Double(step) * 600 }.count
            let expectOpen = app[period, default: 0] + before < 24
            #expect((budget.opensAt(now) == now) == expectOpen, "step \(step)")
            if expectOpen {
                budget.appDelivered(at: now)
                app[period, default: 0] += 1
            } else {
                #expect(budget.opensAt(now) == .at(Double(period + 1) * 86_400))
            }
            budget.checkInvariants()
        }
        // Neither rate spends a whole period before the app asks.
        #expect((0..<3).allSatisfy { app[$0, default: 0] > 0 })
    }

    @Test("after a force-quit pushes are discarded until the user opens the app")
    func forceQuit() throws {
        let h = try SystemHarness(scenario(cadence(minutes: 60))) { PushPolicy() }
        h.useApp(at: .at(10), for: .seconds(5), forceQuit: true)
        h.useApp(at: .at(3 * 3_600 + 600), for: .seconds(5))
        try h.run(until: .at(5 * 3_600 + 100))
        #expect(h.entries(.pushDiscarded).map(\.time) == [.at(3_600), .at(7_200), .at(10_800)])
        #expect(delivered(h) == [.at(14_400), .at(18_000)])
        #expect(h.system.metrics.pushesDiscarded == 3)
    }

    @Test("a kill of the suspended app discards the push the system held for it (appKilled); later pushes are held and delivered as usual")
    func killDiscardsTheHeldPush() throws {
        var held = scenario(cadence(minutes: 60))
        held.system.otherApps.backgroundPushesPerHour = 0
        held.system.push.deviceBudgetPerHour = 0.125   // 3 a period: the 4 h push is held
        held.faults.jetsams = [.init(atHours: 4.5)]
        let h = try SystemHarness(held) { PushPolicy() }
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(24.5 * 3_600))
        #expect(h.entries(.pushDiscarded).map(\.event) == [.pushDiscarded(reason: .appKilled)])
        #expect(h.times(.pushDiscarded) == [.at(4.5 * 3_600)])
        // The 5 h push is held until the next period; 6–23 h each replace the one held.
        let expected: [SimInstant] = [.at(3_600), .at(7_200), .at(10_800), .at(86_400), .at(86_400)]
        #expect(delivered(h) == expected)
        #expect(h.system.metrics.pushesCoalesced == 18)
    }

    @Test("Background App Refresh off holds the push back; a user launch delivers it")
    func rulesHoldAndUserLaunchDelivers() throws {
        var off = scenario(cadence(minutes: 60))
        off.app.backgroundAppRefreshEnabled = false
        let h = try SystemHarness(off) { PushPolicy() }
        h.useApp(at: .at(10), for: .seconds(5))
        h.useApp(at: .at(5_000), for: .seconds(5))
        try h.run(until: .at(5_100))
        #expect(delivered(h).isEmpty)
        #expect(h.entries(.pushDeferred).first?.event == .pushDeferred(reason: .backgroundAppRefreshOff))
        #expect(delivered(h, inBackground: false) == [.at(5_000)])
    }

    @Test("the rules, one by one: force-quit, Background App Refresh off, not opened for 21 days, Low Power Mode, a critically low battery off the charger, the throttle")
    func rules() {
        let model = HeuristicLaunchModel(parameters: HeuristicLaunchParameters(), calendar: Scenario().calendar.calendar)
        let admission = WakeAdmission(model: model)
        var device = LaunchRuleTests.device()
        device.now = .at(3_600)
        func denial(_ device: DeviceSnapshot, forceQuit: Bool = false, on: Bool = true, used: SimInstant? = .at(0),
                    opens: SimInstant = .at(0)) -> LaunchDenial? {
            let app = WakeAdmission.AppState(backgroundAppRefreshAllowed: on, forceQuit: forceQuit, lastAppUse: used, pushThrottleOpensAt: opens)
            return admission.ruleDenial(.door(.silentPush), device: device, app: app)
        }
        #expect(denial(device) == nil)
        #expect(denial(device, forceQuit: true) == .forceQuit)
        #expect(denial(device, on: false) == .backgroundAppRefreshOff)
        #expect(denial(device, used: nil) == .appNotUsedRecently)
        var weeksLater = device
        weeksLater.now = .at(21 * 86_400)
        #expect(denial(weeksLater) == .appNotUsedRecently)
        weeksLater.now = .at(21 * 86_400 - 1)
        #expect(denial(weeksLater) == nil)
        var lowPower = device
        lowPower.isLowPowerMode = true
        #expect(denial(lowPower) == .lowPowerMode)
        var low = device
        low.batteryPercent = 15
        #expect(denial(low) == .batteryFloor)
        low.batteryState = .charging
        #expect(denial(low) == nil)
        #expect(denial(device, opens: .at(3_601)) == .rateLimit)
        #expect(denial(device, opens: .at(3_600)) == nil)
    }

    @Test("budgets apply under the heuristic model: with an energy budget of 1 J a day, the launch overhead of the first delivery holds the next back")
    func budgets() throws {
        var tight = scenario(cadence(minutes: 60))
        tight.system.budget.energyJoulesPerDay = 1
        tight.system.launchModel = .heuristic   // the eager model ignores budgets
        let h = try SystemHarness(tight) { PushPolicy() }
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(3 * 3_600 + 100))
        #expect(delivered(h).first == .at(3_600))
        #expect(h.entries(.pushDeferred).contains { $0.event == .pushDeferred(reason: .energyBudget) })
        #expect(delivered(h).count < 3)
    }

    @Test("the server's schedules: a cadence, given times in any order, and a Poisson rate (2 an hour over 400 h, ± 10 %)")
    func schedules() throws {
        var poisson = ServerPushes()
        poisson.schedule = .poisson
        poisson.perHour = 2
        let p = try SystemHarness(scenario(poisson)) { PushPolicy() }
        try p.run(until: .at(400 * 3_600))
        #expect(abs(Double(p.system.metrics.pushesSent) / 800 - 1) < 0.1)

        var given = ServerPushes()
        given.schedule = .times
        given.atHours = [3, 1, 2]
        let g = try SystemHarness(scenario(given)) { PushPolicy() }
        try g.run(until: .at(4 * 3_600))
        #expect(g.times(.pushReceived) == [.at(3_600), .at(7_200), .at(10_800)])

        let c = try SystemHarness(scenario(cadence(minutes: 30))) { PushPolicy() }
        try c.run(until: .at(3 * 3_600 + 1))
        #expect(c.system.metrics.pushesSent == 6)
    }

    @Test("out-of-range pushes are reported with their paths")
    func validation() throws {
        var scenario = Scenario()
        scenario.pushes.everyMinutes = 0
        scenario.pushes.atHours = [-1]
        scenario.system.push.runSeconds = 60
        let issues = scenario.validate(policies: .builtIn).map(\.path)
        #expect(issues.contains("pushes.everyMinutes"))
        #expect(issues.contains("pushes.atHours[0]"))
        #expect(issues.contains("system.push.runSeconds"))
    }
}
