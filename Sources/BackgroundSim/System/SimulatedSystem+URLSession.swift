import SimKernel

// Background URL sessions: the app hands transfers to the system's daemon; when a session's
// transfers have all finished while the app could not hear, the system launches or resumes it
// (after the resume rate limiter's delay, if its rules and budgets allow) and calls
// `handleEventsForBackgroundURLSession`; the app has a short window to call the completion handler.
extension SimulatedSystem {
    /// Logs new hand-offs and notes sessions whose events are ready: heard at once by a running
    /// app, otherwise waiting for a launch. Nothing to do (and no cost) for an app with no sessions.
    func reconcileSessionEvents(in simulation: inout Simulation<WorldEvent>) {
        guard !work.transfers.sessions.isEmpty else { return }
        let handedOff = work.takeHandedOff()
        if handedOff > 0, let session = work.handOffSession {
            let configuration = work.transfers.sessions[Int(session)]
            metrics.sessionTransfersCreated += handedOff
            record(.sessionTransfersCreated(session: configuration.identifier, count: UInt32(handedOff),
                                            discretionary: configuration.isDiscretionary || processState != .foreground))
        }
        let running = processState == .foreground || processState == .background
        for session in work.transfers.sessionsWithEvents {
            let configuration = work.transfers.sessions[session]
            if running {
                work.markHeard(session: session)
            } else if configuration.sessionSendsLaunchEvents,
                      let delay = sessionEvents.eventsReady(session: session, at: simulation.now, in: &simulation) {
                record(.sessionEventsPending(session: configuration.identifier, relaunchIn: delay))
            }
        }
        if running && !sessionEvents.waiting.isEmpty { sessionEvents.deliveredToRunningApp(in: &simulation) }
    }

    /// The `sessionRelaunch` event: launches or resumes the app for the waiting sessions' events,
    /// unless a rule or the budgets hold it back (then it tries again at the next evaluation).
    func relaunchForSessionEvents(in simulation: inout Simulation<WorldEvent>) {
        sessionEvents.relaunchFired()
        let waiting = sessionEvents.waiting
        guard !waiting.isEmpty, processState != .foreground, processState != .background else { return }
        let now = snapshot.now
        let discretionary = waiting.allSatisfy { work.transfers.sessions[$0].isDiscretionary }
        if let denial = sessionRelaunchDenial(discretionary: discretionary) {
            for session in waiting {
                record(.sessionRelaunchDeferred(session: work.transfers.sessions[session].identifier, reason: denial))
            }
            metrics.sessionRelaunchesDeferred += 1
            sessionEvents.retry(at: now + .minutes(parameters.heuristic.evaluationMinutes), in: &simulation)
            return
        }
        guard wakeInBackground(for: .backgroundURLSession, in: &simulation) else { return }
        metrics.sessionRelaunches += 1
        let identifiers = waiting.map { work.transfers.sessions[$0].identifier }
        sessionEvents.launched(at: now, generation: processGeneration, identifiers: identifiers, in: &simulation)
        for (session, identifier) in zip(waiting, identifiers) {
            work.markHeard(session: session)
            record(.handleSessionEvents(session: identifier))
            let generation = processGeneration
            if let policy, let context {
                policy.handleEventsForBackgroundURLSession(context, identifier: identifier) { [weak self] in
                    self?.sessionCompletionHandlerCalled(session: identifier, generation: generation)
                }
            }
            afterCallback(in: &simulation)
            guard processIsRunning else { return }
        }
        fireOverdueTimers()
        afterCallback(in: &simulation)
    }

    /// Why the system does not launch the app for session events now, if it does not: a
    /// non-discretionary session meets every factor but app usage and rate limiting, a
    /// discretionary one only the app switcher and the budgets (WWDC 2020 10063 [A-via]).
    private func sessionRelaunchDenial(discretionary: Bool) -> LaunchDenial? {
        if forceQuitFlag { return .forceQuit }
        if !discretionary {
            if !backgroundAppRefreshAllowed { return .backgroundAppRefreshOff }
            if snapshot.isLowPowerMode { return .lowPowerMode }
            if snapshot.batteryPercent < parameters.heuristic.criticalBatteryPercent && !snapshot.isCharging { return .batteryFloor }
        }
        let budget = launch.budgetFactor(device: snapshot, dataBudgetBytes: work.dataBudgetBytes)
        return budget.value >= 1 || streams.launch.chance(budget.value) ? nil : budget.limitedBy
    }

    /// The app called the completion handler it was given for `session`'s events.
    func sessionCompletionHandlerCalled(session: String, generation: UInt32) {
        guard sessionEvents.handlerCalled(session: session, generation: generation) else { return }
        record(.sessionCompletionHandlerCalled(session: session))
    }

    /// The `sessionEventsEnd` event: the app's time for the events is over; a handler not called
    /// is a bug, logged and counted (Apple documents no kill for it; the app is simply
    /// suspended [Inf]).
    func sessionEventsWindowEnded() {
        for session in sessionEvents.windowEnded() {
            metrics.sessionCompletionHandlersNotCalled += 1
            record(.sessionCompletionHandlerNotCalled(session: session))
        }
    }

    /// A force-quit cancels every session's transfers [A]: they return to the app's queue; events
    /// not yet delivered are dropped.
    func cancelSessionTransfers(in simulation: inout Simulation<WorldEvent>) {
        guard !work.transfers.sessions.isEmpty else { return }
        for (session, count) in work.cancelTransfers(at: snapshot.now) {
            metrics.sessionTransfersCancelled += count
            record(.sessionTransfersCancelled(session: session, count: UInt32(count)))
        }
        for session in work.transfers.sessions.indices { work.markHeard(session: session) }
        sessionEvents.removeWaiting(in: &simulation)
    }
}
