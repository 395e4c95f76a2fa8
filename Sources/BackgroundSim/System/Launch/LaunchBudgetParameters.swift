/// The system's per-app energy and data budgets for background launches: the scenario's
/// `system.budget` section.
///
/// Apple names "system budgets" for energy and data among the factors that decide background
/// launches, "spread over the day" and drawn down by cellular data and hardware-intensive work
/// (WWDC 2020 session 10063, "Background execution demystified") [A]; it publishes no sizes, so
/// every number here is our inference [Inf], chosen so that a frugal app never notices its
/// budgets and an app that moves megabytes on cellular at every wake does. docs/MODEL.md,
/// "Energy and data budgets", gives the arithmetic.
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct LaunchBudgetParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// The energy budget: joules a day of the app's energy drawn from the battery while it is not
    /// in the foreground (energy drawn on the charger does not count). The budget holds at most a
    /// day's worth and refills continuously at this rate. The default is about 0.3 % of an iPhone
    /// 15's battery [Inf].
    public var energyJoulesPerDay: Double = 150

    /// The data budget: megabytes a day (10⁶ bytes) the app transfers on cellular while it is not
    /// in the foreground (Wi-Fi does not count). Holds at most a day's worth, refills continuously.
    /// [Inf].
    public var cellularMegabytesPerDay: Double = 20

    /// With Low Data Mode on (a constrained path), each cellular byte the app moves while not in
    /// the foreground (in the ~30 s after leaving, or a non-discretionary URL-session transfer that
    /// allows constrained networks) counts this many times against the data budget; no launch
    /// happens on a constrained path (Low Data Mode turns Background App Refresh off). [Inf].
    public var lowDataModeCostMultiplier: Double = 4

    /// The share of a budget below which launch chances fall: a launch's chance is multiplied by
    /// min(1, level ÷ (kneeShare × capacity)), the level of the emptier budget. [Inf].
    public var kneeShare: Double = 0.5
}

extension LaunchBudgetParameters: ScenarioSection {
    package static let numberFields: [NumberField<LaunchBudgetParameters>] = [
        NumberField("energyJoulesPerDay", \.energyJoulesPerDay, valid: 1...100_000, plausible: 50...500),
        NumberField("cellularMegabytesPerDay", \.cellularMegabytesPerDay, valid: 0.1...100_000, plausible: 5...100),
        NumberField("lowDataModeCostMultiplier", \.lowDataModeCostMultiplier, valid: 1...100, plausible: 2...10),
        NumberField("kneeShare", \.kneeShare, valid: 0.01...1, plausible: 0.2...0.8),
    ]
}
