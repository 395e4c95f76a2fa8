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
            metrics.registrationCrashes += 1
            record(.crash(reason: reason, identifier: identifier))
            pendingCrash = true
            return false
        }
    }

    func submit(_ request: TaskRequest) throws(TaskSchedulerError) {
        metrics.submits += 1
        if let code = submitRefusal(request) {
            metrics.submitErrors[code.rawValue] += 1
            record(.submitError(identifier: request.identifier, error: code))
            throw TaskSchedulerError(code: code)
        }
        if request.kind == .continuedProcessing { return try submitContinuedProcessing(request) }
        // The earliest begin date is on the device clock; convert it at submission.
        let offset = snapshot.now.duration(to: snapshot.clockReading)
        let earliest = request.earliestBeginDate.map { $0 - offset } ?? snapshot.now
        let begin = Swift.max(snapshot.now, earliest)
        pending.submit(request, earliest: begin)
        record(.submit(identifier: request.identifier, kind: request.kind, earliestBeginIn: snapshot.now.duration(to: begin)))
    }

    /// Why `submit` refuses `request` now, if it does: a submit-error fault, Background App
    /// Refresh off, an identifier or background mode the app does not declare, or the limit.
    private func submitRefusal(_ request: TaskRequest) -> TaskSchedulerError.Code? {
        if !faults.submitErrors.isEmpty {
            let hours = hoursSinceStart
            if let fault = faults.submitErrors.first(where: { $0.window.contains(hours: hours) }) { return fault.error.code }
        }
        // Continued processing is the user's own action, not Background App Refresh [Inf].
        guard backgroundAppRefreshAllowed || request.kind == .continuedProcessing else { return .unavailable }
        guard TaskRequest.isPermitted(request.identifier, kind: request.kind, in: appParameters.permittedIdentifiers),
              appParameters.backgroundModes.contains(request.kind.backgroundMode) else { return .notPermitted }
        return request.kind != .continuedProcessing && pending.wouldExceedLimit(request) ? .tooManyPendingTaskRequests : nil
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

    /// Decides for every pending request, launches those chosen, together, and logs each
    /// decision. A phone that is off evaluates nothing.
    func evaluateLaunches(in simulation: inout Simulation<WorldEvent>) {
        guard !pending.isEmpty, snapshot.isPoweredOn else { return }
        guard processState != .foreground else {
            for entry in pending.entries { recordDecision(entry, .notLaunched(.appInForeground)) }
            return
        }
        let app = LaunchEvaluator.AppState(backgroundAppRefreshAllowed: backgroundAppRefreshAllowed,
                                           forceQuit: forceQuitFlag, lastAppUse: lastAppUse, dataBudgetBytes: work.dataBudgetBytes)
        var chosen: [PendingRequests.Entry] = []
        for entry in pending.entries {
            let decision = launch.decide(entry, device: snapshot, app: app, random: &streams.launch)
            if decision == .notLaunched(.throttled) { metrics.throttledLaunches += 1 }
            recordDecision(entry, decision)
            if decision == .launched { chosen.append(entry) }
        }
        guard !chosen.isEmpty else { return }
        pending.remove(chosen)
        deliver(chosen, in: &simulation)
    }

    private func recordDecision(_ entry: PendingRequests.Entry, _ decision: LaunchDecision) {
        metrics.launchDecisions.record(decision, kind: entry.request.kind)
        record(.launchDecision(identifier: entry.request.identifier, kind: entry.request.kind, decision: decision))
    }

    // MARK: The debugger's commands

    /// `_simulateLaunchForTaskWithIdentifier:`: delivers the pending request of `identifier` now,
    /// whatever the launch model says, as a task the system never expires.
    func simulateLaunch(identifier: String, in simulation: inout Simulation<WorldEvent>) {
        guard processIsRunning else {
            record(.simulatedLaunch(identifier: identifier, outcome: .appNotRunning))
            return
        }
        guard let entry = pending.entries.first(where: { $0.request.identifier == identifier }) else {
            record(.simulatedLaunch(identifier: identifier, outcome: .noPendingRequest))
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

    /// Delivers tasks for `requests`, launching or resuming the process first. Tasks launched
    /// together share one time allotment (WWDC19 707 [A-DTS]); tasks a debugger command launched
    /// (`simulated`) have none (their `taskLaunch` says 0 s) and the system never expires them.
    private func deliver(_ requests: [PendingRequests.Entry], simulated: Bool = false, in simulation: inout Simulation<WorldEvent>) {
        let now = snapshot.now
        guard wakeInBackground(for: .backgroundTask, in: &simulation) else { return }
        let allotmentEnd = simulated ? now : requests.map { allotment(for: $0.request.kind) }.min() ?? now
        for entry in requests {
            let request = entry.request
            let serial = running.takeSerial()
            let task = BackgroundTask(identifier: request.identifier, kind: request.kind, serial: serial, system: self)
            countLaunch(request.kind)
            if !simulated { launch.didLaunch(request.kind, at: now) }   // the debugger's launches spend no budget [Inf]
            record(.taskLaunch(identifier: request.identifier, serial: serial, allotment: now.duration(to: allotmentEnd)))
            guard let handler = registrations.handler(for: request.identifier, kind: request.kind) else {
                // Launching a task with no handler registered in this process crashes the app [A].
                metrics.unregisteredLaunchCrashes += 1
                record(.crash(reason: .noLaunchHandler, identifier: request.identifier))
                terminate(.crash, in: &simulation)
                return
            }
            running.add(task, for: request, expiringAt: simulated ? nil : allotmentEnd, simulated: simulated, in: &simulation)
            handler(task)
            afterCallback(in: &simulation)
            guard processIsRunning else { return }
        }
        fireOverdueTimers()
        afterCallback(in: &simulation)
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
        case .continuedProcessing:
            return .distantFuture   // never pending: started from the queue, with no allotment
        }
    }

    /// Counts a launch the system chose (continued-processing tasks start on the user's action,
    /// are never delivered here, and are counted where they start).
    private func countLaunch(_ kind: TaskRequest.Kind) {
        switch kind {
        case .appRefresh: metrics.refreshLaunches += 1
        case .processing: metrics.processingLaunches += 1
        case .continuedProcessing: break
        }
        metrics.launchHourHistogram[snapshot.hour] += 1
        if snapshot.isCharging { metrics.launchesWhileCharging += 1 }
    }
}
