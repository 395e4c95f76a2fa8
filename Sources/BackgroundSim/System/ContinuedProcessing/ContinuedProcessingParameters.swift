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
/// Not modelled: the Live Activity and its title and subtitle, GPU resources
/// (`requiredResources`), the user switching these tasks off in Settings, and expiry for
/// reasons other than stalled progress (other apps' demand, thermal pressure).
public struct ContinuedProcessingParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// Most continued-processing tasks of the app running at once; more wait (the `queue`
    /// strategy) or are refused (`fail`). Default 2 [Inf]; valid 1–16.
    public var maximumConcurrentTasks: Int = 2

    /// How long a running task may go without progress before the system expires it, in
    /// seconds. The app's work executor making progress counts as progress (an app reports its
    /// upload's bytes as they go), as does ``BackgroundTask/updateProgress(completedUnitCount:totalUnitCount:)``.
    /// Default 60 [Inf]; plausible 10–300; valid 1–3,600.
    public var progressTimeoutSeconds: Double = 60

    /// The chance that the user cancels a task from its Live Activity before it ends. Default
    /// 0.05 [Inf]; plausible 0–0.3; valid 0–1.
    public var userCancelProbability: Double = 0.05

    /// When the user cancels, the mean time from the task's start, in minutes (exponential).
    /// Default 5 [Inf]; plausible 1–30; valid 0.1–1,440.
    public var userCancelMeanMinutes: Double = 5
}

extension ContinuedProcessingParameters: ScenarioSection {
    package static let numberFields: [NumberField<ContinuedProcessingParameters>] = [
        NumberField("maximumConcurrentTasks", \.maximumConcurrentTasks, valid: 1...16),
        NumberField("progressTimeoutSeconds", \.progressTimeoutSeconds, valid: 1...3_600),
        NumberField("userCancelProbability", \.userCancelProbability, valid: 0...1),
        NumberField("userCancelMeanMinutes", \.userCancelMeanMinutes, valid: 0.1...1_440),
    ]
}
