import SimKernel

/// The system's launch decisions: the documented rules a pending request must meet, then the
/// launch model's discretion, then throttling after a kill — and when to look again.
///
/// The rules [A]: nothing before the earliest begin date, with Background App Refresh off, or
/// after a force-quit until the user opens the app; refresh not in Low Power Mode; processing
/// only while the screen is off, on the charger and the network if the request requires them,
/// and in Low Power Mode only on the charger [Inf]. The model (``LaunchModel``) decides the rest.
/// A model that replays logged decisions (``LaunchModel/replaysDecisions``) is not
/// second-guessed on the device's state.
struct LaunchEvaluator {
    /// The system's discretion.
    var model: any LaunchModel
    private(set) var lastRefreshLaunch: SimInstant?
    private(set) var lastProcessingLaunch: SimInstant?
    /// After a kill for an unfinished task, no launches until then.
    private(set) var throttledUntil: SimInstant?
    private(set) var evaluation = EventSlot()
    /// The app's energy and data budgets.
    private(set) var budgets: LaunchBudgets
    /// The last deferral reported for each pending identifier, so that each is reported once.
    private var reportedDeferrals: [(identifier: String, next: SimInstant?)] = []

    /// A pending request whose next evaluation is later than the next one the system would
    /// otherwise make, and why: the evaluations in between are not made (and not logged).
    struct Deferral {
        var identifier: String
        var kind: TaskRequest.Kind
        /// When the request is next evaluated; `nil` until something changes (the app is used).
        var next: SimInstant?
        var reason: LaunchDenial
    }

    init(model: any LaunchModel, budget: LaunchBudgetParameters = LaunchBudgetParameters()) {
        self.model = model
        budgets = LaunchBudgets(parameters: budget)
    }

    /// What the rules look at besides the device: the app's state as the system knows it.
    struct AppState {
        var backgroundAppRefreshAllowed: Bool
        var forceQuit: Bool
        var lastAppUse: SimInstant?
        /// Bytes the app has moved against its data budget so far (``WorkEngine/dataBudgetBytes``).
        var dataBudgetBytes = 0.0
    }

    /// Which documented rule forbids launching `pending` now; `nil` if none does.
    func ruleDenial(_ pending: PendingRequests.Entry, device: DeviceSnapshot, app: AppState) -> LaunchDenial? {
        let request = pending.request
        if pending.earliest > device.now { return .notDue }
        if !app.backgroundAppRefreshAllowed { return .backgroundAppRefreshOff }
        if app.forceQuit { return .forceQuit }
        // A replayed decision already met the device rules on the real phone.
        if model.replaysDecisions { return nil }
        switch request.kind {
        case .appRefresh:
            // Low Power Mode pauses Background App Refresh [A].
            return device.isLowPowerMode ? .lowPowerMode : nil
        case .processing:
            // Processing runs only while the device is idle [A]; in Low Power Mode only on the
            // charger [Inf].
            if device.isScreenOn { return .deviceInUse }
            if request.requiresExternalPower && !device.isCharging { return .requiresExternalPower }
            if request.requiresNetworkConnectivity && !device.network.isSatisfied { return .requiresNetworkConnectivity }
            return device.isLowPowerMode && !device.isCharging ? .lowPowerMode : nil
        case .continuedProcessing:
            return nil   // never pending: it starts on the user's action
        }
    }

    /// Decides for `pending` now: the rules, then the model (which may draw from `random`), then
    /// throttling.
    mutating func decide(_ pending: PendingRequests.Entry, device: DeviceSnapshot, app: AppState,
                         random: inout RandomStream) -> LaunchDecision {
        if let denial = ruleDenial(pending, device: device, app: app) { return .notLaunched(denial) }
        let kind = pending.request.kind
        var conditions = LaunchConditions(
            now: device.now, hour: device.hour, isCharging: device.isCharging,
            screenOffFor: device.isScreenOn ? .zero : device.screenOffSince.duration(to: device.now),
            batteryPercent: device.batteryPercent, thermalState: device.thermalState, lastAppUse: app.lastAppUse,
            lastLaunchOfKind: kind == .appRefresh ? lastRefreshLaunch : lastProcessingLaunch)
        budgets.update(at: device.now, energyDrawn: device.appBackgroundBatteryJoules, dataDrawn: app.dataBudgetBytes)
        let budget = budgets.factor
        conditions.budgetFactor = budget.value
        conditions.budgetLimit = budget.limitedBy
        let decision = model.decide(pending.request, conditions: conditions, random: &random)
        if decision == .launched, let throttledUntil, device.now < throttledUntil { return .notLaunched(.throttled) }
        return decision
    }

    /// The budgets' factor on launch chances now, and the budget that sets it, for launches
    /// that are not task requests (a background URL session's events, a push); 1 under a model
    /// that ignores budgets (``LaunchModel/appliesBudgets``).
    mutating func budgetFactor(device: DeviceSnapshot, dataBudgetBytes: Double) -> (value: Double, limitedBy: LaunchDenial) {
        budgets.update(at: device.now, energyDrawn: device.appBackgroundBatteryJoules, dataDrawn: dataBudgetBytes)
        return model.appliesBudgets ? budgets.factor : (1, .energyBudget)
    }

    /// A task of `kind` was launched at `now`.
    mutating func didLaunch(_ kind: TaskRequest.Kind, at now: SimInstant) {
        switch kind {
        case .appRefresh: lastRefreshLaunch = now
        case .processing: lastProcessingLaunch = now
        case .continuedProcessing: return
        }
        model.didLaunch(kind, at: now)
    }

    /// No launches for the app until `instant`.
    mutating func throttle(until instant: SimInstant) {
        throttledUntil = instant
    }

    /// The evaluation event fired.
    mutating func evaluationFired() {
        evaluation.fired()
    }

    /// Schedules the next evaluation: the first moment, over all pending requests, at which the
    /// model might launch one (never before its earliest begin date), or the end of throttling,
    /// whichever is first.
    ///
    /// - Returns: The requests whose next evaluation moved later than the system's next look,
    ///   with why (not yet due, or the model's reason to skip), each reported once.
    mutating func scheduleNext(for pending: PendingRequests, in simulation: inout Simulation<WorldEvent>) -> [Deferral] {
        let now = simulation.now
        // An evaluation due at this very instant has not fired yet (it runs after the event being
        // handled); keep it rather than moving it to the model's next look.
        if evaluation.time == now && !pending.isEmpty { return [] }
        var next: SimInstant?
        var deferrals: [Deferral] = []
        if reportedDeferrals.count > pending.entries.count { reportedDeferrals.removeAll() }
        for entry in pending.entries {
            let look = model.nextEvaluation(for: entry.request.kind, after: now, notBefore: entry.earliest)
            if let look { next = Swift.min(next ?? look, look) }
            let identifier = entry.request.identifier
            let reported = reportedDeferrals.firstIndex { $0.identifier == identifier }
            guard reported.map({ reportedDeferrals[$0].next != look }) ?? true else { continue }
            // The model's reason to pass over the evaluations from the earliest begin date on;
            // otherwise, if the request is not yet due, that.
            let from = entry.earliest > now ? entry.earliest - .nanoseconds(1) : now
            guard let reason = model.skipReason(for: entry.request.kind, after: from) ?? (entry.earliest > now ? .notDue : nil) else { continue }
            deferrals.append(Deferral(identifier: identifier, kind: entry.request.kind, next: look, reason: reason))
            if let reported { reportedDeferrals[reported].next = look } else { reportedDeferrals.append((identifier, look)) }
        }
        if !pending.isEmpty, let throttledUntil, throttledUntil > now { next = Swift.min(next ?? throttledUntil, throttledUntil) }
        evaluation.set(.launchEvaluation, at: next, priority: .late, in: &simulation)
        checkInvariantsIfEnabled(pending: pending, now: now)
        return deferrals
    }
}
