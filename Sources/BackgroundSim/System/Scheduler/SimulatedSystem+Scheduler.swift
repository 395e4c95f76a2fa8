import SimKernel

// The task scheduler as the app sees it (register, submit, cancel) and the system's side of it:
// evaluating pending requests and delivering tasks.
extension SimulatedSystem {
    // MARK: Registration and submission

    func register(identifier: String, handler: @escaping (BackgroundTask) -> Void) -> Bool {
        switch registrations.register(identifier, permitted: appParameters.permittedIdentifiers, handler: handler) {
        case .registered:
            return true
        case .notPermitted:
            return false
        case .crash(let reason):
            record(.crash(reason: reason, identifier: identifier))
            pendingCrash = true
            return false
        }
    }

    /// Records a crash of the app's code, which ends the process after the current callback.
    func crashAfterCallback(_ reason: CrashReason) {
        record(.crash(reason: reason, identifier: ""))
        pendingCrash = true
    }

    func submit(_ request: TaskRequest) throws(TaskSchedulerError) {
        if let code = submitRefusal(identifier: request.identifier, kind: BackgroundTask.Kind(request.kind))
            ?? (pending.wouldExceedLimit(request) ? .tooManyPendingTaskRequests : nil) {
            throw refuse(request.identifier, code)
        }
        // The earliest begin date is on the device clock; convert it at submission.
        let offset = snapshot.now.duration(to: snapshot.clockReading)
        let earliest = request.earliestBeginDate.map { $0 - offset } ?? snapshot.now
        let begin = Swift.max(snapshot.now, earliest)
        pending.submit(request, earliest: begin)
        record(.submit(identifier: request.identifier, kind: BackgroundTask.Kind(request.kind), earliestBeginIn: snapshot.now.duration(to: begin)))
    }

    /// Why `submit` refuses a request for a task of `kind` now, if it does, whatever its kind: a
    /// submit-error fault, Background App Refresh off (except for continued processing, the
    /// user's own action [Inf]), or an identifier or background mode the app does not declare.
    func submitRefusal(identifier: String, kind: BackgroundTask.Kind) -> TaskSchedulerError.Code? {
        if !faults.submitErrors.isEmpty {
            let hours = hoursSinceStart
            if let fault = faults.submitErrors.first(where: { $0.window.contains(hours: hours) }) { return fault.error.code }
        }
        guard backgroundAppRefreshAllowed || kind == .continuedProcessing else { return .unavailable }
        let permitted = appParameters.permittedIdentifiers
        let declared = kind == .continuedProcessing
            ? ContinuedProcessingTaskRequest.matches(identifier, wildcardIn: permitted) : permitted.contains(identifier)
        guard declared, appParameters.backgroundModes.contains(kind.backgroundMode) else { return .notPermitted }
        return nil
    }

    /// Logs a refused submission and returns the error `submit` throws.
    func refuse(_ identifier: String, _ code: TaskSchedulerError.Code) -> TaskSchedulerError {
        record(.submitError(identifier: identifier, error: code))
        return TaskSchedulerError(code: code)
    }

    func cancelRequest(identifier: String) {
        pending.remove(identifier: identifier)
        record(.cancel(identifier: identifier))
    }

    func cancelAllRequests() {
        pending.removeAll()
        record(.cancelAll)
    }

    // MARK: Launching

    /// Decides for every pending request through the admission (an app in the foreground is
    /// held back by its rule, ``WakeRule/Check/appInBackground``; one while the phone is off by
    /// ``WakeRule/Check/phoneOn``), launches those chosen, together, and logs each decision.
    func evaluateLaunches(in simulation: inout Simulation<WorldEvent>) {
        guard !pending.isEmpty else { return }
        var chosen: [PendingRequests.Entry] = []
        for entry in pending.entries {
            let decision = admit(.task(entry))
            recordDecision(entry, decision)
            if decision == .launched { chosen.append(entry) }
        }
        guard !chosen.isEmpty else { return }
        pending.remove(chosen)
        deliver(chosen, in: &simulation)
    }

    private func recordDecision(_ entry: PendingRequests.Entry, _ decision: LaunchDecision) {
        record(.launchDecision(identifier: entry.request.identifier, kind: entry.request.kind, decision: decision))
    }

    // MARK: The debugger's commands

    /// `_simulateLaunchForTaskWithIdentifier:`: delivers the pending request of `identifier` now,
    /// whatever the launch model says, as a task the system never expires — if the admission's
    /// rules for the debugger (``WakeSource/debuggerCommand``'s rows of ``WakeRule/table``) let it.
    func simulateLaunch(identifier: String, in simulation: inout Simulation<WorldEvent>) {
        guard processIsRunning else {
            record(.simulatedLaunch(identifier: identifier, outcome: .appNotRunning))
            return
        }
        guard let entry = pending.entries.first(where: { $0.request.identifier == identifier }) else {
            record(.simulatedLaunch(identifier: identifier, outcome: .noPendingRequest))
            return
        }
        guard admit(.door(.debuggerCommand)) == .launched else {
            record(.simulatedLaunch(identifier: identifier, outcome: .notAdmitted))
            return
        }
        record(.simulatedLaunch(identifier: identifier, outcome: .done))
        pending.remove([entry])
        deliver([entry], simulated: true, in: &simulation)
    }

    /// `_simulateExpirationForTaskWithIdentifier:`: expires the running task of `identifier` now.
    func simulateExpiration(identifier: String) {
        guard processIsRunning else {
            record(.simulatedExpiration(identifier: identifier, outcome: .appNotRunning))
            return
        }
        guard let serial = running.unexpiredSerial(identifier: identifier) else {
            record(.simulatedExpiration(identifier: identifier, outcome: .noRunningTask))
            return
        }
        record(.simulatedExpiration(identifier: identifier, outcome: .done))
        expire(serial: serial, cause: .timeUp)
    }

    /// Delivers tasks for `requests` through one wake. Tasks launched together share one time
    /// allotment (WWDC19 707 [A-DTS]); tasks a debugger command launched (`simulated`) have none
    /// (their `taskLaunch` says 0 s), the system never expires them, and they spend no budget [Inf].
    private func deliver(_ requests: [PendingRequests.Entry], simulated: Bool = false, in simulation: inout Simulation<WorldEvent>) {
        let source = simulated ? WakeSource.debuggerCommand : WakeSource(requests[0].request.kind)
        wake(for: source, in: &simulation) { simulation in
            let now = snapshot.now
            let allotmentEnd = simulated ? nil : requests.map { allotment(for: $0.request.kind) }.min()
            for entry in requests {
                let request = entry.request
                if !simulated { admission.didLaunch(request.kind, at: now) }
                guard startTask(identifier: request.identifier, kind: BackgroundTask.Kind(request.kind), expiringAt: allotmentEnd,
                                simulated: simulated, requiresExternalPower: request.requiresExternalPower,
                                requiresNetwork: request.requiresNetworkConnectivity, in: &simulation) else { return }
            }
        }
    }

    /// When a task of `kind` launched now must be finished: its allotment, cut short by an
    /// early-expiration fault.
    private func allotment(for kind: TaskRequest.Kind) -> SimInstant {
        let usual = usualAllotment(for: kind)
        guard !faults.earlyExpirations.isEmpty else { return usual }
        let hours = hoursSinceStart
        guard let fault = faults.earlyExpirations.first(where: { $0.window.contains(hours: hours) }) else { return usual }
        return Swift.min(usual, snapshot.now + .seconds(fault.afterSeconds))
    }

    private func usualAllotment(for kind: TaskRequest.Kind) -> SimInstant {
        let now = snapshot.now
        switch kind {
        case .appRefresh:
            // Production apps have seen refresh tasks expire 2–5 s after launch [O].
            let early = streams.expiry.chance(parameters.refreshEarlyExpiryProbability)
            let seconds = UniformDistribution(2, 5).sample(using: &streams.expiry)
            return now + .seconds(early ? Swift.min(seconds, parameters.refreshRuntimeSeconds) : parameters.refreshRuntimeSeconds)
        case .processing:
            // Often expired early, anywhere from seconds to minutes [C]: log-uniform up to the cap.
            let cap = parameters.processingMaxRuntimeMinutes * 60
            let early = streams.expiry.chance(parameters.processingEarlyExpiryProbability)
            let u = streams.expiry.unit()
            let low = PortableMath.log(Swift.min(parameters.processingEarlyExpiryMinimumSeconds, cap))
            let seconds = early ? PortableMath.exp(low + u * (PortableMath.log(cap) - low)) : cap
            return now + .seconds(seconds)
        }
    }
}
