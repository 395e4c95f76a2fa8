import SimKernel

// Background URL sessions: the app hands transfers to the system's daemon (those it creates in
// the background wait out the resume rate limiter's delay); when a session's transfers have all
// finished while the app could not hear, the system launches or resumes it (if its rules and
// budgets allow) and calls `handleEventsForBackgroundURLSession`; the app has a short window to
// call the completion handler.
extension SimulatedSystem {
    /// Logs new hand-offs and notes sessions whose events are ready: heard at once by a running
    /// app, otherwise waiting for a launch. Nothing to do (and no cost) for an app with no sessions.
    func reconcileSessionEvents(in simulation: inout Simulation<WorldEvent>) {
        guard !work.transfers.sessions.isEmpty else { return }
        recordHandOffs()
        let running = processState == .foreground || processState == .background
        for session in work.transfers.sessionsWithEvents {
            let configuration = work.transfers.sessions[session]
            if running {
                work.markHeard(session: session)
            } else if sessionEvents.eventsReady(session: session, at: simulation.now, in: &simulation) {
                record(.sessionEventsPending(session: configuration.identifier))
            }
        }
        if running && !sessionEvents.waiting.isEmpty { sessionEvents.deliveredToRunningApp(in: &simulation) }
    }

    /// The `sessionRelaunch` event: launches or resumes the app for the waiting sessions' events,
    /// if the admission lets them wake it (``WakeSource/sessionEvents``, or
    /// ``WakeSource/discretionarySessionEvents`` when every waiting session is discretionary);
    /// otherwise it tries again later — unless no waiting session sends launch events: those
    /// wait for the app to run. A launch calls `handleEventsForBackgroundURLSession` for the
    /// sessions that send launch events; the app, now running, hears the others without it.
    func relaunchForSessionEvents(in simulation: inout Simulation<WorldEvent>) {
        sessionEvents.relaunchFired()
        guard !sessionEvents.waiting.isEmpty, processState != .foreground, processState != .background else { return }
        let discretionary = sessionEvents.waiting.allSatisfy { work.transfers.sessions[$0].isDiscretionary }
        let source = discretionary ? WakeSource.discretionarySessionEvents : .sessionEvents
        let decision = admit(.door(source))
        if decision == .notLaunched(.sessionSendsNoLaunchEvents) {
            sessionEvents.waitForAppToRun()
            return
        }
        let sendsLaunchEvents = { (session: Int) in self.work.transfers.sessions[session].sessionSendsLaunchEvents }
        let everyWaiting = sessionEvents.waiting
        let waiting = everyWaiting.allSatisfy(sendsLaunchEvents) ? everyWaiting : everyWaiting.filter(sendsLaunchEvents)
        wakeOrRetry(\.sessionEvents, for: source, decision: decision, in: &simulation) { denial in
            for session in waiting {
                record(.sessionRelaunchDeferred(session: work.transfers.sessions[session].identifier, reason: denial))
            }
            // Held by the rate limiter: asked again the moment it lets the launch through.
            if denial == .rateLimit { return sessionEvents.launchOpensAt(snapshot.now) }
            return snapshot.now + admission.retryInterval
        } deliver: { simulation in
            // The app, running, hears the sessions that send no launch events as it recreates them.
            for session in everyWaiting where !sendsLaunchEvents(session) { work.markHeard(session: session) }
            let identifiers = waiting.map { work.transfers.sessions[$0].identifier }
            sessionEvents.launched(at: snapshot.now, generation: processGeneration, identifiers: identifiers, in: &simulation)
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
        }
    }

    /// The app called the completion handler it was given for `session`'s events.
    func sessionCompletionHandlerCalled(session: String, generation: UInt32) {
        guard sessionEvents.handlerCalled(session: session, generation: generation) else { return }
        record(.sessionCompletionHandlerCalled(session: session))
    }

    /// The handlers the app was given for sessions' events and did not call in time: a bug,
    /// logged (Apple documents no kill for it; the app is simply suspended [Inf]).
    func logSessionHandlersNotCalled() {
        for session in sessionEvents.takeOutstanding() {
            record(.sessionCompletionHandlerNotCalled(session: session))
        }
    }

    /// A force-quit cancels every session's transfers [A]: they return to the app's queue; events
    /// not yet delivered are dropped.
    func cancelSessionTransfers(in simulation: inout Simulation<WorldEvent>) {
        guard !work.transfers.sessions.isEmpty else { return }
        // Hand-offs since the last reconcile are logged as created before they are cancelled.
        recordHandOffs()
        for (session, count) in work.cancelTransfers(at: snapshot.now) {
            record(.sessionTransfersCancelled(session: session, count: UInt32(count)))
        }
        for session in work.transfers.sessions.indices { work.markHeard(session: session) }
        sessionEvents.removeWaiting(in: &simulation)
    }

    /// Logs the transfers handed off since the last call as created.
    private func recordHandOffs() {
        let handedOff = work.takeHandedOff()
        guard handedOff.count > 0, let session = handedOff.session else { return }
        let configuration = work.transfers.sessions[Int(session)]
        record(.sessionTransfersCreated(session: configuration.identifier, count: UInt32(handedOff.count),
                                        discretionary: configuration.isDiscretionary || processState != .foreground,
                                        startsIn: handedOff.startsIn))
    }
}
