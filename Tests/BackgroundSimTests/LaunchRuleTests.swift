@testable import BackgroundSim
import SimKernel
import Testing

/// One test per launch rule: the documented rules of the system (``WakeAdmission``, its
/// ``WakeRule/table``) and the discretion of each launch model, each with hand-made conditions on
/// both sides of the rule, so that removing a rule, or moving its threshold, fails its test.
@Suite("Launch rules, one by one")
struct LaunchRuleTests {
    // MARK: The system's documented rules

    static let now = SimInstant.start + .days(3) + .hours(10)

    /// A quiet device at 10:00 on day 3: screen off, on battery at 80 %, on Wi-Fi.
    static let wifi = NetworkPath(interface: .wifi, technology: .lte, signal: .good, isConstrained: false)

    static func device(screenOn: Bool = false, charging: Bool = false, lowPower: Bool = false, network: NetworkPath = wifi) -> DeviceSnapshot {
        var device = DeviceSnapshot()
        device.now = now
        device.hour = 10
        device.isScreenOn = screenOn
        device.batteryState = charging ? .charging : .unplugged
        device.isLowPowerMode = lowPower
        device.network = network
        device.batteryPercent = 80
        return device
    }

    static func app(refreshAllowed: Bool = true, forceQuit: Bool = false) -> WakeAdmission.AppState {
        WakeAdmission.AppState(backgroundAppRefreshAllowed: refreshAllowed, forceQuit: forceQuit, lastAppUse: now - .hours(1))
    }

    /// The documented rules alone: the eager model has no floors.
    static var evaluator: RuleProbe { RuleProbe(admission: WakeAdmission(model: EagerLaunchModel())) }

    /// Asks an admission which rule holds a pending task request back.
    struct RuleProbe {
        var admission: WakeAdmission
        func ruleDenial(_ entry: PendingRequests.Entry, device: DeviceSnapshot, app: WakeAdmission.AppState) -> LaunchDenial? {
            admission.ruleDenial(.task(entry), device: device, app: app)
        }
    }
    static let refresh = PendingRequests.Entry(request: .appRefresh(identifier: "r"), earliest: now)
    static func processing(power: Bool = false, network: Bool = false, earliest: SimInstant = now) -> PendingRequests.Entry {
        PendingRequests.Entry(request: .processing(identifier: "p", requiresExternalPower: power, requiresNetworkConnectivity: network),
                              earliest: earliest)
    }

    @Test("nothing runs before its earliest begin date; at it, it may")
    func notDue() {
        #expect(Self.evaluator.ruleDenial(Self.processing(earliest: Self.now + .nanoseconds(1)), device: Self.device(), app: Self.app()) == .notDue)
        #expect(Self.evaluator.ruleDenial(Self.processing(earliest: Self.now), device: Self.device(), app: Self.app()) == nil)
    }

    @Test("Background App Refresh off stops both kinds")
    func backgroundAppRefreshOff() {
        for entry in [Self.refresh, Self.processing()] {
            #expect(Self.evaluator.ruleDenial(entry, device: Self.device(), app: Self.app(refreshAllowed: false)) == .backgroundAppRefreshOff)
            #expect(Self.evaluator.ruleDenial(entry, device: Self.device(), app: Self.app()) == nil)
        }
    }

    @Test("a force-quit app gets nothing until the user opens it")
    func forceQuit() {
        for entry in [Self.refresh, Self.processing()] {
            #expect(Self.evaluator.ruleDenial(entry, device: Self.device(), app: Self.app(forceQuit: true)) == .forceQuit)
        }
    }

    @Test("Low Power Mode pauses refresh even on the charger, and processing only on battery")
    func lowPowerMode() {
        #expect(Self.evaluator.ruleDenial(Self.refresh, device: Self.device(lowPower: true), app: Self.app()) == .lowPowerMode)
        #expect(Self.evaluator.ruleDenial(Self.refresh, device: Self.device(charging: true, lowPower: true), app: Self.app()) == .lowPowerMode)
        #expect(Self.evaluator.ruleDenial(Self.processing(), device: Self.device(lowPower: true), app: Self.app()) == .lowPowerMode)
        #expect(Self.evaluator.ruleDenial(Self.processing(), device: Self.device(charging: true, lowPower: true), app: Self.app()) == nil)
    }

    @Test("processing waits while the screen is on; refresh does not")
    func deviceInUse() {
        #expect(Self.evaluator.ruleDenial(Self.processing(), device: Self.device(screenOn: true), app: Self.app()) == .deviceInUse)
        #expect(Self.evaluator.ruleDenial(Self.refresh, device: Self.device(screenOn: true), app: Self.app()) == nil)
    }

    @Test("a processing request that requires power waits for the charger")
    func requiresExternalPower() {
        #expect(Self.evaluator.ruleDenial(Self.processing(power: true), device: Self.device(), app: Self.app()) == .requiresExternalPower)
        #expect(Self.evaluator.ruleDenial(Self.processing(power: true), device: Self.device(charging: true), app: Self.app()) == nil)
        #expect(Self.evaluator.ruleDenial(Self.processing(), device: Self.device(), app: Self.app()) == nil)
    }

    @Test("a processing request that requires the network waits for one; one that does not, does not")
    func requiresNetworkConnectivity() {
        #expect(Self.evaluator.ruleDenial(Self.processing(network: true), device: Self.device(network: .offline), app: Self.app()) == .requiresNetworkConnectivity)
        #expect(Self.evaluator.ruleDenial(Self.processing(network: true), device: Self.device(), app: Self.app()) == nil)
        #expect(Self.evaluator.ruleDenial(Self.processing(), device: Self.device(network: .offline), app: Self.app()) == nil)
    }

    // MARK: The heuristic model

    static let parameters = HeuristicLaunchParameters()

    /// A heuristic model that has seen the app used at 10:00–11:00 every day for a week.
    static func heuristic() -> HeuristicLaunchModel {
        var model = HeuristicLaunchModel(parameters: parameters, calendar: Scenario().calendar.calendar)
        for day in 0..<3 { model.appDidEnterForeground(at: .start + .days(day) + .hours(10), hour: 10) }
        return model
    }

    static func conditions(at now: SimInstant = now, hour: Int = 10, battery: Double = 80, charging: Bool = false,
                           thermal: ThermalState = .nominal, screenOffFor: SimDuration = .hours(1),
                           lastAppUse: SimInstant? = now - .hours(1), lastLaunch: SimInstant? = nil) -> LaunchConditions {
        LaunchConditions(now: now, hour: hour, isCharging: charging, screenOffFor: screenOffFor, batteryPercent: battery,
                         thermalState: thermal, lastAppUse: lastAppUse, lastLaunchOfKind: lastLaunch)
    }

    /// The model's decision, drawing from a fixed stream so that it is reproducible.
    static func decide(_ model: inout HeuristicLaunchModel, _ request: TaskRequest, _ conditions: LaunchConditions) -> LaunchDecision {
        var random = RandomStream(seed: 7)
        return model.decide(request, conditions: conditions, random: &random)
    }

    static let refreshRequest = TaskRequest.appRefresh(identifier: "r")
    static let processingRequest = TaskRequest.processing(identifier: "p")

    /// The first rule that holds `entry` back under the heuristic model's floors, on a device at
    /// `battery` % and `thermal`.
    static func floorDenial(_ entry: PendingRequests.Entry, battery: Double = 80, charging: Bool = false,
                            thermal: ThermalState = .nominal) -> LaunchDenial? {
        var device = Self.device(charging: charging)
        device.batteryPercent = battery
        device.thermalState = thermal
        return WakeAdmission(model: Self.heuristic()).ruleDenial(.task(entry), device: device, app: Self.app())
    }

    @Test("below the 20 % battery floor and off the charger, nothing launches; at 20 %, or charging, the floor does not apply")
    func batteryFloor() {
        let floor = Self.parameters.criticalBatteryPercent
        #expect(floor == 20)
        for entry in [Self.refresh, Self.processing()] {
            #expect(Self.floorDenial(entry, battery: floor - 0.1) == .batteryFloor)
            #expect(Self.floorDenial(entry, battery: floor) == nil)
            #expect(Self.floorDenial(entry, battery: 5, charging: true) == nil)
        }
        // The eager model has no floor.
        var device = Self.device()
        device.batteryPercent = 5
        #expect(Self.evaluator.ruleDenial(Self.refresh, device: device, app: Self.app()) == nil)
    }

    @Test("a serious or critical thermal state stops launches; fair does not")
    func thermalState() {
        for entry in [Self.refresh, Self.processing()] {
            #expect(Self.floorDenial(entry, thermal: .serious) == .thermalState)
            #expect(Self.floorDenial(entry, thermal: .critical) == .thermalState)
            #expect(Self.floorDenial(entry, thermal: .fair) == nil)
        }
    }

    @Test("refresh needs use within the recency window (7 days)")
    func refreshRecency() {
        let days = Self.parameters.refreshRecencyDays
        // The model's own record of the last use is what counts for refresh.
        var model = Self.heuristic()   // last used day 2 at 10:00
        let lastUse = SimInstant.start + .days(2) + .hours(10)
        let inside = lastUse + .hours(days * 24) - .minutes(15)
        let outside = lastUse + .hours(days * 24) + .minutes(15)
        #expect(Self.decide(&model, Self.refreshRequest, Self.conditions(at: inside)) != .notLaunched(.appNotUsedRecently))
        #expect(Self.decide(&model, Self.refreshRequest, Self.conditions(at: outside)) == .notLaunched(.appNotUsedRecently))
    }

    @Test("refresh launches are at least 15 minutes apart")
    func refreshSpacing() {
        let spacing = Self.parameters.refreshMinimumSpacingMinutes
        #expect(spacing == 15)
        var model = Self.heuristic()
        model.didLaunch(.appRefresh, at: Self.now)
        #expect(Self.decide(&model, Self.refreshRequest, Self.conditions(at: Self.now + .minutes(spacing) - .seconds(1))) == .notLaunched(.rateLimit))
        #expect(Self.decide(&model, Self.refreshRequest, Self.conditions(at: Self.now + .minutes(spacing))) != .notLaunched(.rateLimit))
    }

    @Test("refresh waits for an hour ahead in which the app is used")
    func noPredictedUse() {
        var model = Self.heuristic()   // used only at 10:00
        // The model looks 30 min ahead, rounded to the hour: at 09:xx it sees 10:00; at 12:xx, 13:00.
        #expect(Self.decide(&model, Self.refreshRequest, Self.conditions(hour: 12)) == .notLaunched(.noPredictedUse))
        #expect(Self.decide(&model, Self.refreshRequest, Self.conditions(hour: 9)) != .notLaunched(.noPredictedUse))
    }

    @Test("the token bucket: a spent daily budget refuses, and refills with time")
    func tokenBucket() {
        var model = Self.heuristic()
        // Spend the bucket: launches an hour apart, whatever the chance.
        var at = Self.now
        for _ in 0..<Int(Self.parameters.refreshMaximumPerDay) { model.didLaunch(.appRefresh, at: at); at = at + .minutes(16) }
        #expect(Self.decide(&model, Self.refreshRequest, Self.conditions(at: at, hour: 9)) == .notLaunched(.budgetExhausted))
        // A day later the bucket holds launches again (and the hour ahead has use).
        #expect(Self.decide(&model, Self.refreshRequest, Self.conditions(at: at + .days(1), hour: 9)) != .notLaunched(.budgetExhausted))
    }

    @Test("processing needs the screen off for 5 minutes")
    func idleDelay() {
        let delay = Self.parameters.idleDelayMinutes
        #expect(delay == 5)
        var model = Self.heuristic()
        #expect(Self.decide(&model, Self.processingRequest, Self.conditions(screenOffFor: .minutes(delay) - .seconds(1))) == .notLaunched(.deviceNotIdle))
        #expect(Self.decide(&model, Self.processingRequest, Self.conditions(screenOffFor: .minutes(delay))) != .notLaunched(.deviceNotIdle))
    }

    @Test("processing needs use within its recency window (7 days)")
    func processingRecency() {
        let days = Self.parameters.processingRecencyDays
        var model = Self.heuristic()
        #expect(Self.decide(&model, Self.processingRequest, Self.conditions(lastAppUse: Self.now - .hours(days * 24) + .minutes(1))) != .notLaunched(.appNotUsedRecently))
        #expect(Self.decide(&model, Self.processingRequest, Self.conditions(lastAppUse: Self.now - .hours(days * 24))) == .notLaunched(.appNotUsedRecently))
        #expect(Self.decide(&model, Self.processingRequest, Self.conditions(lastAppUse: nil)) == .notLaunched(.appNotUsedRecently))
    }

    @Test("processing launches are at least 8 hours apart")
    func processingSpacing() {
        let hours = Self.parameters.processingMinimumSpacingHours
        #expect(hours == 8)
        var model = Self.heuristic()
        #expect(Self.decide(&model, Self.processingRequest, Self.conditions(lastLaunch: Self.now - .hours(hours) + .seconds(1))) == .notLaunched(.rateLimit))
        #expect(Self.decide(&model, Self.processingRequest, Self.conditions(lastLaunch: Self.now - .hours(hours))) != .notLaunched(.rateLimit))
    }

    @Test("processing is far likelier on the charger: 0.5 against 0.01 a look")
    func processingChances() {
        var model = Self.heuristic()
        var random = RandomStream(seed: 3)
        func rate(charging: Bool) -> Double {
            let looks = 4_000
            let launched = (0..<looks).count { _ in
                model.decide(Self.processingRequest, conditions: Self.conditions(charging: charging), random: &random) == .launched
            }
            return Double(launched) / Double(looks)
        }
        // Binomial standard errors: 0.008 and 0.0016; four of them either side.
        #expect(abs(rate(charging: true) - Self.parameters.processingChargingChancePerEvaluation) < 0.032)
        #expect(abs(rate(charging: false) - Self.parameters.processingBatteryChancePerEvaluation) < 0.0064)
    }

    // MARK: The stingy model

    @Test("the stingy model: refresh at least 4 h apart and within 3 days of use, processing at least a day apart")
    func stingyLimits() {
        var stingy = StingyLaunchModel(parameters: Self.parameters, calendar: Scenario().calendar.calendar)
        var heuristic = Self.heuristic()
        for day in 0..<3 { stingy.appDidEnterForeground(at: .start + .days(day) + .hours(10), hour: 10) }
        var random = RandomStream(seed: 7)
        func stingyDecide(_ request: TaskRequest, _ conditions: LaunchConditions) -> LaunchDecision {
            stingy.decide(request, conditions: conditions, random: &random)
        }
        // Refresh spacing: 3 h 59 min after a launch the stingy model refuses where the heuristic would not.
        stingy.didLaunch(.appRefresh, at: Self.now)
        heuristic.didLaunch(.appRefresh, at: Self.now)
        let almostFour = Self.conditions(at: Self.now + .minutes(239), hour: 9)
        #expect(stingyDecide(Self.refreshRequest, almostFour) == .notLaunched(.rateLimit))
        #expect(Self.decide(&heuristic, Self.refreshRequest, almostFour) != .notLaunched(.rateLimit))
        #expect(stingyDecide(Self.refreshRequest, Self.conditions(at: Self.now + .minutes(240), hour: 9)) != .notLaunched(.rateLimit))
        // Processing spacing: 23 h after a launch.
        let almostADay = Self.conditions(lastLaunch: Self.now - .hours(23))
        #expect(stingyDecide(Self.processingRequest, almostADay) == .notLaunched(.rateLimit))
        #expect(Self.decide(&heuristic, Self.processingRequest, almostADay) != .notLaunched(.rateLimit))
        // Refresh recency: the app last used on day 2 at 10:00, and looked at 3 days and 15 min later.
        var freshStingy = StingyLaunchModel(parameters: Self.parameters, calendar: Scenario().calendar.calendar)
        for day in 0..<3 { freshStingy.appDidEnterForeground(at: .start + .days(day) + .hours(10), hour: 10) }
        var freshHeuristic = Self.heuristic()
        let threeDays = Self.conditions(at: .start + .days(5) + .hours(10) + .minutes(15), hour: 9)
        #expect(freshStingy.decide(Self.refreshRequest, conditions: threeDays, random: &random) == .notLaunched(.appNotUsedRecently))
        #expect(Self.decide(&freshHeuristic, Self.refreshRequest, threeDays) != .notLaunched(.appNotUsedRecently))
    }

    // MARK: The eager model

    @Test("the eager model launches whatever the documented rules allow, whatever the battery, heat or use")
    func eager() {
        var model = EagerLaunchModel()
        var random = RandomStream(seed: 1)
        for request in [Self.refreshRequest, Self.processingRequest] {
            let harsh = Self.conditions(battery: 5, thermal: .critical, screenOffFor: .zero, lastAppUse: nil)
            #expect(model.decide(request, conditions: harsh, random: &random) == .launched)
        }
    }
}
