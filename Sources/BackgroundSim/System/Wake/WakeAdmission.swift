import SimKernel

/// The system's one admission step for every wake: whether it runs the app in the background
/// now for a request from a ``WakeSource``, and if not, why.
///
/// It walks ``WakeRule/table`` in order, checking the rules that apply to the request's source,
/// and stops at the first that holds the request back: the documented rules, then the launch
/// model's discretion (its floors, its decision for task requests, the app's budgets for the
/// other doors), then throttling after a kill. The same table serves every launch model; a
/// model that replays logged decisions (``LaunchModel/replaysDecisions``) is not second-guessed
/// on the device's state for task requests.
///
/// It also keeps what those rules remember: the launch model, the app's budgets, the last
/// launch of each task kind, the throttle, and the schedule of launch evaluations for pending
/// task requests (``WakeAdmission+Evaluations.swift``).
struct WakeAdmission {
    /// The system's discretion.
    private(set) var model: any LaunchModel
    /// What the rules read of the model, read once (the model's kind never changes in a run).
    private var floors: Floors
    private(set) var lastRefreshLaunch: SimInstant?
    private(set) var lastProcessingLaunch: SimInstant?
    /// After a kill for an unfinished task, no launches for the app until then.
    private(set) var throttledUntil: SimInstant?
    /// The next launch evaluation for pending task requests.
    var evaluation = EventSlot()
    /// The app's energy and data budgets.
    private(set) var budgets: LaunchBudgets
    /// How long after the user last opened the app pushes are still delivered to it and it is
    /// still launched for its URL sessions' events (``WakeRule/Check/appUsedRecently``).
    let recentUse: SimDuration
    /// How long a door whose wake was held back waits before it asks again, when it is not a
    /// task request (those wait for the model's next evaluation).
    let retryInterval: SimDuration
    /// The last deferral reported for each pending identifier, so that each is reported once.
    var reportedDeferrals: [(identifier: String, next: SimInstant?)] = []

    /// The model's floors and what it replays, as the rules read them.
    private struct Floors {
        let criticalBatteryPercent: Double?
        let thermalCeiling: ThermalState?
        let replaysDecisions: Bool
        let appliesBudgets: Bool

        init(_ model: any LaunchModel) {
            criticalBatteryPercent = model.criticalBatteryPercent
            thermalCeiling = model.thermalCeiling
            replaysDecisions = model.replaysDecisions
            appliesBudgets = model.appliesBudgets
        }
    }

    init(model: any LaunchModel, budget: LaunchBudgetParameters = LaunchBudgetParameters(),
         recentUse: SimDuration = .hours(21 * 24), retryInterval: SimDuration = .minutes(15)) {
        self.model = model
        floors = Floors(model)
        budgets = LaunchBudgets(parameters: budget)
        self.recentUse = recentUse
        self.retryInterval = retryInterval
    }

    /// What the rules look at besides the device: the app's state as the system knows it.
    struct AppState {
        /// Whether the app is in the foreground (a task request then waits).
        var inForeground = false
        var backgroundAppRefreshAllowed: Bool
        var forceQuit: Bool
        var lastAppUse: SimInstant?
        /// Bytes the app has moved against its data budget so far (``WorkEngine/dataBudgetBytes``).
        var dataBudgetBytes = 0.0
        /// When the system's throttle on silent pushes next lets one through (``PushThrottle``).
        var pushThrottleOpensAt: SimInstant = .start
        /// Whether the app is still handling a push (its completion window is open).
        var handlingPush = false
        /// Whether a continued-processing task could start now: fewer run than the system allows.
        var continuedProcessingSlotFree = true
        /// Whether a URL session whose events wait was configured to launch the app for them
        /// (`sessionSendsLaunchEvents`).
        var sessionSendsLaunchEvents = true
        /// When the transfer daemon's resume rate limiter next lets a launch for events through
        /// (``SessionEventDelivery/launchOpensAt(_:)``).
        var sessionLaunchOpensAt: SimInstant = .start
    }

    /// A request to run the app in the background: where it comes from and, for a task
    /// request, the pending request.
    struct Request {
        var source: WakeSource
        var pending: PendingRequests.Entry?

        /// A pending task request.
        static func task(_ entry: PendingRequests.Entry) -> Request {
            Request(source: WakeSource(entry.request.kind), pending: entry)
        }

        /// A wake that is not a task request. (Inlined, so that the check folds away for a
        /// door that names its source.)
        @inline(__always)
        static func door(_ source: WakeSource) -> Request {
            precondition(!source.isTaskRequest, "WakeAdmission: a task request needs its pending entry")
            return Request(source: source, pending: nil)
        }
    }

    /// Replaces the launch model (for tests that change how a model evaluates).
    mutating func replaceModel(_ model: any LaunchModel) {
        self.model = model
        floors = Floors(model)
    }

    /// The user brought the app to the foreground: the model may learn from it.
    mutating func appDidEnterForeground(at instant: SimInstant, hour: Int) {
        precondition((0..<24).contains(hour), "WakeAdmission: hour \(hour)")
        model.appDidEnterForeground(at: instant, hour: hour)
    }

    /// Decides whether `request` may wake the app now: the rules that apply to its source in
    /// ``WakeRule/table`` order. The launch model and the budgets may draw from `random`.
    mutating func decide(_ request: Request, device: DeviceSnapshot, app: AppState, random: inout RandomStream) -> LaunchDecision {
        var budgetsUpdated = false
        for rule in rules(for: request) {
            // A task request that meets the documented rules brings the budgets up to date, for
            // the model's chance they scale (whatever the model's floors then say).
            if rule.stage != .documented && request.source.isTaskRequest && !budgetsUpdated {
                budgets.update(at: device.now, energyDrawn: device.appBackgroundBatteryJoules, dataDrawn: app.dataBudgetBytes)
                budgetsUpdated = true
            }
            switch rule.check {
            case .launchModel:
                let decision = decideByModel(request, device: device, app: app, random: &random)
                if decision != .launched { return decision }
            case .budgets:
                let (factor, limit) = budgetFactor(device: device, dataBudgetBytes: app.dataBudgetBytes)
                // A full budget draws nothing, so the budgets never change how many draws a decision takes.
                if factor < 1 && !random.chance(factor) { return .notLaunched(limit) }
            default:
                if let denial = rule.denial, holdsBack(rule.check, request, device: device, app: app) { return .notLaunched(denial) }
            }
        }
        return .launched
    }

    /// Why the first rule before the launch model's decision holds `request` back now, if one
    /// does: the documented rules and the model's floors (for tests and the rule table's docs).
    func ruleDenial(_ request: Request, device: DeviceSnapshot, app: AppState) -> LaunchDenial? {
        for rule in rules(for: request) where rule.stage != .afterChoice {
            if let denial = rule.denial, holdsBack(rule.check, request, device: device, app: app) { return denial }
        }
        return nil
    }

    /// The rules that apply to `request`, in ``WakeRule/table`` order: its source's, less the
    /// device conditions when the model replays logged decisions and the request is a task's (the
    /// log's decisions already met them). The one walk ``decide(_:device:app:random:)`` and
    /// ``ruleDenial(_:device:app:)`` share.
    @inline(__always)
    private func rules(for request: Request) -> [WakeRule.Step] {
        let skipsDeviceConditions = floors.replaysDecisions && request.source.isTaskRequest
        return (skipsDeviceConditions ? WakeRule.plansWithoutDeviceConditions : WakeRule.plans)[Int(request.source.rawValue)]
    }

    /// Whether the predicate of `check` holds `request` back now.
    @inline(__always)
    private func holdsBack(_ check: WakeRule.Check, _ request: Request, device: DeviceSnapshot, app: AppState) -> Bool {
        switch check {
        case .pushesAfterForceQuit: return app.forceQuit
        case .sessionSendsLaunchEvents: return !app.sessionSendsLaunchEvents
        case .phoneOn: return !device.isPoweredOn
        case .appInBackground: return app.inForeground
        case .onePushAtATime: return app.handlingPush
        case .continuedProcessingSlot: return !app.continuedProcessingSlotFree
        case .unlockedSinceBoot: return !device.isUnlockedSinceBoot
        case .earliestBeginDate:
            guard let pending = request.pending else { return false }
            return pending.earliest > device.now
        case .backgroundAppRefresh: return !app.backgroundAppRefreshAllowed
        case .appSwitcher: return app.forceQuit
        case .lowDataMode: return device.network.isConstrained
        case .deviceIdle: return device.isScreenOn
        case .externalPower: return request.pending?.request.requiresExternalPower == true && !device.isCharging
        case .networkConnectivity: return request.pending?.request.requiresNetworkConnectivity == true && !device.network.isSatisfied
        case .lowPowerMode: return device.isLowPowerMode
        case .lowPowerModeOnBattery: return device.isLowPowerMode && !device.isCharging
        case .batteryFloor:
            guard let floor = floors.criticalBatteryPercent else { return false }
            return device.batteryPercent < floor && !device.isCharging
        case .thermalState:
            guard let ceiling = floors.thermalCeiling else { return false }
            return device.thermalState >= ceiling
        case .appUsedRecently:
            guard let lastUse = app.lastAppUse else { return true }
            return lastUse.duration(to: device.now) >= recentUse
        case .pushThrottle:
            return app.pushThrottleOpensAt > device.now
        case .sessionLaunchRateLimit:
            return app.sessionLaunchOpensAt > device.now
        case .throttle:
            guard let throttledUntil else { return false }
            return device.now < throttledUntil
        case .launchModel, .budgets:
            return false   // decisions, not predicates: see decide(_:device:app:random:)
        }
    }

    /// The launch model's decision on a pending task request, its chance scaled by the budgets.
    private mutating func decideByModel(_ request: Request, device: DeviceSnapshot, app: AppState,
                                        random: inout RandomStream) -> LaunchDecision {
        guard let pending = request.pending else { preconditionFailure("WakeAdmission: the launch model decides task requests only") }
        let kind = pending.request.kind
        var conditions = LaunchConditions(
            now: device.now, hour: device.hour, isCharging: device.isCharging,
            screenOffFor: device.isScreenOn ? .zero : device.screenOffSince.duration(to: device.now),
            batteryPercent: device.batteryPercent, thermalState: device.thermalState, lastAppUse: app.lastAppUse,
            lastLaunchOfKind: kind == .appRefresh ? lastRefreshLaunch : lastProcessingLaunch)
        let budget = budgets.factor
        conditions.budgetFactor = budget.value
        conditions.budgetLimit = budget.limitedBy
        return model.decide(pending.request, conditions: conditions, random: &random)
    }

    /// The budgets' factor on a wake's chance now, and the budget that sets it; 1 under a model
    /// that ignores budgets (``LaunchModel/appliesBudgets``).
    private mutating func budgetFactor(device: DeviceSnapshot, dataBudgetBytes: Double) -> (value: Double, limitedBy: LaunchDenial) {
        budgets.update(at: device.now, energyDrawn: device.appBackgroundBatteryJoules, dataDrawn: dataBudgetBytes)
        return floors.appliesBudgets ? budgets.factor : (1, .energyBudget)
    }

    /// A task of `kind` was launched at `now`, by the system's choice.
    mutating func didLaunch(_ kind: TaskRequest.Kind, at now: SimInstant) {
        precondition((kind == .appRefresh ? lastRefreshLaunch : lastProcessingLaunch).map { $0 <= now } ?? true,
                     "WakeAdmission: a \(kind) launch at \(now), before the last")
        switch kind {
        case .appRefresh: lastRefreshLaunch = now
        case .processing: lastProcessingLaunch = now
        }
        model.didLaunch(kind, at: now)
    }

    /// No launches for the app until `instant` (``WakeRule/Check/throttle``).
    mutating func throttle(until instant: SimInstant) {
        throttledUntil = instant
    }
}
