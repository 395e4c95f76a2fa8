/// The simulated app as iOS sees it: its background policy and what its Info.plist declares.
public struct AppParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// The background policy: a registered name (see `bgsim presets`) and its parameters;
    /// `"none"` simulates no app code. Default "none".
    public var policy: PolicyConfiguration = .none

    /// `BGTaskSchedulerPermittedIdentifiers`: the task identifiers the app may register and submit.
    /// Default: none; a scenario file that names a policy and not this field gets the task
    /// identifiers the policy's definition declares (``PolicyDefinition/taskIdentifiers``), or its
    /// parameters where they choose them (a recipe's ``PolicyParameters/taskIdentifiers``), as
    /// its Info.plist would list them — give `[]` to model a missing entry.
    public var permittedIdentifiers: [String] = []

    /// `UIBackgroundModes`: `"fetch"` allows refresh requests, `"processing"` processing requests.
    /// Default both.
    public var backgroundModes: [BackgroundMode] = [.fetch, .processing]

    /// The user's Background App Refresh switch for the app. Default true (on by default [A-via]).
    /// Off: submit fails with `unavailable`.
    public var backgroundAppRefreshEnabled: Bool = true

    /// The app's own metrics, measured from its signposts (``AppMetricDeclaration``). Default:
    /// none; a scenario file that names a policy and not this field gets the metrics the
    /// policy's definition declares (``PolicyDefinition/metrics``).
    public var metrics: [AppMetricDeclaration] = []

    /// The app's environment variables, launch arguments and `UserDefaults` at install
    /// (``LaunchEnvironment``). Default none of each.
    public var launch = LaunchEnvironment()
}

/// An entry of the app's `UIBackgroundModes` that background tasks need [A].
public enum BackgroundMode: String, NamedChoice, Sendable {
    /// "Background fetch": allows `BGAppRefreshTaskRequest`s.
    case fetch
    /// "Background processing": allows `BGProcessingTaskRequest`s.
    case processing
}

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

/// The iOS background-execution model's parameters.
///
/// Callbacks into the app take no simulated time, so `didEnterBackground`'s 5 s budget [A]
/// cannot be overrun and has no parameter: work that takes time must hold a background-task
/// assertion or run in a task, as on iOS.
///
/// Tags: [A] Apple documentation or WWDC sessions, [A-DTS] an Apple engineer (Developer
/// Technical Support, the developer forums), [A-via] Apple as reported by third parties, [O]
/// observed by developers in the field, [Inf] our inference; docs/SOURCES.md gives each source.
public struct SystemParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// Which launch model to use. Default `heuristic`.
    public var launchModel: LaunchModelKind = .heuristic

    /// The logged launches the `replay` launch model grants. Default none.
    public var replay = ReplayedLaunches()

    /// The background-task assertion budget from entering the background, shared by all
    /// assertions, in seconds. Default 30; range 5–30 (legacy 180/600). [A-DTS/O]
    public var extensionBudgetSeconds: Double = 30

    /// How long before the budget ends the assertions' expiration handlers are called, in
    /// seconds. Default 3; range 0–5. [Inf]
    public var expirationLeadSeconds: Double = 3

    /// How long an app refresh task may run, in seconds. Default 30; range 2–30. [A]/[O]
    public var refreshRuntimeSeconds: Double = 30

    /// Probability that a refresh task is expired early, 2–5 s after launch. Default 0.1;
    /// range 0–1. Production apps have seen this [O]; the rate is [Inf].
    public var refreshEarlyExpiryProbability: Double = 0.1

    /// Longest a processing task runs while the device stays idle, in minutes. Default 10;
    /// range 1–60. [Inf]
    public var processingMaxRuntimeMinutes: Double = 10

    /// Probability that the system expires a processing task early, before
    /// ``processingMaxRuntimeMinutes``: Proton Drive's design notes that the OS "usually expires
    /// a BG task in anything between a few seconds and a few minutes" [C] (ProtonDriveApps/ios-drive,
    /// `BackgroundOperations.md`). "Usually" is taken as half [Inf]. Default 0.5; range 0–1.
    public var processingEarlyExpiryProbability: Double = 0.5

    /// The shortest early processing allotment, in seconds: an early allotment is drawn
    /// log-uniformly between this and the cap ("a few seconds to a few minutes" [C]; median
    /// √(5 × 600) ≈ 55 s with the defaults). Default 5 [C]/[Inf]; range 1–600.
    public var processingEarlyExpiryMinimumSeconds: Double = 5

    /// Time after a task's expiration handler in which it must call `setTaskCompleted`, in
    /// seconds, before the system kills the app. Default 3; range 0–10. [Inf] ("a few seconds")
    public var taskCompletionGraceSeconds: Double = 3

    /// After a kill for not completing a task, how long the system launches no background tasks
    /// for the app, in hours. Default 12; range 0–72. WWDC22 10142: overrunning apps are
    /// "throttled for future background task requests" [A-DTS]; the length is [Inf].
    public var throttlePenaltyHours: Double = 12

    /// Rate at which the system terminates a suspended app to reclaim memory (jetsam), per hour.
    /// Default 0.05 (a suspended app survives about 20 h on average); range 0–2. That suspended
    /// apps are terminated for memory is Apple's [A]; the rate is [Inf].
    public var suspendedTerminationPerHour: Double = 0.05

    /// Whether a force-quit deletes the app's pending task requests. Default true; Apple does not
    /// document it [Inf].
    public var forceQuitClearsPendingRequests: Bool = true

    /// Whether a restart of the phone (an update, the inactivity reboot, an empty battery)
    /// deletes the app's pending task requests, so that it must submit them again. Default false
    /// [Inf]: Apple documents nothing either way; DP-3T/dp3t-sdk-ios pull request 183 [O]
    /// describes processing tasks "not being re-scheduled (for example after device reboot)" —
    /// set it to see whether a policy that resubmits only at launch recovers.
    public var restartDropsPendingRequests: Bool = false

    /// The CPU monitor for processing tasks: the app is killed if it uses more than this share
    /// of a core … Default 80 (%). [O] "exceeding limit of 80% cpu over 60 seconds" (the
    /// system's `cumulativeCPUResourceLimitExitCount` reports). A task whose request requires
    /// external power is not watched [A] (`BGTaskRequest.h`: requiring external power disables
    /// the CPU monitor).
    public var cpuMonitorPercent: Double = 80

    /// … for this long, in seconds. Default 60. [O]
    public var cpuMonitorSeconds: Double = 60

    /// Whether the CPU monitor watches processing tasks that require external power too: the
    /// behaviour a developer observed and an Apple engineer called a bug (developer forums,
    /// thread 675166 [O]). Default false (the documented rule [A]); true to see whether a policy
    /// survives it.
    public var cpuMonitorIgnoresExternalPower: Bool = false

    /// The heuristic launch model's parameters.
    public var heuristic = HeuristicLaunchParameters()

    /// The per-app energy and data budgets the heuristic and stingy models spend launches from.
    public var budget = LaunchBudgetParameters()

    /// Continued-processing tasks (iOS 26): how many run at once, when a stalled one expires,
    /// how often the user cancels.
    public var continuedProcessing = ContinuedProcessingParameters()

    /// Background URL sessions: the resume rate limiter, the time the app has for a session's
    /// events, what discretionary transfers wait for.
    public var backgroundURLSession = BackgroundURLSessionParameters()

    /// Silent pushes: the spacing between deliveries and the time a push gives the app (the
    /// server's sends are the scenario's `pushes`).
    public var push = PushParameters()
}

/// Parameters of ``HeuristicLaunchModel`` (and, scaled down, of the stingy model).
///
/// Calibration targets (docs/MODEL.md, "Calibration targets"): with an app used daily, refresh runs
/// 2–6 times a day, mostly in the hours the app is used ("right before" predicted use [A-via]);
/// after the user stops opening the app, launches fade over days (bands at +1, +3, +7 and +14
/// days [A-DTS/Inf]) and stop; processing that requires power runs at least 80 % of the time on
/// the charger, mostly at night, on most days [O].
public struct HeuristicLaunchParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// How often the system reconsiders pending requests, in minutes. Default 15. [Inf]
    public var evaluationMinutes: Double = 15

    /// Refresh launches per day granted to an app that is never opened but not yet stale.
    /// Default 1. [Inf]
    public var refreshBasePerDay: Double = 1

    /// Extra refresh launches per day for each app session per day (recent, decayed).
    /// Default 2, so an app used 1.5 times a day gets about 4 a day. [Inf], calibrated to the
    /// observed 3–4 a day [O].
    public var refreshPerAppSession: Double = 2

    /// Most refresh launches per day. Default 6; range 1–24. [O]/[Inf]
    public var refreshMaximumPerDay: Double = 6

    /// Least time between two refresh launches, in minutes. Default 15; range 15–720. [O]
    public var refreshMinimumSpacingMinutes: Double = 15

    /// How far ahead of predicted use the system launches refresh, in minutes. Default 30;
    /// range 5–120. [Inf]
    public var refreshLeadMinutes: Double = 30

    /// Half-life of the learnt usage pattern, in days ("about two weeks, decayed"). Default 7. [Inf]
    public var usageHalfLifeDays: Double = 7

    /// Refresh stops when the app has not been opened for this many days (WWDC19 707: "if the
    /// user doesn't come back to your app… we may choose to not launch your task at all"
    /// [A-DTS]); before that it fades (``refreshFadeHalfLifeDays``). Default 21; range 3–60. [Inf]
    public var refreshRecencyDays: Double = 21

    /// The refresh chance halves for every this many days since the app was last in the
    /// foreground: a factor 2^(−days since use ÷ this). Default 3, so that an app left alone
    /// gets about half its refresh a day after three days, a fifth after a week and almost none
    /// after two [Inf]; range 0.5–30.
    public var refreshFadeHalfLifeDays: Double = 3

    /// The same fading for processing's chance per evaluation, within ``processingRecencyDays``.
    /// The chance on the charger is high (0.5 a look), so launches a day fade only with a short
    /// half-life: with 1 day, about 1.1 a day one day after the last use, 0.9 after three, 0.4
    /// after six and none after a week. Default 1 [Inf]; range 0.5–30.
    public var processingFadeHalfLifeDays: Double = 1

    /// Screen-off time after which the device counts as idle for processing tasks, in minutes.
    /// Default 5; range 1–30. [O] (a processing task ran about 5 min after locking)
    public var idleDelayMinutes: Double = 5

    /// Processing runs only if the app was opened within this many days. Default 7 (header:
    /// "used your app within the past week"); range 7–14. [A]
    public var processingRecencyDays: Double = 7

    /// Least time between two processing launches, in hours. Default 8 [Inf] (a developer report
    /// of runs "spaced 10–20 h apart", cited before, could not be found again).
    public var processingMinimumSpacingHours: Double = 8

    /// Chance per evaluation that an eligible processing request runs while the idle device is
    /// charging. Default 0.5. [Inf]
    public var processingChargingChancePerEvaluation: Double = 0.5

    /// Chance per evaluation that an eligible processing request runs on battery. Default 0.01
    /// (about a tenth of eligible idle nights) [Inf].
    public var processingBatteryChancePerEvaluation: Double = 0.01

    /// Battery level below which discretionary work stops unless charging, in percent. Default 20
    /// (WWDC20: "below 20%, essential work only" [A-via]).
    public var criticalBatteryPercent: Double = 20
}

extension SystemParameters: ScenarioSection {
    package static let numberFields: [NumberField<SystemParameters>] = [
        NumberField("extensionBudgetSeconds", \.extensionBudgetSeconds, valid: 1...600),
        NumberField("expirationLeadSeconds", \.expirationLeadSeconds, valid: 0...600, plausible: 1...10),
        NumberField("refreshRuntimeSeconds", \.refreshRuntimeSeconds, valid: 1...300),
        NumberField("refreshEarlyExpiryProbability", \.refreshEarlyExpiryProbability, valid: 0...1, plausible: 0...0.3),
        NumberField("processingEarlyExpiryProbability", \.processingEarlyExpiryProbability, valid: 0...1, plausible: 0.1...0.9),
        NumberField("processingEarlyExpiryMinimumSeconds", \.processingEarlyExpiryMinimumSeconds, valid: 1...600, plausible: 1...60),
        NumberField("processingMaxRuntimeMinutes", \.processingMaxRuntimeMinutes, valid: 0.5...240, plausible: 3...30),
        NumberField("taskCompletionGraceSeconds", \.taskCompletionGraceSeconds, valid: 0...60, plausible: 1...10),
        NumberField("throttlePenaltyHours", \.throttlePenaltyHours, valid: 0...168, plausible: 2...48),
        NumberField("suspendedTerminationPerHour", \.suspendedTerminationPerHour, valid: 0...10, plausible: 0.01...0.2),
        NumberField("cpuMonitorPercent", \.cpuMonitorPercent, valid: 1...100),
        NumberField("cpuMonitorSeconds", \.cpuMonitorSeconds, valid: 1...3_600, plausible: 60...180),
    ]

    package func validateRelations(_ v: inout ParameterValidator) {
        // The expiration handlers run within the budget; an early expiry comes before the cap.
        if expirationLeadSeconds <= 600 { v.check(expirationLeadSeconds, from: 0, to: extensionBudgetSeconds, "expirationLeadSeconds") }
        if processingEarlyExpiryMinimumSeconds <= 600 {
            v.check(processingEarlyExpiryMinimumSeconds, from: 1, to: Swift.min(600, processingMaxRuntimeMinutes * 60),
                    "processingEarlyExpiryMinimumSeconds")
        }
        heuristic.validate(&v, at: "heuristic")
        budget.validate(&v, at: "budget")
        continuedProcessing.validate(&v, at: "continuedProcessing")
        backgroundURLSession.validate(&v, at: "backgroundURLSession")
        push.validate(&v, at: "push")
        replay.validate(&v, launchModel: launchModel)
    }
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
