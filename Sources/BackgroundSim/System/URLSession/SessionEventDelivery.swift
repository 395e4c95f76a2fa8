import SimKernel

/// The system's side of background URL sessions' events: which sessions wait for the app to be
/// launched for them, when that launch is due (the resume rate limiter), and the window in which
/// the launched app handles them and calls its completion handler. Whether the waiting events may
/// wake the app is the admission's (``WakeAdmission``, sources ``WakeSource/sessionEvents`` and
/// ``WakeSource/discretionarySessionEvents``).
///
/// This type never calls into the app.
struct SessionEventDelivery {
    /// Sessions (indices into the work's sessions) whose events wait for a launch.
    private(set) var waiting: [Int] = []
    /// The launch for the waiting sessions.
    private(set) var relaunch = EventSlot()
    /// The rate limiter's current delay, in seconds, and when the app was last launched for
    /// events in the background.
    private(set) var delaySeconds: Double
    private var lastRelaunch: SimInstant?
    /// Sessions whose completion handler the app has been given and not called, in the
    /// window's process.
    private(set) var outstanding: [String] = []
    /// The app's time for the events it was given; missing it is logged.
    private(set) var window: CompletionWindow?

    let parameters: BackgroundURLSessionParameters

    init(parameters: BackgroundURLSessionParameters) {
        self.parameters = parameters
        delaySeconds = parameters.relaunchDelaySeconds
    }

    /// Whether the app is being held running to handle events.
    var holdsApp: Bool { window != nil }

    /// `session`'s transfers have all finished while the app could not hear: it waits for a
    /// launch. Returns the time until that launch (one already due for another session, or a new
    /// one after the limiter's delay); `nil` if the session was already waiting.
    mutating func eventsReady(session: Int, at now: SimInstant, in simulation: inout Simulation<WorldEvent>) -> SimDuration? {
        guard !waiting.contains(session) else { return nil }
        waiting.append(session)
        if let due = relaunch.time { return now.duration(to: due) }
        // A delay period passed with no launch: the limiter starts over [A-DTS].
        if let lastRelaunch, lastRelaunch.duration(to: now).seconds > delaySeconds { delaySeconds = parameters.relaunchDelaySeconds }
        let delay = SimDuration.seconds(delaySeconds)
        relaunch.set(.sessionRelaunch, at: now + delay, in: &simulation)
        return delay
    }

    /// The relaunch event fired.
    mutating func relaunchFired() {
        relaunch.fired()
    }

    /// Try again later (the system deferred the launch).
    mutating func retry(at instant: SimInstant, in simulation: inout Simulation<WorldEvent>) {
        relaunch.set(.sessionRelaunch, at: instant, in: &simulation)
    }

    /// The app was launched or resumed in the background for the waiting sessions, whose
    /// identifiers are handed back: the limiter's delay doubles, and the window opens.
    mutating func launched(at now: SimInstant, generation: UInt32, identifiers: [String], in simulation: inout Simulation<WorldEvent>) {
        lastRelaunch = now
        delaySeconds = delaySeconds == 0 ? 0 : delaySeconds * 2
        waiting.removeAll()
        if window?.generation != generation { outstanding.removeAll() }
        outstanding.append(contentsOf: identifiers)
        window?.close(in: &simulation)
        window = CompletionWindow(generation: generation, miss: .logSessionHandlers, event: .sessionEventsEnd,
                                  at: now + .seconds(parameters.eventsSeconds), in: &simulation)
    }

    /// The app heard the waiting sessions' events while running (it was in the foreground).
    mutating func deliveredToRunningApp(in simulation: inout Simulation<WorldEvent>) {
        waiting.removeAll()
        relaunch.cancel(in: &simulation)
    }

    /// The app came to the foreground: the limiter starts over [A-DTS].
    mutating func appEnteredForeground() {
        delaySeconds = parameters.relaunchDelaySeconds
    }

    /// The app called `session`'s completion handler in process `generation`; returns whether it
    /// was outstanding. The window closes at the next ``reconcile(in:)`` when none is.
    mutating func handlerCalled(session: String, generation: UInt32) -> Bool {
        guard generation == window?.generation, let index = outstanding.firstIndex(of: session) else { return false }
        outstanding.remove(at: index)
        return true
    }

    /// Closes the window once every handler has been called.
    mutating func reconcile(in simulation: inout Simulation<WorldEvent>) {
        if outstanding.isEmpty, let window {
            window.close(in: &simulation)
            self.window = nil
        }
    }

    /// The window's deadline passed; returns it (the handlers not called are still
    /// outstanding: ``takeOutstanding()``).
    mutating func windowEnded() -> CompletionWindow? {
        defer { window = nil }
        return window
    }

    /// The handlers not called, which are then no longer owed.
    mutating func takeOutstanding() -> [String] {
        defer { outstanding.removeAll() }
        return outstanding
    }

    /// The process ended: handlers given to it can no longer be called.
    mutating func processEnded(in simulation: inout Simulation<WorldEvent>) {
        outstanding.removeAll()
        window?.close(in: &simulation)
        window = nil
    }

    /// A force-quit: nothing is left to deliver (the transfers were cancelled).
    mutating func removeWaiting(in simulation: inout Simulation<WorldEvent>) {
        waiting.removeAll()
        relaunch.cancel(in: &simulation)
    }
}
