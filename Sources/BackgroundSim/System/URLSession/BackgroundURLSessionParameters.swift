/// How the system's transfer daemon (`nsurlsessiond`) runs background `URLSession` transfers
/// and launches the app for their events: the scenario's `system.backgroundURLSession` section.
///
/// What Apple documents [A] (`URLSessionConfiguration.isDiscretionary`,
/// `background(withIdentifier:)`, `sessionSendsLaunchEvents`,
/// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`): transfers continue
/// while the app is suspended or terminated by the system and wait for connectivity; a
/// force-quit cancels them; discretionary transfers wait for Wi-Fi and power; when a session's
/// transfers finish the app is launched or resumed in the background and must call the
/// completion handler. WWDC 2020 session 10063 ("Background execution demystified") says which
/// of the system's factors apply (as third-party notes report it [A-via]): to a non-discretionary session all but app usage and rate
/// limiting, to a discretionary one only the app switcher and the budgets. An Apple engineer
/// describes a resume rate limiter [A-DTS] (developer forums, thread 14854): the daemon keeps a
/// per-app delay, doubles it each time it resumes or relaunches the app in the background, resets
/// it when the app comes to the foreground or a delay period passes without a resume, and a task
/// the app creates while in the background does not start until that delay has expired — which is
/// why handing over one transfer at a time stalls. Attendees' notes of WWDC 2020 10063 add that
/// rate limiting and app usage, which the transfers escape, apply to the launch event upon
/// completion [A-via]: the launch for events waits out the same delay since the last background
/// launch or resume for events [Inf: the only limiter Apple describes for the daemon], and is
/// not made for an app the user has not opened within `refreshRecencyDays` [Inf]
/// (``WakeRule/table``).
///
/// Simplifications [Inf]: the daemon carries one transfer at a time, the oldest that may go
/// (concurrent transfers would share the link anyway); a transfer and the app's own work share
/// the link half and half; transfers restart from the beginning after a cancel and resume where
/// they were after a network loss; Low Power Mode and thermal state do not hold transfers back.
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct BackgroundURLSessionParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// The resume rate limiter's first delay, in seconds: the delay a transfer created while the
    /// app is in the background waits, counted from its creation, after one background launch or
    /// resume for events; each further one doubles it [A-DTS] (forum thread 14854). The default is
    /// observed [O] (forum thread 128813: the daemon's log sets the delay to 60, 120, 240 s at
    /// successive resumes); 0 turns the limiter off.
    ///
    /// When the limiter starts over is our reading of the two threads [Inf]: in the foreground,
    /// and when twice the delay has passed since the last resume (the delay, then a delay period
    /// with no resume). Thread 128813's resumes 71 s and 59 s apart kept doubling a 60 s and a
    /// 120 s delay, which rules out a reset after one delay period.
    public var resumeDelaySeconds: Double = 60

    /// How long the app launched for a session's events may run in the background before it is
    /// suspended, whether or not it called the completion handler, in seconds. [Inf] (the budget of
    /// other background launches).
    public var eventsSeconds: Double = 30

    /// Whether discretionary transfers wait for the charger as well as Wi-Fi ("Wi-Fi and power"
    /// [A]). Default true; with false they wait for Wi-Fi only.
    public var discretionaryRequiresPower = true
}

extension BackgroundURLSessionParameters: ScenarioSection {
    package static let numberFields: [NumberField<BackgroundURLSessionParameters>] = [
        NumberField("resumeDelaySeconds", \.resumeDelaySeconds, valid: 0...3_600, plausible: 0...300),
        NumberField("eventsSeconds", \.eventsSeconds, valid: 1...600, plausible: 5...30),
    ]
}
