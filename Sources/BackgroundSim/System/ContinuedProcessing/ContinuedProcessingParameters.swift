/// How the system runs continued-processing tasks (`BGContinuedProcessingTask`, iOS and
/// iPadOS 26): the scenario's `system.continuedProcessing` section.
///
/// Apple's rules [A] (BGContinuedProcessingTaskRequest, its `SubmissionStrategy`, and
/// "Performing long-running tasks on iOS and iPadOS", developer.apple.com): the request is
/// submitted from the foreground on the user's action and starts at once if it can; with the
/// `queue` strategy it waits while the system runs its maximum of such tasks, with `fail` the
/// submit throws `immediateRunIneligible`; queued requests are cancelled when the user swipes
/// the app away; the app reports progress, and tasks with "minimal or no progress" are ended
/// first; the user can cancel the task from its Live Activity. There is no fixed time limit
/// (an Apple engineer on the developer forums, thread 818623 [A-DTS]): the task ends when the
/// app completes it, when the user cancels it, or when the system expires it. The numbers
/// below are not published; every one is our inference [Inf].
///
/// The header also says that users can turn these tasks off ([A]: ``userTurnedOff``) and that
/// the system's load can keep a task from starting at once (the `queue` strategy waits, `fail`
/// throws; the model's load is the slots, ``maximumConcurrentTasks``). Developers report tasks
/// that never start on some devices with no error (developer forums, thread 805088 [O]:
/// ``neverStartsProbability``) and tasks expired seconds after the app leaves the foreground
/// despite progress every 20–30 s (thread 805554 [O]: ``earlyExpiryProbability``); no rate is
/// reported, so both are off by default, to be swept.
///
/// Not modelled: the Live Activity and its title and subtitle, GPU resources
/// (`requiredResources`), and other apps' demand on the slots.
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct ContinuedProcessingParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// Most continued-processing tasks of the app running at once; more wait (the `queue` strategy)
    /// or are refused (`fail`). [Inf].
    public var maximumConcurrentTasks: Int = 2

    /// How long a running task may go without progress before the system may expire it, in
    /// seconds. The app's work executor making progress counts as progress (an app reports its
    /// upload's bytes as they go), as does
    /// ``BackgroundTask/updateProgress(completedUnitCount:totalUnitCount:)``. [Inf].
    public var progressTimeoutSeconds: Double = 60

    /// Whether a task that has made no progress for ``progressTimeoutSeconds`` is expired only
    /// while the phone's resources are constrained. Apple: the system "prioritizes the
    /// termination of tasks that reflect minimal or no progress, when resources become
    /// constrained" (`BGContinuedProcessingTask` [A]). What counts as constrained is our
    /// inference [Inf]: the thermal state serious or worse, Low Power Mode, the battery below the
    /// launch model's floor (``HeuristicLaunchParameters/criticalBatteryPercent``) off the
    /// charger, or another continued-processing request waiting for a slot. Unconstrained, a
    /// stalled task runs on and the system looks again every ``progressTimeoutSeconds``. Default
    /// true; false expires every stalled task at the timeout, as the model did before
    /// December 2026.
    public var stallEndsOnlyUnderPressure = true

    /// The chance that the user cancels a task from its Live Activity before it ends. [Inf].
    public var userCancelProbability: Double = 0.05

    /// When the user cancels, the mean time from the task's start, in minutes (exponential). [Inf].
    public var userCancelMeanMinutes: Double = 5

    /// Whether the user has turned continued-processing tasks off for the app in Settings:
    /// every submit is refused (`unavailable` [Inf]). Default false [A: the header says users
    /// can turn them off].
    public var userTurnedOff = false

    /// The chance that this phone never starts a continued-processing task: submits succeed and the
    /// launch handler is never called, as developers report for some device models (thread 805088
    /// [O]). Drawn once per phone, from the labelled stream `system.continuedProcessing.device`.
    /// [Inf] (no rate is reported).
    public var neverStartsProbability: Double = 0

    /// The chance, for each running task when the app leaves the foreground, that the system
    /// expires it ``earlyExpirySeconds`` later whatever its progress (thread 805554 [O]). [Inf] (no
    /// rate is reported).
    public var earlyExpiryProbability: Double = 0

    /// How soon after the app leaves the foreground such an early expiry comes, in seconds. [O] ("a
    /// few seconds after the task is backgrounded").
    public var earlyExpirySeconds: Double = 5
}

extension ContinuedProcessingParameters: ScenarioSection {
    package static let numberFields: [NumberField<ContinuedProcessingParameters>] = [
        NumberField("maximumConcurrentTasks", \.maximumConcurrentTasks, valid: 1...16, plausible: 1...4),
        NumberField("progressTimeoutSeconds", \.progressTimeoutSeconds, valid: 1...3_600, plausible: 10...300),
        NumberField("userCancelProbability", \.userCancelProbability, valid: 0...1, plausible: 0...0.3),
        NumberField("userCancelMeanMinutes", \.userCancelMeanMinutes, valid: 0.1...1_440, plausible: 1...30),
        NumberField("neverStartsProbability", \.neverStartsProbability, valid: 0...1, plausible: 0...0.2),
        NumberField("earlyExpiryProbability", \.earlyExpiryProbability, valid: 0...1, plausible: 0...0.3),
        NumberField("earlyExpirySeconds", \.earlyExpirySeconds, valid: 0...600, plausible: 1...30),
    ]
}
