import SimKernel

// The one way the system runs the app in the background: a door asks the admission
// (``WakeAdmission``) whether its request may wake the app, then `wake(for:in:deliver:)` launches
// or resumes the app, lets the door call into it, and runs the epilogue. Tasks of every kind are
// handed over in one place (`startTask`), and a missed completion deadline is acted on in one
// place (`windowMissed`).
extension SimulatedSystem {
    /// The app's state as the admission sees it for a wake from `source`.
    ///
    /// What only one door's rules read is read for that door alone.
    func admissionAppState(for source: WakeSource) -> WakeAdmission.AppState {
        var state = WakeAdmission.AppState(inForeground: processState == .foreground,
                                           backgroundAppRefreshAllowed: backgroundAppRefreshAllowed, forceQuit: forceQuitFlag,
                                           lastAppUse: lastAppUse, dataBudgetBytes: work.dataBudgetBytes)
        switch source {
        case .silentPush:
            state.pushThrottleOpensAt = push.throttleOpensAt(snapshot.now)
            state.handlingPush = push.window != nil
        case .continuedProcessingTask:
            state.continuedProcessingSlotFree = running.count(of: .continuedProcessing) < parameters.continuedProcessing.maximumConcurrentTasks
        case .sessionEvents, .discretionarySessionEvents:
            state.sessionSendsLaunchEvents = sessionEvents.waiting.contains { work.transfers.sessions[$0].sessionSendsLaunchEvents }
            state.sessionLaunchOpensAt = sessionEvents.launchOpensAt(snapshot.now)
        default:
            break
        }
        return state
    }

    /// Whether `request` may wake the app now (``WakeAdmission/decide(_:device:app:random:)``),
    /// drawing from the day's launch stream. Logs nothing: the door says what came of it.
    func admit(_ request: WakeAdmission.Request) -> LaunchDecision {
        admission.decide(request, device: snapshot, app: admissionAppState(for: request.source), random: &streams.launch)
    }

    /// Runs the app in the background for a wake from `source` that the admission let through:
    /// launches it if it is not running and resumes it if it is suspended — each a background
    /// wake, charged the launch overhead — or leaves it as it is if it runs; then `deliver` makes
    /// the door's calls into the app; then the epilogue runs once: the timers that came due
    /// while it could not run fire, and a crash they caused ends it.
    ///
    /// Nothing runs while the phone is off: a wake then does nothing at all (the admission's
    /// ``WakeRule/Check/phoneOn`` rule keeps doors from asking).
    ///
    /// - Parameter deliver: The door's calls into the app; it runs only if the app runs after
    ///   the launch (a launch may crash it).
    func wake(for source: WakeSource, in simulation: inout Simulation<WorldEvent>, deliver: (inout Simulation<WorldEvent>) -> Void) {
        guard snapshot.isPoweredOn else { return }
        let now = snapshot.now
        switch processState {
        case .notRunning:
            processState = .background
            assertions.enterBackground(at: now)
            energy.chargeLaunchOverhead(in: &simulation)
            launchProcess(reason: source.launchReason)
            afterCallback(in: &simulation)
        case .suspended:
            jetsam.cancel(in: &simulation)
            processState = .background
            assertions.enterBackground(at: now)
            record(.resume(reason: source.launchReason))
            energy.chargeLaunchOverhead(in: &simulation)
        case .background, .foreground:
            break
        }
        guard processIsRunning else { return }
        deliver(&simulation)
        afterWake(in: &simulation)
    }

    /// Wakes the app for what `door` holds if the admission's `decision` on `source` let it,
    /// delivering it with `deliver`; otherwise the door asks again at the time
    /// `retryAfterDenial` gives (which also logs the denial). If it still waits after the wake —
    /// the app crashed as it launched — the door asks again after the admission's retry
    /// interval. The one retry policy of the doors that wait (``WaitingDoor``).
    func wakeOrRetry<Door: WaitingDoor>(_ door: ReferenceWritableKeyPath<SimulatedSystem, Door>, for source: WakeSource,
                                        decision: LaunchDecision, in simulation: inout Simulation<WorldEvent>,
                                        retryAfterDenial: (LaunchDenial) -> SimInstant,
                                        deliver: (inout Simulation<WorldEvent>) -> Void) {
        if case .notLaunched(let denial) = decision {
            self[keyPath: door].retry(at: retryAfterDenial(denial), in: &simulation)
            return
        }
        wake(for: source, in: &simulation, deliver: deliver)
        if self[keyPath: door].isWaiting { self[keyPath: door].retry(at: snapshot.now + admission.retryInterval, in: &simulation) }
    }

    /// The epilogue of every call into a running app from a door: the timers that came due
    /// while it was suspended fire, and a crash they caused ends it.
    func afterWake(in simulation: inout Simulation<WorldEvent>) {
        guard processIsRunning else { return }
        fireOverdueTimers()
        afterCallback(in: &simulation)
    }

    /// Hands a task to the running app: the one place any task — refresh, processing, continued
    /// processing, a debugger's launch — is delivered.
    ///
    /// Logs the launch; if no handler for the identifier is registered in this process, the app
    /// crashes [A]. Otherwise the task joins the running tasks, expiring at `expiry` (`nil`: no
    /// allotment), `prepare` does the kind's own bookkeeping with the task's serial, and the
    /// launch handler runs.
    ///
    /// - Returns: Whether the app still runs.
    @discardableResult
    func startTask(identifier: String, kind: BackgroundTask.Kind, expiringAt expiry: SimInstant?, simulated: Bool = false,
                   requiresExternalPower: Bool = false, requiresNetwork: Bool = false, in simulation: inout Simulation<WorldEvent>,
                   prepare: (UInt32, inout Simulation<WorldEvent>) -> Void = { _, _ in }) -> Bool {
        let now = snapshot.now
        let serial = running.takeSerial()
        let task = BackgroundTask(identifier: identifier, kind: kind, serial: serial, system: self)
        record(.taskLaunch(identifier: identifier, kind: kind, serial: serial, allotment: expiry.map { now.duration(to: $0) } ?? .zero))
        guard let handler = registrations.handler(for: identifier, kind: kind) else {
            // Launching a task with no handler registered in this process crashes the app [A].
            record(.crash(reason: .noLaunchHandler, identifier: identifier))
            terminate(.crash, in: &simulation)
            return false
        }
        running.add(task, generation: processGeneration, requiresExternalPower: requiresExternalPower, requiresNetwork: requiresNetwork,
                    expiringAt: expiry, simulated: simulated, in: &simulation)
        prepare(serial, &simulation)
        handler(task)
        afterCallback(in: &simulation)
        return processIsRunning
    }

    /// A completion window's deadline passed before the app made the call it owed: the one
    /// place the cost of a miss is paid (``CompletionWindow/Miss``).
    func windowMissed(_ window: CompletionWindow, in simulation: inout Simulation<WorldEvent>) {
        switch window.miss {
        case .expireTask(let serial):
            expire(serial: serial, cause: .timeUp)
        case .killForTask(let identifier, let serial):
            guard window.generation == processGeneration, let task = running.task(serial: serial), task.completion == nil else { return }
            record(.kill(.taskNotCompleted(identifier: identifier, serial: serial)))
            admission.throttle(until: snapshot.now + .hours(parameters.throttlePenaltyHours))
            terminate(.taskTimeout, in: &simulation)
        case .killForPush:
            guard window.generation == processGeneration, processIsRunning, processState != .foreground else { return }
            record(.kill(.pushNotCompleted))
            terminate(.taskTimeout, in: &simulation)
        case .logSessionHandlers:
            logSessionHandlersNotCalled()
        }
    }
}
