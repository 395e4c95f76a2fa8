/// The iOS background-execution model's parameters.
///
/// Callbacks into the app take no simulated time, so `didEnterBackground`'s 5 s budget [A]
/// cannot be overrun and has no parameter: work that takes time must hold a background-task
/// assertion or run in a task, as on iOS.
///
/// Tags: [A] Apple documentation or WWDC sessions, [A-DTS] an Apple engineer (Developer
/// Technical Support, the developer forums), [A-via] Apple as reported by third parties, [O]
/// observed by developers in the field, [Inf] our inference; docs/SOURCES.md gives each source.
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct SystemParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// Which launch model to use. Default `heuristic`.
    public var launchModel: LaunchModelKind = .heuristic

    /// The logged launches the `replay` launch model grants. Default none.
    public var replay = ReplayedLaunches()

    /// The background-task assertion budget from entering the background, shared by all assertions,
    /// in seconds (older iOS versions gave 180 s, and 600 s before that). [A-DTS/O]
    public var extensionBudgetSeconds: Double = 30

    /// How long before the budget ends the assertions' expiration handlers are called, in seconds.
    /// [Inf]
    public var expirationLeadSeconds: Double = 3

    /// How long an app refresh task may run, in seconds. [A]/[O]
    public var refreshRuntimeSeconds: Double = 30

    /// Probability that a refresh task is expired early, 2–5 s after launch. Production apps have
    /// seen this [O]; the rate is [Inf].
    public var refreshEarlyExpiryProbability: Double = 0.1

    /// Longest a processing task runs while the device stays idle, in minutes. [Inf]
    public var processingMaxRuntimeMinutes: Double = 10

    /// Probability that the system expires a processing task early, before
    /// ``processingMaxRuntimeMinutes``: Proton Drive's design notes that the OS "usually expires a
    /// BG task in anything between a few seconds and a few minutes" [C] (ProtonDriveApps/ios-drive,
    /// `BackgroundOperations.md`). "Usually" is taken as half [Inf].
    public var processingEarlyExpiryProbability: Double = 0.5

    /// The shortest early processing allotment, in seconds: an early allotment is drawn
    /// log-uniformly between this and the cap ("a few seconds to a few minutes" [C]; median √(5 ×
    /// 600) ≈ 55 s with the defaults). [C]/[Inf].
    public var processingEarlyExpiryMinimumSeconds: Double = 5

    /// Time after a task's expiration handler in which it must call `setTaskCompleted`, in seconds,
    /// before the system kills the app. [Inf] ("a few seconds")
    public var taskCompletionGraceSeconds: Double = 3

    /// After a kill for not completing a task, how long the system launches no background tasks for
    /// the app, in hours. WWDC22 10142: overrunning apps are "throttled for future background task
    /// requests" [A-DTS]; the length is [Inf].
    public var throttlePenaltyHours: Double = 12

    /// Rate at which the system terminates a suspended app to reclaim memory (jetsam), per hour.
    /// The default gives a suspended app about 20 h on average. That suspended apps are
    /// terminated for memory is Apple's [A]; the rate is [Inf].
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

    /// The CPU monitor for processing tasks: the app is killed if it uses more than this share of a
    /// core … [O] "exceeding limit of 80% cpu over 60 seconds" (the system's
    /// `cumulativeCPUResourceLimitExitCount` reports). A task whose request requires external power
    /// is not watched [A] (`BGTaskRequest.h`: requiring external power disables the CPU monitor).
    public var cpuMonitorPercent: Double = 80

    /// … for this long, in seconds. [O]
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

    /// Silent pushes: the burst allowance, the device's budget and the time a push gives the app
    /// (the server's sends are the scenario's `pushes`).
    public var push = PushParameters()

    /// The phone's other apps' demand on the budgets the device shares: their background pushes.
    public var otherApps = OtherAppsParameters()
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
        otherApps.validate(&v, at: "otherApps")
        replay.validate(&v, launchModel: launchModel)
    }
}
