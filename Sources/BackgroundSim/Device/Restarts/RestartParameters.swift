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
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct RestartParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// Days between the iOS updates the phone installs overnight; 0 for none. [Inf] (Apple ships an
    /// update about once a month; users who turn automatic updates off restart less often). The
    /// first falls on a day drawn uniformly from the first period, from the labelled stream
    /// `device.updates`.
    public var updateEveryDays: Double = 30

    /// The local hour at which an update due that night installs, if the phone is on the charger
    /// and on Wi-Fi and the user is not using it; otherwise it waits for the next night. [Inf]
    /// (automatic updates install overnight while the phone charges on Wi-Fi [A], Apple Support,
    /// "Update your iPhone or iPad").
    public var updateHour: Double = 3

    /// Minutes the phone is off while an update installs. [Inf].
    public var updateMinutes: Double = 15

    /// Hours without an unlock after which the phone restarts (iOS 18.1 and later); 0 for never.
    /// [O] (the "inactivity reboot" timer, found by security researchers' reverse engineering of
    /// iOS 18 and reported in November 2024; Apple has not documented it).
    public var inactivityRebootHours: Double = 72

    /// Minutes a restart other than an update keeps the phone off. [Inf].
    public var rebootMinutes: Double = 1
}

extension RestartParameters: ScenarioSection {
    package static let numberFields: [NumberField<RestartParameters>] = [
        NumberField("updateEveryDays", \.updateEveryDays, valid: 0...3_650, plausible: 0...90),
        NumberField("updateHour", \.updateHour, valid: 0...23.99, unit: "local hour"),
        NumberField("updateMinutes", \.updateMinutes, valid: 1...240, plausible: 5...45),
        NumberField("inactivityRebootHours", \.inactivityRebootHours, valid: 0...100_000, plausible: 72...96),
        NumberField("rebootMinutes", \.rebootMinutes, valid: 0.1...60),
    ]
}
