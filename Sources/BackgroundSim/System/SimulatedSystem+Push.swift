import SimKernel

// Silent pushes: the server's sends arrive; the system holds the newest and delivers it when
// its rules, the spacing and the budgets allow, launching or resuming the app, which has 30 s to
// call the completion handler.
extension SimulatedSystem {
    /// The `pushSend` event: the server sends a push (and the next send is scheduled).
    func pushSent(in simulation: inout Simulation<WorldEvent>) {
        let now = snapshot.now
        let coalesced = push.arrive(at: now)
        if let next = push.nextSend(after: now) { simulation.schedule(.system(.pushSend), at: next) }
        metrics.pushesSent += 1
        // A force-quit app gets no pushes until the user opens it [A].
        if forceQuitFlag {
            metrics.pushesDiscarded += 1
            record(.pushDiscarded(reason: .forceQuit))
            _ = push.discard(in: &simulation)
            return
        }
        if coalesced {
            // Only the newest push is kept [A].
            metrics.pushesCoalesced += 1
            record(.pushCoalesced)
        }
        record(.pushReceived)
        deliverHeldPush(in: &simulation)
    }

    /// Delivers the held push if the rules, the spacing and the budgets allow; otherwise tries
    /// again when they might.
    func deliverHeldPush(in simulation: inout Simulation<WorldEvent>) {
        guard push.held != nil else { return }
        let now = snapshot.now
        let retry = now + .minutes(parameters.heuristic.evaluationMinutes)
        if processState == .foreground {
            deliverPush(inBackground: false, in: &simulation)
            return
        }
        guard snapshot.isPoweredOn, !push.holdsApp else {
            push.retry(at: push.window.time ?? retry, in: &simulation)
            return
        }
        if let denial = pushDenial() {
            metrics.pushesDeferred += 1
            record(.pushDeferred(reason: denial))
            let spacing = push.lastDelivery.map { $0 + .minutes(parameters.push.minimumSpacingMinutes) }
            push.retry(at: denial == .rateLimit ? (spacing ?? retry) : retry, in: &simulation)
            return
        }
        deliverPush(inBackground: true, in: &simulation)
    }

    /// Why the held push is not delivered now: every launch factor but app usage
    /// (WWDC 2020 10063 [A-via]).
    private func pushDenial() -> LaunchDenial? {
        if let denial = PushDelivery.ruleDenial(device: snapshot, forceQuit: forceQuitFlag,
                                                backgroundAppRefreshAllowed: backgroundAppRefreshAllowed,
                                                lastDelivery: push.lastDelivery, parameters: parameters) { return denial }
        let budget = launch.budgetFactor(device: snapshot, dataBudgetBytes: work.dataBudgetBytes)
        return budget.value >= 1 || streams.launch.chance(budget.value) ? nil : budget.limitedBy
    }

    /// Delivers the held push: to the app in the foreground, or launching or resuming it in the
    /// background with ``PushParameters/runSeconds`` to call the handler.
    private func deliverPush(inBackground: Bool, in simulation: inout Simulation<WorldEvent>) {
        let now = snapshot.now
        if inBackground, !wakeInBackground(for: .remoteNotification, in: &simulation) { return }
        metrics.pushesDelivered += 1
        let generation = processGeneration
        push.delivered(at: now, generation: generation, inBackground: inBackground, runSeconds: parameters.push.runSeconds, in: &simulation)
        record(.pushDelivered(inBackground: inBackground))
        if let policy, let context {
            policy.didReceiveRemoteNotification(context) { [weak self] _ in
                self?.pushCompletionHandlerCalled(generation: generation)
            }
        }
        afterCallback(in: &simulation)
        guard processIsRunning else { return }
        fireOverdueTimers()
        afterCallback(in: &simulation)
    }

    /// The app called the completion handler of the push it was given.
    func pushCompletionHandlerCalled(generation: UInt32) {
        guard push.handlerCalled(generation: generation) else { return }
        record(.pushCompletionHandlerCalled)
    }

    /// The `pushRunEnd` event: the app's 30 s are over; if it has not called the completion
    /// handler it is terminated [A].
    func pushWindowEnded(in simulation: inout Simulation<WorldEvent>) {
        guard let generation = push.windowEnded(), generation == processGeneration, processIsRunning,
              processState != .foreground else { return }
        metrics.pushKills += 1
        record(.kill(.pushNotCompleted))
        terminate(.taskTimeout, in: &simulation)
    }

    /// A force-quit discards the held push [A].
    func discardHeldPush(in simulation: inout Simulation<WorldEvent>) {
        if push.discard(in: &simulation) {
            metrics.pushesDiscarded += 1
            record(.pushDiscarded(reason: .forceQuit))
        }
    }
}
