import SimKernel

// Silent pushes: the server's sends arrive; the system holds the newest and delivers it when
// the admission lets it wake the app (``WakeSource/silentPush``), launching or resuming the app,
// which has 30 s to call the completion handler.
extension SimulatedSystem {
    /// The `pushSend` event: the server sends a push (and the next send is scheduled).
    func pushSent(in simulation: inout Simulation<WorldEvent>) {
        let now = snapshot.now
        let coalesced = push.arrive(at: now)
        if let next = push.nextSend(after: now) { simulation.schedule(.system(.pushSend), at: next) }
        record(.pushReceived)
        deliverHeldPush(arrivedReplacingHeld: coalesced, in: &simulation)
    }

    /// Delivers the held push as the admission says (``WakeSource/silentPush``'s rows of
    /// ``WakeRule/table``): drops it if the app was force-quit; delivers it to the app in the
    /// foreground at once; holds it until the app is done with the previous one; wakes the app
    /// for it; or tries again when it might.
    ///
    /// - Parameter arrivedReplacingHeld: Whether the push has just arrived and replaced one the
    ///   system held (only the newest is kept [A]); logged unless it is dropped.
    func deliverHeldPush(arrivedReplacingHeld: Bool = false, in simulation: inout Simulation<WorldEvent>) {
        guard push.held != nil else { return }
        let decision = admit(.door(.silentPush))
        if decision == .notLaunched(.forceQuit) {
            // Dropped, not held (``WakeRule/Check/pushesAfterForceQuit``). A push held when the
            // user force-quit the app was dropped then, so only one just arrived meets this.
            record(.pushDiscarded(reason: .forceQuit))
            _ = push.discard(in: &simulation)
            return
        }
        if arrivedReplacingHeld { record(.pushCoalesced) }
        switch decision {
        case .notLaunched(.appInForeground):
            deliverPushToApp(inBackground: false, in: &simulation)
            afterWake(in: &simulation)
        case .notLaunched(.previousPushRunning):
            if let window = push.window { push.retry(at: window.deadline, in: &simulation) }
        default:
            wakeOrRetry(\.push, for: .silentPush, decision: decision, in: &simulation) { denial in
                record(.pushDeferred(reason: denial))
                // Throttled, it waits for the throttle to open; otherwise it asks again later.
                return denial == .rateLimit ? push.throttleOpensAt(snapshot.now) : snapshot.now + admission.retryInterval
            } deliver: { simulation in
                deliverPushToApp(inBackground: true, in: &simulation)
            }
        }
    }

    /// Hands the held push to the running app; in the background it has
    /// ``PushParameters/runSeconds`` to call the handler.
    private func deliverPushToApp(inBackground: Bool, in simulation: inout Simulation<WorldEvent>) {
        let generation = processGeneration
        push.delivered(at: snapshot.now, generation: generation, inBackground: inBackground, runSeconds: parameters.push.runSeconds,
                       in: &simulation)
        record(.pushDelivered(inBackground: inBackground))
        let delivery = push.deliveries
        if let policy, let context {
            policy.didReceiveRemoteNotification(context) { [weak self] _ in
                self?.pushCompletionHandlerCalled(generation: generation, delivery: delivery)
            }
        }
        afterCallback(in: &simulation)
    }

    /// The app called the completion handler of push number `delivery`.
    func pushCompletionHandlerCalled(generation: UInt32, delivery: UInt32) {
        guard push.handlerCalled(generation: generation, delivery: delivery) else { return }
        record(.pushCompletionHandlerCalled)
    }

    /// A force-quit or a kill of the app discards the held push [A].
    func discardHeldPush(_ reason: PushDiscardReason, in simulation: inout Simulation<WorldEvent>) {
        if push.discard(in: &simulation) {
            record(.pushDiscarded(reason: reason))
        }
    }
}
