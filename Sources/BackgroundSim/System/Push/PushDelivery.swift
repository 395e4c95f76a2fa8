import SimKernel

/// The system's side of silent pushes: the newest undelivered push (the only one kept), the
/// next delivery attempt, the throttle on background deliveries, and the window in which the app
/// must call the completion handler of the push it was given; and the server's sends. Whether a
/// held push may wake the app is the admission's (``WakeAdmission``, source ``WakeSource/silentPush``).
///
/// This type never calls into the app.
struct PushDelivery: WaitingDoor {
    static let sendLabel = StreamLabel("server.pushes")

    let pushes: ServerPushes
    /// When the held push was sent, if one is held.
    private(set) var held: SimInstant?
    /// The next delivery attempt.
    private(set) var attempt = EventSlot()
    /// The system's throttle on background deliveries.
    private(set) var throttle: PushThrottle
    /// The last background delivery.
    private(set) var lastDelivery: SimInstant?
    /// The completion handler the app owes for the push it is handling in the background.
    private(set) var window: CompletionWindow?
    /// Whether the app has called the handler it owes (the window closes at the next reconcile).
    private var handlerCalled = false
    /// Pushes delivered so far; a push's handler is the one handed over with its number.
    private(set) var deliveries: UInt32 = 0
    /// The number of the push whose handler the window waits for.
    private var windowDelivery: UInt32 = 0
    /// The server's random sends (`poisson`).
    private var sendRandom: RandomStream
    /// Sends so far.
    private(set) var sent: UInt32 = 0
    /// The given times, in order.
    private let times: [SimInstant]

    init(pushes: ServerPushes, parameters: PushParameters, otherApps: OtherAppsParameters, seed: UInt64) {
        self.pushes = pushes
        throttle = PushThrottle(parameters: parameters, otherApps: otherApps, seed: seed)
        sendRandom = RandomStream(seed: seed, label: Self.sendLabel)
        times = pushes.schedule == .times ? pushes.atHours.sorted().map { .start + .hours($0) } : []
    }

    /// When the throttle next lets a background delivery through, at or after `now`
    /// (``PushThrottle/opensAt(_:)``); `now` must not go back in time.
    mutating func throttleOpensAt(_ now: SimInstant) -> SimInstant {
        throttle.opensAt(now)
    }

    /// Whether the app is held running to handle a push.
    var holdsApp: Bool { window != nil }

    /// When the server sends next, after `now` (or at the start, before any send).
    mutating func nextSend(after now: SimInstant) -> SimInstant? {
        switch pushes.schedule {
        case .none: return nil
        case .cadence: return now + .minutes(pushes.everyMinutes)
        case .poisson: return now + .hours(ExponentialDistribution(rate: pushes.perHour).sample(using: &sendRandom))
        case .times: return Int(sent) < times.count ? Swift.max(now, times[Int(sent)]) : nil
        }
    }

    /// A push arrives; returns whether it replaced a held one (coalesced).
    mutating func arrive(at now: SimInstant) -> Bool {
        sent += 1
        defer { held = now }
        return held != nil
    }

    /// The held push is dropped (a force-quit); returns whether there was one.
    mutating func discard(in simulation: inout Simulation<WorldEvent>) -> Bool {
        attempt.cancel(in: &simulation)
        defer { held = nil }
        return held != nil
    }

    mutating func attemptFired() { attempt.fired() }

    /// Whether a push is held for delivery.
    var isWaiting: Bool { held != nil }

    mutating func retry(at instant: SimInstant, in simulation: inout Simulation<WorldEvent>) {
        precondition(held != nil, "PushDelivery: a retry with no push held")
        precondition(instant >= simulation.now, "PushDelivery: a retry at \(instant), before now (\(simulation.now))")
        attempt.set(.pushDeliveryAttempt, at: instant, in: &simulation)
    }

    /// The held push is delivered now, to process `generation`; in the background the app has
    /// `runSeconds` to call the handler (a window whose miss kills it).
    mutating func delivered(at now: SimInstant, generation: UInt32, inBackground: Bool, runSeconds: Double,
                            in simulation: inout Simulation<WorldEvent>) {
        precondition(held != nil, "PushDelivery: a delivery with no push held")
        precondition(!inBackground || (runSeconds > 0 && runSeconds.isFinite), "PushDelivery: \(runSeconds) s to handle a push")
        held = nil
        deliveries += 1
        attempt.cancel(in: &simulation)
        if inBackground {
            windowDelivery = deliveries
            lastDelivery = now
            throttle.delivered(at: now)
            window?.close(in: &simulation)
            handlerCalled = false
            window = CompletionWindow(generation: generation, miss: .killForPush, event: .pushRunEnd,
                                      at: now + .seconds(runSeconds), in: &simulation)
        }
    }

    /// The app called, in process `generation`, the handler of push number `delivery`; returns
    /// whether it was owed. The handler of an earlier push (one the app was given in the
    /// foreground and still held, say) does not answer for the push being handled.
    mutating func handlerCalled(generation: UInt32, delivery: UInt32) -> Bool {
        guard let window, window.generation == generation, delivery == windowDelivery, !handlerCalled else { return false }
        handlerCalled = true
        return true
    }

    /// Closes the window once the handler has been called.
    mutating func reconcile(in simulation: inout Simulation<WorldEvent>) {
        if handlerCalled, let window {
            window.close(in: &simulation)
            self.window = nil
        }
    }

    /// The window's deadline passed; returns it if the handler was not called.
    mutating func windowEnded() -> CompletionWindow? {
        defer { window = nil }
        return handlerCalled ? nil : window
    }

    /// The process ended: its handler can no longer be called.
    mutating func processEnded(in simulation: inout Simulation<WorldEvent>) {
        window?.close(in: &simulation)
        window = nil
    }
}
