/// Which launch model decides when the system runs background tasks.
public enum LaunchModelKind: String, NamedChoice, Sendable {
    /// The calibrated default: usage prediction, budgets, rate limits, idle and charging.
    case heuristic
    /// Runs every request at its earliest begin date as soon as its constraints hold: what
    /// developers tend to assume.
    case eager
    /// The pessimistic end of what developers report.
    case stingy
    /// The launches a field log shows, granted when they happened (``ReplayedLaunches``).
    case replay
}

/// Parameters of ``HeuristicLaunchModel`` (and, scaled down, of the stingy model).
///
/// Calibration targets (docs/MODEL.md, "Calibration targets"): with an app used daily, refresh runs
/// 2–6 times a day, mostly in the hours the app is used ("right before" predicted use [A-via]);
/// after the user stops opening the app, launches fade over days (bands at +1, +3, +7 and +14
/// days [A-DTS/Inf]) and stop; processing that requires power runs at least 80 % of the time on
/// the charger, mostly at night, on most days [O].
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct HeuristicLaunchParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// How often the system reconsiders pending requests, in minutes. [Inf]
    public var evaluationMinutes: Double = 15

    /// Refresh launches per day granted to an app that is never opened but not yet stale. [Inf]
    public var refreshBasePerDay: Double = 1

    /// Extra refresh launches per day for each app session per day (recent, decayed). With the
    /// defaults an app used 1.5 times a day gets about 4 a day, inside the calibration targets'
    /// 2–6 (docs/MODEL.md, "Calibration targets"). [Inf] (field reports of "3–4 a day" were
    /// cited before; none with figures could be found again).
    public var refreshPerAppSession: Double = 2

    /// Most refresh launches per day. [Inf] (the top of the calibration targets' 2–6 a day,
    /// docs/MODEL.md; no field report with figures could be found again).
    public var refreshMaximumPerDay: Double = 6

    /// Least time between two refresh launches, in minutes. [O]
    public var refreshMinimumSpacingMinutes: Double = 15

    /// How far ahead of predicted use the system launches refresh, in minutes. [Inf]
    public var refreshLeadMinutes: Double = 30

    /// Half-life of the learnt usage pattern, in days ("about two weeks, decayed"). [Inf]
    public var usageHalfLifeDays: Double = 7

    /// Refresh stops when the app has not been opened for this many days (WWDC19 707: "if the user
    /// doesn't come back to your app… we may choose to not launch your task at all" [A-DTS]);
    /// before that it fades (``refreshFadeHalfLifeDays``). [Inf]
    public var refreshRecencyDays: Double = 21

    /// The refresh chance halves for every this many days since the app was last in the foreground:
    /// a factor 2^(−days since use ÷ this). The default makes an app left alone get about half its
    /// refresh a day after three days, a fifth after a week and almost none after two [Inf].
    public var refreshFadeHalfLifeDays: Double = 3

    /// The same fading for processing's chance per evaluation, within ``processingRecencyDays``.
    /// The chance on the charger is high (0.5 a look), so launches a day fade only with a short
    /// half-life: with 1 day, about 1.1 a day one day after the last use, 0.9 after three, 0.4
    /// after six and none after a week. [Inf].
    public var processingFadeHalfLifeDays: Double = 1

    /// Screen-off time after which the device counts as idle for processing tasks, in minutes.
    /// [Inf] (a developer report of a processing task running about 5 min after locking, forum
    /// thread 119758, cited before, could not be found again).
    public var idleDelayMinutes: Double = 5

    /// Processing runs only if the app was opened within this many days. The default is the
    /// header's "used your app within the past week" [A].
    public var processingRecencyDays: Double = 7

    /// Least time between two processing launches, in hours. [Inf] (a developer report of runs
    /// "spaced 10–20 h apart", cited before, could not be found again).
    public var processingMinimumSpacingHours: Double = 8

    /// Chance per evaluation that an eligible processing request runs while the idle device is
    /// charging. [Inf]
    public var processingChargingChancePerEvaluation: Double = 0.5

    /// Chance per evaluation that an eligible processing request runs on battery. The default
    /// gives about a tenth of eligible idle nights [Inf].
    public var processingBatteryChancePerEvaluation: Double = 0.01

    /// Battery level below which discretionary work stops unless charging, in percent. The default
    /// is WWDC20's "below 20%, essential work only" [A-via].
    public var criticalBatteryPercent: Double = 20
}

extension HeuristicLaunchParameters: ScenarioSection {
    package static let numberFields: [NumberField<HeuristicLaunchParameters>] = [
        NumberField("evaluationMinutes", \.evaluationMinutes, valid: 1...240),
        NumberField("refreshBasePerDay", \.refreshBasePerDay, valid: 0...24, plausible: 0.5...3),
        NumberField("refreshPerAppSession", \.refreshPerAppSession, valid: 0...24, plausible: 0.5...4),
        NumberField("refreshMaximumPerDay", \.refreshMaximumPerDay, valid: 0...96, plausible: 4...12),
        NumberField("refreshMinimumSpacingMinutes", \.refreshMinimumSpacingMinutes, valid: 1...1_440, plausible: 15...30),
        NumberField("refreshLeadMinutes", \.refreshLeadMinutes, valid: 0...720, plausible: 10...60),
        NumberField("usageHalfLifeDays", \.usageHalfLifeDays, valid: 0.5...60, plausible: 3...14),
        NumberField("refreshRecencyDays", \.refreshRecencyDays, valid: 0.5...60, plausible: 7...30),
        NumberField("refreshFadeHalfLifeDays", \.refreshFadeHalfLifeDays, valid: 0.5...30, plausible: 1...7),
        NumberField("processingFadeHalfLifeDays", \.processingFadeHalfLifeDays, valid: 0.5...30, plausible: 0.5...3),
        NumberField("idleDelayMinutes", \.idleDelayMinutes, valid: 0...120, plausible: 2...15),
        NumberField("processingRecencyDays", \.processingRecencyDays, valid: 0.5...60),
        NumberField("processingMinimumSpacingHours", \.processingMinimumSpacingHours, valid: 0...168, plausible: 2...24),
        NumberField("processingChargingChancePerEvaluation", \.processingChargingChancePerEvaluation, valid: 0...1, plausible: 0.2...0.9, unit: "probability"),
        NumberField("processingBatteryChancePerEvaluation", \.processingBatteryChancePerEvaluation, valid: 0...1, plausible: 0.001...0.05, unit: "probability"),
        NumberField("criticalBatteryPercent", \.criticalBatteryPercent, valid: 0...100),
    ]
}
