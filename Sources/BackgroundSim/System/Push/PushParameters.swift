/// How the system delivers silent pushes to the app: the scenario's `system.push` section.
///
/// Apple's rules [A] ("Pushing background updates to your app";
/// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`): background pushes are
/// low priority and not guaranteed; the system holds only the newest undelivered one; a
/// force-quit discards it, and none is delivered until the user opens the app again (a restart
/// also lifts that, not modelled: the phone never restarts); a user launch delivers the held
/// push; the app has 30 s and must call the completion handler "or your app will be
/// terminated". WWDC 2020 session 10063 [A] (as reported in third-party notes, [A-via]): pushes
/// meet every launch factor but app usage — critically low battery, Low Power Mode, the app
/// switcher, the Background App Refresh switch, the budgets and rate limiting, which "delays it,
/// does not drop it" — and 14 pushes may give about 7 launches, some 15 minutes apart.
public struct PushParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// Least time between two deliveries to the app in the background, in minutes: pushes in
    /// between wait (the newest one only). Default 15 [A-via]; plausible 5–60; valid 0–1,440.
    public var minimumSpacingMinutes: Double = 15

    /// The time a delivered push gives the app in the background, in seconds: if the app has not
    /// called the completion handler by then, it is terminated. Default 30 [A]; valid 1–30.
    public var runSeconds: Double = 30
}

extension PushParameters: ScenarioSection {
    package static let numberFields: [NumberField<PushParameters>] = [
        NumberField("minimumSpacingMinutes", \.minimumSpacingMinutes, valid: 0...1_440),
        NumberField("runSeconds", \.runSeconds, valid: 1...30),
    ]
}
