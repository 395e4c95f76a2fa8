/// When the phone restarts on its own, besides an empty battery: the scenario's `restarts`
/// section.
///
/// A restart turns the phone off and back on. Until the user first unlocks it again, data kept
/// under the default protection class (complete until first user authentication) cannot be
/// read [A] (Apple Platform Security, "Data Protection classes"), and the system launches no app
/// in the background [Inf]; the user's force-quit no longer holds the app back [A] ("the user
/// must relaunch your app or restart the device", `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`).
/// Whether pending task requests survive it is the system's
/// (``SystemParameters/restartDropsPendingRequests``).
///
///     "restarts": { "updateEveryDays": 14, "inactivityRebootHours": 0 }
public struct RestartParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// Days between the iOS updates the phone installs overnight; 0 for none. Default 30 [Inf]
    /// (Apple ships an update about once a month; users who turn automatic updates off restart
    /// less often); plausible 0–90; valid 0–3,650. The first falls on a day drawn uniformly from
    /// the first period, from the labelled stream `device.updates`.
    public var updateEveryDays: Double = 30

    /// The local hour at which an update due that night installs, if the phone is on the
    /// charger and on Wi-Fi and the user is not using it; otherwise it waits for the next night.
    /// Default 3 [Inf] (automatic updates install overnight while the phone charges on Wi-Fi [A],
    /// Apple Support, "Update your iPhone or iPad"); valid 0–23.99.
    public var updateHour: Double = 3

    /// Minutes the phone is off while an update installs. Default 15 [Inf]; plausible 5–45;
    /// valid 1–240.
    public var updateMinutes: Double = 15

    /// Hours without an unlock after which the phone restarts (iOS 18.1 and later); 0 for never.
    /// Default 72 [O] (the "inactivity reboot" timer, found by security researchers'
    /// reverse engineering of iOS 18 and reported in November 2024; Apple has not documented
    /// it); plausible 72–96; valid 0–100,000.
    public var inactivityRebootHours: Double = 72

    /// Minutes a restart other than an update keeps the phone off. Default 1 [Inf]; valid 0.1–60.
    public var rebootMinutes: Double = 1
}

extension RestartParameters: ScenarioSection {
    package static let numberFields: [NumberField<RestartParameters>] = [
        NumberField("updateEveryDays", \.updateEveryDays, valid: 0...3_650),
        NumberField("updateHour", \.updateHour, valid: 0...23.99, unit: "local hour"),
        NumberField("updateMinutes", \.updateMinutes, valid: 1...240),
        NumberField("inactivityRebootHours", \.inactivityRebootHours, valid: 0...100_000),
        NumberField("rebootMinutes", \.rebootMinutes, valid: 0.1...60),
    ]
}
