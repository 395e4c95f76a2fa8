/// How the system delivers silent pushes to the app: the scenario's `system.push` section.
///
/// Apple's rules [A] ("Pushing background updates to your app";
/// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`): background pushes are
/// low priority and their delivery is not guaranteed; the system "may throttle" them "if the
/// total number becomes excessive", and senders should keep to "two or three per hour"; it holds
/// only the newest undelivered one; a force-quit discards it, and none is delivered until the
/// user opens the app again or restarts the phone; a user launch delivers the held push; the app
/// has 30 s and must call the completion handler. An Apple engineer adds [A-DTS] (developer
/// forums, thread 776933): expect "up to several" background pushes an hour across all apps on a
/// device, possibly none; once the device-wide battery or data budgets are spent none is
/// delivered until they are reset, every 24 hours; and none is delivered to an app the user has
/// not launched for a while. Field reports describe the throttle [O]: 20 pushes sent in a row
/// throttled from the fifth (firebase/firebase-ios-sdk issue 7072); pushes delivered for 8–10
/// minutes, then nothing for about an hour, repeatedly (firebase/quickstart-ios issue 258).
///
/// The model [Inf]: a burst allowance in a sliding window for the app (the field's bursts), and
/// a budget of background deliveries for the whole device in each 24 hours, which the other
/// apps' pushes spend too (``OtherAppsParameters``; counted in deliveries, since no source gives
/// the budgets' size in joules or bytes), and the refresh recency cutoff for "not launched for a
/// while". The app's daily share follows from what the other apps leave it. No source gives the
/// budget's size: it is our choice within the bounds Apple's engineer sets (none at all, up to
/// "several" an hour for every app together), and the parameter to sweep when a decision
/// depends on it.
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct PushParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// Most background deliveries in any ``burstWindowMinutes``: past it, pushes wait (the newest
    /// only) until the oldest of the burst leaves the window. [O] (firebase/firebase-ios-sdk issue
    /// 7072: throttled at the fifth of 20 sent in a row).
    public var burstDeliveries: Int = 4

    /// The burst's sliding window, in minutes. [O] (firebase/quickstart-ios issue 258: deliveries
    /// for 8–10 minutes, then nothing for about an hour).
    public var burstWindowMinutes: Double = 60

    /// The device's budget of background push deliveries, shared by every app, per hour: each
    /// 24 hours, counted from the simulation's start, the phone delivers at most 24 times this
    /// (rounded down) to all its apps together, first come, first served, and then none until
    /// the next period. [Inf] within Apple's engineer's bounds: "up to several" an hour across
    /// all apps, possibly none, budgets reset every 24 hours (developer forums, thread 776933
    /// [A-DTS]).
    public var deviceBudgetPerHour: Double = 2

    /// The time a delivered push gives the app in the background, in seconds: if the app has not
    /// called the completion handler by then, it is terminated. [A].
    public var runSeconds: Double = 30
}

extension PushParameters: ScenarioSection {
    package static let numberFields: [NumberField<PushParameters>] = [
        NumberField("burstDeliveries", \.burstDeliveries, valid: 1...60, plausible: 2...10),
        NumberField("burstWindowMinutes", \.burstWindowMinutes, valid: 1...1_440, plausible: 30...120),
        NumberField("deviceBudgetPerHour", \.deviceBudgetPerHour, valid: 0...60, plausible: 0.5...6),
        NumberField("runSeconds", \.runSeconds, valid: 1...30),
    ]
}
