import SimKernel

extension SimulatedSystem {
    /// The most pending requests of each kind (`BGTaskScheduler.submit` docs [A]).
    static func pendingLimit(_ kind: TaskRequest.Kind) -> Int { kind == .appRefresh ? 1 : 10 }

    // MARK: Registration and submission

    func register(identifier: String, handler: @escaping (BackgroundTask) -> Void) -> Bool {
        guard isFinishingLaunch else {
            // "All launch handlers must be registered before application finishes launching."
            metrics.registrationCrashes += 1
            record(.crash(reason: .registrationAfterLaunch, identifier: identifier))
            pendingCrash = true
            return false
        }
        guard appParameters.permittedIdentifiers.contains(identifier) else { return false }
        guard !registrations.contains(where: { $0.identifier == identifier }) else {
            metrics.registrationCrashes += 1
            record(.crash(reason: .duplicateRegistration, identifier: identifier))
            pendingCrash = true
            return false
        }
        registrations.append((identifier, handler))
        return true
    }

    func submit(_ request: TaskRequest) throws(TaskSchedulerError) {
        metrics.submits += 1
        do {
            try checkSubmission(request)
        } catch {
            metrics.submitErrors[error.code.rawValue] += 1
            record(.submitError(identifier: request.identifier, error: error.code))
            throw error
        }
        pending.removeAll { $0.request.identifier == request.identifier }
        // The earliest begin date is on the device clock; convert it at submission.
        let offset = snapshot.now.duration(to: snapshot.clockReading)
        let earliest = request.earliestBeginDate.map { $0 - offset } ?? snapshot.now
        let begin = Swift.max(snapshot.now, earliest)
        pending.append(PendingRequest(request: request, earliest: begin))
        record(.submit(identifier: request.identifier, kind: request.kind, earliestBeginIn: snapshot.now.duration(to: begin)))
    }

    private func checkSubmission(_ request: TaskRequest) throws(TaskSchedulerError) {
        if !faults.submitErrors.isEmpty {
            let hours = hoursSinceStart
            if let fault = faults.submitErrors.first(where: { $0.window.contains(hours: hours) }) {
                throw TaskSchedulerError(code: fault.error.code)
            }
        }
        guard backgroundAppRefreshAllowed else { throw TaskSchedulerError(code: .unavailable) }
        guard appParameters.permittedIdentifiers.contains(request.identifier), appParameters.backgroundModes.contains(request.kind.backgroundMode) else {
            throw TaskSchedulerError(code: .notPermitted)
        }
        let others = pending.count { $0.request.kind == request.kind && $0.request.identifier != request.identifier }
        guard others < Self.pendingLimit(request.kind) else { throw TaskSchedulerError(code: .tooManyPendingTaskRequests) }
    }

    func cancelRequest(identifier: String) {
        pending.removeAll { $0.request.identifier == identifier }
        record(.cancel(identifier: identifier))
    }

    func cancelAllRequests() {
        pending.removeAll()
        record(.cancelAll)
    }

    // MARK: Launching

    /// Which documented rule forbids launching `pending` now, before the model's discretion;
    /// `nil` if none does.
    private func ruleDenial(_ pending: PendingRequest) -> LaunchDenial? {
        let request = pending.request
        if pending.earliest > snapshot.now { return .notDue }
        if !backgroundAppRefreshAllowed { return .backgroundAppRefreshOff }
        if forceQuitFlag { return .forceQuit }
        switch request.kind {
        case .appRefresh:
            // Low Power Mode pauses Background App Refresh [A].
            return snapshot.isLowPowerMode ? .lowPowerMode : nil
        case .processing:
            // Processing runs only while the device is idle [A]; in Low Power Mode only on the
            // charger [Inf].
            if snapshot.isScreenOn { return .deviceInUse }
            if request.requiresExternalPower && !snapshot.isCharging { return .requiresExternalPower }
            if request.requiresNetworkConnectivity && !snapshot.network.isSatisfied { return .requiresNetworkConnectivity }
            return snapshot.isLowPowerMode && !snapshot.isCharging ? .lowPowerMode : nil
        }
    }

    /// Asks the launch model about every pending request the rules allow, launches those it
    /// picks, together, and logs the decision for every pending request. A phone that is off
    /// evaluates nothing.
    func evaluateLaunches(in simulation: inout Simulation<WorldEvent>) {
        guard !pending.isEmpty, snapshot.isPoweredOn else { return }
        guard processState != .foreground else {
            for candidate in pending { recordDecision(candidate, .notLaunched(.appInForeground)) }
            return
        }
        var chosen: [PendingRequest] = []
        for candidate in pending {
            if let denial = ruleDenial(candidate) {
                recordDecision(candidate, .notLaunched(denial))
                continue
            }
            let conditions = LaunchConditions(
                now: snapshot.now, hour: snapshot.hour, isCharging: snapshot.isCharging,
                screenOffFor: snapshot.isScreenOn ? .zero : snapshot.screenOffSince.duration(to: snapshot.now),
                batteryPercent: snapshot.batteryPercent, thermalState: snapshot.thermalState, lastAppUse: lastAppUse,
                lastLaunchOfKind: candidate.request.kind == .appRefresh ? lastRefreshLaunch : lastProcessingLaunch)
            var decision = launchModel.decide(candidate.request, conditions: conditions, random: &launchRandom)
            if decision == .launched, let throttledUntil, snapshot.now < throttledUntil {
                metrics.throttledLaunches += 1
                decision = .notLaunched(.throttled)
            }
            recordDecision(candidate, decision)
            if decision == .launched { chosen.append(candidate) }
        }
        guard !chosen.isEmpty else { return }
        pending.removeAll { request in chosen.contains { $0.request.identifier == request.request.identifier } }
        launch(chosen, in: &simulation)
    }

    private func recordDecision(_ pending: PendingRequest, _ decision: LaunchDecision) {
        record(.launchDecision(identifier: pending.request.identifier, kind: pending.request.kind, decision: decision))
    }

    /// Delivers tasks for `requests`, launching or resuming the process first. Tasks launched
    /// together share one time allotment (WWDC19 707 [A-DTS]).
    private func launch(_ requests: [PendingRequest], in simulation: inout Simulation<WorldEvent>) {
        let now = snapshot.now
        switch processState {
        case .notRunning:
            processState = .background
            backgroundSince = now
            metrics.backgroundProcessLaunches += 1
            chargeLaunchOverhead(in: &simulation)
            launchProcess(reason: .backgroundTask)
            afterCallback(in: &simulation)
            guard processIsRunning else { return }
        case .suspended:
            cancel(&jetsamEvent, in: &simulation)
            processState = .background
            backgroundSince = now
            record(.resume)
            chargeLaunchOverhead(in: &simulation)
        case .background, .foreground:
            break
        }
        let allotmentEnd = requests.map { allotment(for: $0.request.kind) }.min() ?? now
        for pending in requests {
            let request = pending.request
            let serial = nextTaskSerial
            nextTaskSerial &+= 1
            let task = BackgroundTask(identifier: request.identifier, kind: request.kind, serial: serial, system: self)
            countLaunch(request.kind)
            launchModel.didLaunch(request.kind, at: now)
            record(.taskLaunch(identifier: request.identifier, serial: serial, allotment: now.duration(to: allotmentEnd)))
            guard let handler = registrations.first(where: { $0.identifier == request.identifier })?.handler else {
                // Launching a task with no handler registered in this process crashes the app [A].
                metrics.unregisteredLaunchCrashes += 1
                record(.crash(reason: .noLaunchHandler, identifier: request.identifier))
                terminate(.crash, in: &simulation)
                return
            }
            let runningTask = RunningTask(task: task, request: request)
            runningTask.expirationEvent = simulation.schedule(.taskExpiration(serial: serial), at: allotmentEnd)
            running.append(runningTask)
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
            // Production apps have seen refresh tasks expire 2–5 s after launch [Obs].
            let early = expiryRandom.chance(parameters.refreshEarlyExpiryProbability)
            let seconds = UniformDistribution(2, 5).sample(using: &expiryRandom)
            return now + .seconds(early ? Swift.min(seconds, parameters.refreshRuntimeSeconds) : parameters.refreshRuntimeSeconds)
        case .processing:
            return now + .minutes(parameters.processingMaxRuntimeMinutes)
        }
    }

    private func countLaunch(_ kind: TaskRequest.Kind) {
        switch kind {
        case .appRefresh:
            metrics.refreshLaunches += 1
            lastRefreshLaunch = snapshot.now
        case .processing:
            metrics.processingLaunches += 1
            lastProcessingLaunch = snapshot.now
        }
        metrics.launchHourHistogram[snapshot.hour] += 1
        if snapshot.isCharging { metrics.launchesWhileCharging += 1 }
    }

    /// Schedules the next `launchEvaluation`: the first moment, over all pending requests, at
    /// which the model might launch one (never before its earliest begin date), or the end of
    /// throttling, whichever is first.
    func scheduleNextEvaluation(in simulation: inout Simulation<WorldEvent>) {
        let now = simulation.now
        // An evaluation due at this very instant has not fired yet (it runs after the event being
        // handled); keep it rather than moving it to the model's next look.
        if evaluationTime == now && !pending.isEmpty { return }
        var next: SimInstant?
        for request in pending {
            if let look = launchModel.nextEvaluation(for: request.request.kind, after: now, notBefore: request.earliest) {
                next = Swift.min(next ?? look, look)
            }
        }
        if !pending.isEmpty, let throttledUntil, throttledUntil > now { next = Swift.min(next ?? throttledUntil, throttledUntil) }
        guard next != evaluationTime else { return }
        cancel(&evaluationEvent, in: &simulation)
        evaluationTime = next
        if let next { evaluationEvent = simulation.schedule(.launchEvaluation, at: next, priority: .late) }
    }

    // MARK: Expiration and completion

    func expireRunning(where predicate: (RunningTask) -> Bool, cause: ExpirationCause) {
        for task in running where predicate(task) && !task.expired && task.task.completion == nil {
            expire(task, cause: cause)
        }
    }

    /// Calls the task's expiration handler; if it is still not completed, it has the grace period.
    func expire(_ running: RunningTask, cause: ExpirationCause) {
        guard !running.expired, running.task.completion == nil else { return }
        running.expired = true
        metrics.expirations += 1
        switch cause {
        case .timeUp: break
        case .userActivity: metrics.expirationsForUserActivity += 1
        case .powerLoss: metrics.expirationsForPowerLoss += 1
        case .networkLoss: metrics.expirationsForNetworkLoss += 1
        }
        record(.taskExpire(identifier: running.task.identifier, serial: running.task.serial, cause: cause))
        if let handler = running.task.expirationHandler {
            handler()
        } else {
            // With no handler, the task is marked complete and unsuccessful [A].
            running.task.setTaskCompleted(success: false)
        }
    }

    func taskDidComplete(_ task: BackgroundTask, success: Bool) {
        guard task.completionCalls == 1 else {
            metrics.duplicateCompletions += 1
            record(.duplicateCompletion(identifier: task.identifier, serial: task.serial))
            return
        }
        if success { metrics.tasksCompletedSuccessfully += 1 } else { metrics.tasksCompletedUnsuccessfully += 1 }
        record(.taskCompleted(identifier: task.identifier, serial: task.serial, success: success))
    }
}
