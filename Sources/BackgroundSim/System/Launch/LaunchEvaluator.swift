import SimKernel

/// The system's launch decisions: the documented rules a pending request must meet, then the
/// launch model's discretion, then throttling after a kill — and when to look again.
///
/// The rules [A]: nothing before the earliest begin date, with Background App Refresh off, or
/// after a force-quit until the user opens the app; refresh not in Low Power Mode; processing
/// only while the screen is off, on the charger and the network if the request requires them,
/// and in Low Power Mode only on the charger [Inf]. The model (``LaunchModel``) decides the rest.
struct LaunchEvaluator {
    /// The system's discretion.
    var model: any LaunchModel
    private(set) var lastRefreshLaunch: SimInstant?
    private(set) var lastProcessingLaunch: SimInstant?
    /// After a kill for an unfinished task, no launches until then.
    private(set) var throttledUntil: SimInstant?
    private(set) var evaluation = EventSlot()

    init(model: any LaunchModel) {
        self.model = model
    }

    /// What the rules look at besides the device: the app's state as the system knows it.
    struct AppState {
        var backgroundAppRefreshAllowed: Bool
        var forceQuit: Bool
        var lastAppUse: SimInstant?
    }

    /// Which documented rule forbids launching `pending` now; `nil` if none does.
    func ruleDenial(_ pending: PendingRequests.Entry, device: DeviceSnapshot, app: AppState) -> LaunchDenial? {
        let request = pending.request
        if pending.earliest > device.now { return .notDue }
        if !app.backgroundAppRefreshAllowed { return .backgroundAppRefreshOff }
        if app.forceQuit { return .forceQuit }
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
        }
    }

    /// Decides for `pending` now: the rules, then the model (which may draw from `random`), then
    /// throttling.
    mutating func decide(_ pending: PendingRequests.Entry, device: DeviceSnapshot, app: AppState,
                         random: inout RandomStream) -> LaunchDecision {
        if let denial = ruleDenial(pending, device: device, app: app) { return .notLaunched(denial) }
        let kind = pending.request.kind
        let conditions = LaunchConditions(
            now: device.now, hour: device.hour, isCharging: device.isCharging,
            screenOffFor: device.isScreenOn ? .zero : device.screenOffSince.duration(to: device.now),
            batteryPercent: device.batteryPercent, thermalState: device.thermalState, lastAppUse: app.lastAppUse,
            lastLaunchOfKind: kind == .appRefresh ? lastRefreshLaunch : lastProcessingLaunch)
        let decision = model.decide(pending.request, conditions: conditions, random: &random)
        if decision == .launched, let throttledUntil, device.now < throttledUntil { return .notLaunched(.throttled) }
        return decision
    }

    /// A task of `kind` was launched at `now`.
    mutating func didLaunch(_ kind: TaskRequest.Kind, at now: SimInstant) {
        switch kind {
        case .appRefresh: lastRefreshLaunch = now
        case .processing: lastProcessingLaunch = now
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
    mutating func scheduleNext(for pending: PendingRequests, in simulation: inout Simulation<WorldEvent>) {
        let now = simulation.now
        // An evaluation due at this very instant has not fired yet (it runs after the event being
        // handled); keep it rather than moving it to the model's next look.
        if evaluation.time == now && !pending.isEmpty { return }
        var next: SimInstant?
        for entry in pending.entries {
            if let look = model.nextEvaluation(for: entry.request.kind, after: now, notBefore: entry.earliest) {
                next = Swift.min(next ?? look, look)
            }
        }
        if !pending.isEmpty, let throttledUntil, throttledUntil > now { next = Swift.min(next ?? throttledUntil, throttledUntil) }
        evaluation.set(.launchEvaluation, at: next, priority: .late, in: &simulation)
        checkInvariantsIfEnabled(pending: pending, now: now)
    }
}
