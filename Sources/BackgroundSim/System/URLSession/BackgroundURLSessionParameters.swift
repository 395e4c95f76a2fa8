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
/// describes a resume rate limiter [A-DTS] (developer forums, thread 14854): the daemon doubles a
/// per-app delay at each background resume, and resets it when the app comes to the foreground or
/// a delay period passes without a resume.
///
/// Simplifications [Inf]: the daemon carries one transfer at a time, the oldest that may go
/// (concurrent transfers would share the link anyway); a transfer and the app's own work share
/// the link half and half; transfers restart from the beginning after a cancel and resume where
/// they were after a network loss; Low Power Mode and thermal state do not hold transfers back.
public struct BackgroundURLSessionParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// The resume rate limiter's first delay, in seconds: the app is launched for a session's
    /// events this long after they are ready, the delay doubles at each background launch for
    /// them, and goes back to this value when the app comes to the foreground or a delay period
    /// passes with no launch. Default 60 [O] (forum thread 128813: the delay "started at 60 s");
    /// plausible 0–300; valid 0–3,600.
    public var relaunchDelaySeconds: Double = 60

    /// How long the app launched for a session's events may run in the background before it is
    /// suspended, whether or not it called the completion handler, in seconds. Default 30 [Inf]
    /// (the budget of other background launches); plausible 5–30; valid 1–600.
    public var eventsSeconds: Double = 30

    /// Whether discretionary transfers wait for the charger as well as Wi-Fi ("Wi-Fi and power"
    /// [A]). Default true; with false they wait for Wi-Fi only.
    public var discretionaryRequiresPower = true
}

extension BackgroundURLSessionParameters: ScenarioSection {
    package static let numberFields: [NumberField<BackgroundURLSessionParameters>] = [
        NumberField("relaunchDelaySeconds", \.relaunchDelaySeconds, valid: 0...3_600),
        NumberField("eventsSeconds", \.eventsSeconds, valid: 1...600),
    ]
}
