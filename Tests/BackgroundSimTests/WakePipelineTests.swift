@testable import BackgroundSim
import SimKernel
import Testing

/// One way in for every wake: every door asks the same admission step and goes through the same
/// wake, so nothing runs while the phone is off whichever door asks and whichever launch model
/// decides, and each rule applies to the doors the rule table says it does.
@Suite("The wake pipeline")
struct WakePipelineTests {
    /// Watches a run: every log entry that runs the app's code, and whether the phone was on
    /// when it did (the device as the event that caused it left it).
    final class PowerWatch {
        /// Log entries of the event being handled that run the app's code.
        private var pending: [SystemLogEntry] = []
        /// Entries that ran the app's code while the phone was off.
        private(set) var whileOff: [SystemLogEntry] = []
        /// Whether the app's process existed while the phone was off.
        private(set) var processWhileOff = false
        /// How long the phone was off in all, counted at each event (an event's interval since
        /// the last event is counted as off if the phone was off after the last).
        private(set) var offTime = SimDuration.zero
        private var lastEvent = SimInstant.start
        private var wasOff = false
        private(set) var log: [SystemLogEntry] = []

        func see(_ entry: SystemLogEntry) {
            log.append(entry)
            if entry.event.runsAppCode { pending.append(entry) }
        }

        func see(now: SimInstant, device: borrowing Device, system: SimulatedSystem) {
            if wasOff { offTime = offTime + lastEvent.duration(to: now) }
            lastEvent = now
            wasOff = !device.isPoweredOn
            if !device.isPoweredOn {
                whileOff += pending
                if system.processState != .notRunning { processWhileOff = true }
            }
            pending.removeAll()
        }

        func count(where predicate: (SystemLogEvent) -> Bool) -> Int { log.count { predicate($0.event) } }
    }

    /// Runs `scenario` for `days` and watches it.
    static func watch(_ scenario: Scenario, days: Int, seed: UInt64 = 1) throws -> PowerWatch {
        let watch = PowerWatch()
        _ = try SimulationRunner.run(scenario: scenario, seed: seed, days: days, log: { watch.see($0) }, configure: { _ in },
                                     observer: { _, now, device, system in watch.see(now: now, device: device, system: system) })
        return watch
    }

    // MARK: The URL session's events while the phone is off

    /// The harness's quiet scenario on Wi-Fi at 1 Mbps up, plugged in at 20 s.
    static func onWifiAndCharger(_ h: SystemHarness) {
        h.inject(.plugIn(overnight: false), at: .at(20))
    }

    @Test("a discretionary URL-session upload whose battery dies as it finishes: nothing runs while the phone is off, the upload waits for the unlock (no Wi-Fi before it), and the app hears its events when it ends")
    func sessionEventsWaitForThePhone() throws {
        var scenario = SystemHarness.onOneNetwork(wifi: true, uplinkMbps: 1)
        // The uploads are handed off as the app leaves, so they are discretionary.
        let policy = { BackgroundURLSessionTests.HandOffPolicy(handOffInBackground: true) as any BackgroundPolicy }
        // First find when the transfer's events are ready.
        let plain = try SystemHarness(scenario, policy: policy)
        Self.onWifiAndCharger(plain)
        plain.useApp(at: .at(10), for: .seconds(5))
        try plain.run(until: .at(3_600))
        let ready = try #require(plain.entries(.sessionEventsPending).first).time
        #expect(plain.entries(.handleSessionEvents).first?.time == ready)

        // Now the battery dies 10 s before they are ready, while the transfer runs.
        scenario.faults.batteryDeaths = [.init(atHours: (Double(ready.nanosecondsSinceStart) / 1e9 - 10) / 3_600)]
        let h = try SystemHarness(scenario, policy: policy)
        let watch = PowerWatch()
        h.world.system.log = { entry in h.log.append(entry); watch.see(entry) }
        h.world.observer = { _, now, device, system in watch.see(now: now, device: device, system: system) }
        Self.onWifiAndCharger(h)
        h.useApp(at: .at(10), for: .seconds(5))
        // The user picks the phone up (unlocks it) at 2 h, without opening the app.
        h.inject(.sessionStart, at: .at(7_200))
        h.inject(.sessionEnd, at: .at(7_230))
        try h.run(until: .at(6 * 3_600))
        let death = try #require(h.entries(.terminate).first { $0.event == .terminate(reason: .powerOff) }).time
        #expect(death == ready - .seconds(10))
        #expect(watch.whileOff.isEmpty, "ran while off: \(watch.whileOff.map(\.event.kind.rawValue))")
        #expect(!watch.processWhileOff)
        // The transfer stopped with the phone. Back on, locked, the phone joins no Wi-Fi, which
        // this discretionary transfer waits for: it finishes its last 10 s after the unlock at
        // 2 h, and the launch for its events follows at once.
        let started = try #require(h.entries(.phoneStarted).first).time
        #expect(started < .at(7_200))
        let pending = try #require(h.entries(.sessionEventsPending).first).time
        #expect(pending > .at(7_200) + .seconds(10) && pending < .at(7_200) + .seconds(15))
        #expect(h.entries(.sessionRelaunchDeferred).isEmpty)
        let handled = try #require(h.entries(.handleSessionEvents).first)
        #expect(handled.time == pending)
        #expect(h.entries(.launch).last?.event == .launch(reason: .backgroundURLSession))
        #expect(h.entries(.sessionCompletionHandlerCalled).count == 1)
    }

    // MARK: Every door under every launch model

    /// The doors, each with a scenario that uses it and the log entry that shows it woke the app.
    enum Door: String, CaseIterable, CustomTestStringConvertible {
        case appRefresh, processing, continuedProcessing, silentPush, sessionEvents, debugger

        var testDescription: String { rawValue }

        var scenario: Scenario {
            switch self {
            case .appRefresh: return Presets.scenario(named: "probe-refresh")!
            case .processing: return Presets.scenario(named: "probe-processing")!
            case .continuedProcessing: return Presets.scenario(named: "proton-upload-continued")!
            case .silentPush: return Presets.scenario(named: "coverdrop-push")!
            case .sessionEvents:
                // Uploads of 20 MB median, which outlast the app's time in the foreground.
                var scenario = Presets.scenario(named: "proton-upload-urlsession")!
                scenario.work.uploadMedianKilobytes = 20_000
                return scenario
            case .debugger:
                var scenario = Presets.scenario(named: "probe-refresh")!
                // The app stays suspended once opened, so that the debugger finds a process.
                scenario.system.suspendedTerminationPerHour = 0
                scenario.debugger.simulateLaunch = stride(from: 7.0, to: 24.0 * 14, by: 3).map {
                    .init(atHours: $0, identifier: ProbePolicy.refreshIdentifier)
                }
                return scenario
            }
        }

        /// Whether `event` shows this door waking the app.
        func woke(_ event: SystemLogEvent) -> Bool {
            switch (self, event) {
            case (.appRefresh, .taskLaunch(_, .appRefresh, _, _)), (.processing, .taskLaunch(_, .processing, _, _)),
                 (.continuedProcessing, .taskLaunch(_, .continuedProcessing, _, _)), (.silentPush, .pushDelivered(inBackground: true)),
                 (.sessionEvents, .handleSessionEvents), (.debugger, .simulatedLaunch(_, .done)):
                true
            default:
                false
            }
        }
    }

    /// `door`'s scenario under `model`, with the battery dying every 40 hours (the default
    /// user charges at night, so the phone stays off for hours); under `replay`, logged
    /// launches of both kinds every 2 hours.
    static func scenario(_ door: Door, _ model: LaunchModelKind) -> Scenario {
        var scenario = door.scenario
        scenario.system.launchModel = model
        if model == .replay {
            let launches = stride(from: 1.0, to: 24.0 * 14, by: 2).flatMap {
                [ReplayedLaunches.Launch(atHours: $0, kind: .refresh), ReplayedLaunches.Launch(atHours: $0 + 1, kind: .processing)]
            }
            scenario.system.replay.devices = [.init(id: "phone", launches: launches)]
        }
        scenario.faults.batteryDeaths = stride(from: 20.0, to: 24.0 * 14, by: 40).map { .init(atHours: $0) }
        return scenario
    }

    @Test("every door wakes the app under every launch model, and never while the phone is off",
          arguments: Door.allCases, [LaunchModelKind.eager, .heuristic, .stingy, .replay])
    func everyDoorUnderEveryModel(door: Door, model: LaunchModelKind) throws {
        let watch = try Self.watch(Self.scenario(door, model), days: 14)
        #expect(watch.count(where: door.woke) > 0, "the \(door) door never woke the app under the \(model) model")
        #expect(watch.offTime > .hours(24), "the phone was off for only \(watch.offTime)")
        #expect(watch.whileOff.isEmpty, "ran while off: \(watch.whileOff.prefix(3).map { "\($0.time) \($0.event.kind.rawValue)" })")
        #expect(!watch.processWhileOff)
        // A task request pending while the phone is off is held back by the phone-on rule, and
        // the log says so (the heuristic model's evaluations are the ones that come while off).
        if (door == .appRefresh || door == .processing) && model == .heuristic {
            #expect(watch.count { if case .launchDecision(_, _, .notLaunched(.phoneOff)) = $0 { true } else { false } } > 0)
        }
    }

    // MARK: The rule table

    /// An admission under `model`, with the heuristic model's parameters.
    static func admission(_ model: LaunchModelKind) -> WakeAdmission {
        let calendar = Scenario().calendar.calendar
        let parameters = HeuristicLaunchParameters()
        let launchModel: any LaunchModel = switch model {
        case .eager: EagerLaunchModel()
        case .heuristic: HeuristicLaunchModel(parameters: parameters, calendar: calendar)
        case .stingy: StingyLaunchModel(parameters: parameters, calendar: calendar)
        case .replay: ReplayLaunchModel(device: nil)
        }
        return WakeAdmission(model: launchModel)
    }

    /// The request `source` makes: a pending request (needing a network, for processing) for
    /// task sources.
    static func request(_ source: WakeSource) -> WakeAdmission.Request {
        switch source {
        case .appRefreshTask: .task(LaunchRuleTests.refresh)
        case .processingTask: .task(LaunchRuleTests.processing(network: true))
        default: .door(source)
        }
    }

    /// A device and app that every rule lets through, changed by `change`.
    static func denial(_ source: WakeSource, _ model: LaunchModelKind, device change: (inout DeviceSnapshot) -> Void = { _ in },
                       app appChange: (inout WakeAdmission.AppState) -> Void = { _ in }) -> LaunchDenial? {
        var device = LaunchRuleTests.device(charging: true)
        change(&device)
        var app = LaunchRuleTests.app()
        appChange(&app)
        return admission(model).ruleDenial(request(source), device: device, app: app)
    }

    @Test("each rule holds back exactly the doors the table says, under each model; the model's floors only under models that have them",
          arguments: [LaunchModelKind.eager, .heuristic, .stingy, .replay])
    func ruleTableApplies(model: LaunchModelKind) {
        let hasFloors = model == .heuristic || model == .stingy
        for source in WakeSource.allCases {
            // Nothing holds back a request on a quiet, charging, connected device.
            #expect(Self.denial(source, model) == nil, "\(source.name) held back on a quiet device")
            func applies(_ check: WakeRule.Check) -> Bool {
                WakeRule.table.contains { $0.check == check && $0.applies(to: source) }
                    && !(model == .replay && source.isTaskRequest && WakeRule.table.first { $0.check == check }!.isDeviceCondition)
            }
            let off = Self.denial(source, model) { $0.isPoweredOn = false }
            #expect(off == .phoneOff, "\(source.name) with the phone off: \(String(describing: off))")
            #expect((Self.denial(source, model, app: { $0.backgroundAppRefreshAllowed = false }) == .backgroundAppRefreshOff)
                    == applies(.backgroundAppRefresh), "\(source.name): Background App Refresh")
            #expect((Self.denial(source, model, app: { $0.forceQuit = true }) == .forceQuit)
                    == (applies(.appSwitcher) || applies(.pushesAfterForceQuit)), "\(source.name): the app switcher")
            #expect((Self.denial(source, model, app: { $0.inForeground = true }) == .appInForeground) == applies(.appInBackground),
                    "\(source.name): the app in the foreground")
            #expect((Self.denial(source, model, app: { $0.handlingPush = true }) == .previousPushRunning) == applies(.onePushAtATime),
                    "\(source.name): a push still being handled")
            #expect((Self.denial(source, model, app: { $0.continuedProcessingSlotFree = false }) == .continuedProcessingSlotsTaken)
                    == applies(.continuedProcessingSlot), "\(source.name): every continued-processing slot taken")
            #expect((Self.denial(source, model) { $0.isLowPowerMode = true; $0.batteryState = .unplugged } == .lowPowerMode)
                    == (applies(.lowPowerMode) || applies(.lowPowerModeOnBattery)), "\(source.name): Low Power Mode")
            #expect((Self.denial(source, model) { $0.isLowPowerMode = true } == .lowPowerMode) == applies(.lowPowerMode),
                    "\(source.name): Low Power Mode on the charger")
            #expect((Self.denial(source, model) { $0.batteryPercent = 5; $0.batteryState = .unplugged } == .batteryFloor)
                    == (hasFloors && applies(.batteryFloor)), "\(source.name): the battery floor")
            #expect((Self.denial(source, model) { $0.thermalState = .serious } == .thermalState) == (hasFloors && applies(.thermalState)),
                    "\(source.name): the thermal state")
            #expect((Self.denial(source, model, app: { $0.pushThrottleOpensAt = LaunchRuleTests.now + .minutes(1) }) == .rateLimit)
                    == applies(.pushThrottle), "\(source.name): the push throttle")
            #expect((Self.denial(source, model, app: { $0.lastAppUse = nil }) == .appNotUsedRecently) == applies(.appUsedRecently),
                    "\(source.name): not opened for a while")
            #expect((Self.denial(source, model) { $0.network.isConstrained = true } == .lowDataMode) == applies(.lowDataMode),
                    "\(source.name): Low Data Mode")
            let locked = Self.denial(source, model) { $0.isUnlockedSinceBoot = false }
            #expect((locked == .beforeFirstUnlock) == applies(.unlockedSinceBoot), "\(source.name): before the first unlock: \(String(describing: locked))")
        }
    }

    @Test("the throttle after a kill holds back tasks and pushes, not URL sessions' events or continued processing")
    func throttleApplies() {
        for source in WakeSource.allCases {
            var admission = Self.admission(.eager)
            admission.throttle(until: LaunchRuleTests.now + .hours(1))
            var random = RandomStream(seed: 1)
            let decision = admission.decide(Self.request(source), device: LaunchRuleTests.device(charging: true),
                                            app: LaunchRuleTests.app(), random: &random)
            let throttled = source == .appRefreshTask || source == .processingTask || source == .silentPush
            #expect(decision == (throttled ? .notLaunched(.throttled) : .launched), "\(source.name): \(decision)")
        }
    }

    @Test("the budgets hold back pushes and URL sessions' events under the heuristic model, never under the eager one")
    func budgetsApply() {
        for model in [LaunchModelKind.eager, .heuristic] {
            var budget = LaunchBudgetParameters()
            budget.energyJoulesPerDay = 1
            var admission = WakeAdmission(model: Self.admission(model).model, budget: budget)
            var device = LaunchRuleTests.device(charging: true)
            // Ten days' allowance drawn: the bucket is a day in debt (its floor), its factor zero.
            device.appBackgroundBatteryJoules = 10
            var random = RandomStream(seed: 1)
            for source in [WakeSource.silentPush, .sessionEvents, .discretionarySessionEvents] {
                let decision = admission.decide(Self.request(source), device: device, app: LaunchRuleTests.app(), random: &random)
                #expect(decision == (model == .eager ? .launched : .notLaunched(.energyBudget)), "\(source.name) under \(model)")
            }
        }
    }
}

@Suite("The reasons table")
struct LaunchDenialTableTests {
    @Test("every reason a run of any preset gives a task request is one the reasons table marks for its door, and the model's own reasons occur")
    func runsGiveOnlyTheTablesReasons() throws {
        var seen: Set<LaunchDenial> = []
        for preset in Presets.all {
            let run = try SimulationRunner.run(scenario: preset.scenario, seed: 1, days: 21)
            for (kind, door) in [(TaskRequest.Kind.appRefresh, WakeSource.appRefreshTask), (.processing, .processingTask)] {
                for denial in LaunchDenial.allCases where run.os.metrics.launchDecisions.count(kind, denial) > 0 {
                    seen.insert(denial)
                    #expect(denial.canBeGiven(to: door), "\(preset.name): \(denial) for \(kind)")
                }
            }
        }
        #expect(seen.isSuperset(of: [.noPredictedUse, .budgetExhausted, .deviceNotIdle, .notChosen, .notDue]), "\(seen)")
    }
}
