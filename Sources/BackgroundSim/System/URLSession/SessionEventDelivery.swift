import SimKernel

/// The system's side of background URL sessions' events: which sessions wait for the app to be
/// launched for them, the resume rate limiter's delay (which holds back transfers the app creates
/// in the background), and the window in which the launched app handles the events and calls its
/// completion handler. Whether the waiting events may wake the app is the admission's
/// (``WakeAdmission``, sources ``WakeSource/sessionEvents`` and
/// ``WakeSource/discretionarySessionEvents``).
///
/// This type never calls into the app.
struct SessionEventDelivery: WaitingDoor {
    /// Sessions (indices into the work's sessions) whose events wait for a launch.
    private(set) var waiting: [Int] = []
    /// The launch for the waiting sessions.
    private(set) var relaunch = EventSlot()
    /// Whether the waiting sessions wait for the app to run rather than for a launch: none of
    /// them sends launch events (``WakeRule/Check/sessionSendsLaunchEvents``).
    private(set) var waitsForAppToRun = false
    /// The resume rate limiter's delay, in seconds (0: none), and when the app was last launched
    /// or resumed for events in the background.
    private(set) var delaySeconds = 0.0
    private var lastResume: SimInstant?
    /// Sessions whose completion handler the app has been given and not called, in the
    /// window's process.
    private(set) var outstanding: [String] = []
    /// The app's time for the events it was given; missing it is logged.
    private(set) var window: CompletionWindow?

    let parameters: BackgroundURLSessionParameters

    init(parameters: BackgroundURLSessionParameters) {
        self.parameters = parameters
    }

    /// Whether the app is being held running to handle events.
    var holdsApp: Bool { window != nil }

    /// How long a transfer the app creates in the background at `now` waits before it may start:
    /// the limiter's delay, or none once it has lapsed (see ``launched(at:generation:identifiers:in:)``).
    func startDelay(at now: SimInstant) -> SimDuration {
        guard let lastResume, !lapsed(at: now, since: lastResume) else { return .zero }
        return .seconds(delaySeconds)
    }

    /// When the limiter lets the app be launched or resumed for events again: its delay after
    /// the last such launch, or `now` when there was none or it has lapsed. The launch waits
    /// for it as a transfer created in the background does [Inf] (``WakeRule/Check/sessionLaunchRateLimit``).
    func launchOpensAt(_ now: SimInstant) -> SimInstant {
        guard let lastResume, !lapsed(at: now, since: lastResume) else { return now }
        return Swift.max(now, lastResume + .seconds(delaySeconds))
    }

    /// Whether the limiter has started over: a delay period passed after the delay itself with
    /// no resume, that is, twice the delay since the last one [Inf] (see
    /// ``BackgroundURLSessionParameters/resumeDelaySeconds``).
    private func lapsed(at now: SimInstant, since lastResume: SimInstant) -> Bool {
        lastResume.duration(to: now).seconds > 2 * delaySeconds
    }

    /// `session`'s transfers have all finished while the app could not hear: it waits for a
    /// launch, which is due at once. Returns false if the session was already waiting.
    mutating func eventsReady(session: Int, at now: SimInstant, in simulation: inout Simulation<WorldEvent>) -> Bool {
        precondition(session >= 0, "SessionEventDelivery: session \(session)")
        guard !waiting.contains(session) else { return false }
        waiting.append(session)
        waitsForAppToRun = false
        if !relaunch.isScheduled { relaunch.set(.sessionRelaunch, at: now, in: &simulation) }
        return true
    }

    /// The relaunch event fired.
    mutating func relaunchFired() {
        relaunch.fired()
    }

    /// Whether sessions' events wait for a launch.
    var isWaiting: Bool { !waiting.isEmpty }

    /// None of the waiting sessions sends launch events: they wait for the app to run, with no
    /// launch scheduled, until another session's events are ready.
    mutating func waitForAppToRun() {
        precondition(!waiting.isEmpty && !relaunch.isScheduled, "SessionEventDelivery: nothing waits, or a launch is scheduled")
        waitsForAppToRun = true
    }

    /// Try again later (the system deferred the launch).
    mutating func retry(at instant: SimInstant, in simulation: inout Simulation<WorldEvent>) {
        precondition(!waiting.isEmpty, "SessionEventDelivery: a retry with no session's events waiting")
        precondition(instant >= simulation.now, "SessionEventDelivery: a retry at \(instant), before now (\(simulation.now))")
        relaunch.set(.sessionRelaunch, at: instant, in: &simulation)
    }

    /// The app was launched or resumed in the background for the waiting sessions, whose
    /// identifiers are handed back: the limiter's delay doubles (from the first delay, if it had
    /// none or had lapsed) before the app hears of them, and the window opens.
    mutating func launched(at now: SimInstant, generation: UInt32, identifiers: [String], in simulation: inout Simulation<WorldEvent>) {
        precondition(lastResume.map { $0 <= now } ?? true, "SessionEventDelivery: launched at \(now), before the last resume")
        if let lastResume, lapsed(at: now, since: lastResume) { delaySeconds = 0 }
        delaySeconds = delaySeconds == 0 ? parameters.resumeDelaySeconds : delaySeconds * 2
        lastResume = now
        waiting.removeAll()
        waitsForAppToRun = false
        if window?.generation != generation { outstanding.removeAll() }
        outstanding.append(contentsOf: identifiers)
        window?.close(in: &simulation)
        window = CompletionWindow(generation: generation, miss: .logSessionHandlers, event: .sessionEventsEnd,
                                  at: now + .seconds(parameters.eventsSeconds), in: &simulation)
    }

    /// The app heard the waiting sessions' events while running (it was in the foreground).
    mutating func deliveredToRunningApp(in simulation: inout Simulation<WorldEvent>) {
        waiting.removeAll()
        waitsForAppToRun = false
        relaunch.cancel(in: &simulation)
    }

    /// The app came to the foreground: the limiter starts over [A-DTS].
    mutating func appEnteredForeground() {
        delaySeconds = 0
        lastResume = nil
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
        waitsForAppToRun = false
        relaunch.cancel(in: &simulation)
    }
}
