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
        // A force-quit app gets no pushes until the user opens it [A].
        if forceQuitFlag {
            record(.pushDiscarded(reason: .forceQuit))
            _ = push.discard(in: &simulation)
            return
        }
        // Only the newest push is kept [A].
        if coalesced { record(.pushCoalesced) }
        deliverHeldPush(in: &simulation)
    }

    /// Delivers the held push: to the app in the foreground at once; otherwise if the
    /// admission lets it wake the app, and if not, tries again when it might.
    func deliverHeldPush(in simulation: inout Simulation<WorldEvent>) {
        guard push.held != nil else { return }
        if processState == .foreground {
            deliverPushToApp(inBackground: false, in: &simulation)
            afterWake(in: &simulation)
            return
        }
        // One push at a time: the next waits until the app is done with the one it has.
        if let window = push.window {
            push.retry(at: window.deadline, in: &simulation)
            return
        }
        wakeOrRetry(\.push, for: .silentPush, in: &simulation) { denial in
            record(.pushDeferred(reason: denial))
            // Throttled, it waits for the throttle to open; otherwise it asks again later.
            return denial == .rateLimit ? push.throttle.opensAt(snapshot.now) : snapshot.now + admission.retryInterval
        } deliver: { simulation in
            deliverPushToApp(inBackground: true, in: &simulation)
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

    /// A force-quit discards the held push [A].
    func discardHeldPush(in simulation: inout Simulation<WorldEvent>) {
        if push.discard(in: &simulation) {
            record(.pushDiscarded(reason: .forceQuit))
        }
    }
}
