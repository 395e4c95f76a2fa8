/// The background demand of the phone's other apps on the budgets the system shares between
/// apps: the scenario's `system.otherApps` section.
///
/// Of the system's budgets, the sources found call only the one for silent pushes the whole
/// device's: an Apple engineer (developer forums, thread 776933 [A-DTS]) says to expect "up to
/// several" background pushes an hour across all apps on a device, possibly none, with the
/// device's budgets reset every 24 hours (``PushParameters/deviceBudgetPerHour``). The other
/// apps' pushes spend that budget before or after the app's, first come, first served: the
/// app's share follows from the competition.
///
/// What is not here, and why: Apple describes app refresh and processing launches as decided
/// for each app, from its usage and its own energy and data use (WWDC 2019 707 [A]; the
/// model's per-app budgets, ``LaunchBudgetParameters``), and no source found gives other apps a
/// share of them; nor does one say the continued-processing slots are shared
/// (``ContinuedProcessingParameters``). So the other apps' refresh, processing and energy
/// demand is not modelled: in the model, a phone with more busy apps launches this one no less
/// often [Inf].
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct OtherAppsParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// The background pushes the phone's other apps are delivered, per hour: each spends one of
    /// the device's push budget while any is left. A Poisson process, drawn for each 24-hour
    /// period from the labelled stream `system.otherApps.pushes` (the period as its index), so
    /// the same seed gives the same arrivals whatever the app does. [Inf]: no source counts
    /// them; Apple asks each sender for at most "two or three per hour" [A] ("Pushing background
    /// updates to your app"), and most apps send alert pushes, which are not background
    /// deliveries.
    public var backgroundPushesPerHour: Double = 1
}

extension OtherAppsParameters: ScenarioSection {
    package static let numberFields: [NumberField<OtherAppsParameters>] = [
        NumberField("backgroundPushesPerHour", \.backgroundPushesPerHour, valid: 0...600, plausible: 0...4),
    ]
}
