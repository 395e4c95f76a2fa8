/// Fixed-size counters of what the iOS model did.
public struct SystemMetrics: Sendable, Equatable {
    public var refreshLaunches = 0
    public var processingLaunches = 0
    /// Continued-processing tasks started (iOS 26).
    public var continuedProcessingLaunches = 0
    /// Cold launches of the process to deliver a task.
    public var backgroundProcessLaunches = 0
    /// Background wakes: cold launches and resumes of a suspended app to deliver tasks, each
    /// charged the launch overhead.
    public var backgroundWakes = 0
    /// Task expirations, by cause: time up (including early expiry), user activity, power lost,
    /// network lost.
    public var expirations = 0
    public var expirationsForUserActivity = 0
    public var expirationsForPowerLoss = 0
    public var expirationsForNetworkLoss = 0
    /// Continued-processing tasks expired for stalled progress, and cancelled by the user.
    public var expirationsForNoProgress = 0
    public var expirationsForUserCancel = 0
    public var tasksCompletedSuccessfully = 0
    public var tasksCompletedUnsuccessfully = 0
    /// `setTaskCompleted` calls after the first, for the same task.
    public var duplicateCompletions = 0
    /// Launch opportunities the system passed up because the app was being throttled.
    public var throttledLaunches = 0
    /// Every launch decision, by task kind and outcome: why requests waited.
    public var launchDecisions = LaunchDecisionCounts()
    public var submits = 0
    /// Submit errors by `TaskSchedulerError.Code.rawValue` (index 0 unused).
    public var submitErrors = [0, 0, 0, 0, 0]
    public var assertionsBegun = 0
    public var assertionExpirations = 0
    /// Launches by local hour of day.
    public var launchHourHistogram = [Int](repeating: 0, count: 24)
    public var launchesWhileCharging = 0
    /// Background URL sessions: transfers the app handed to a session, transfers a force-quit
    /// cancelled, launches (or resumes) of the app for a session's events, launches the system
    /// put off (a rule or a budget), and completion handlers the app did not call in time.
    public var sessionTransfersCreated = 0
    public var sessionTransfersCancelled = 0
    public var sessionRelaunches = 0
    public var sessionRelaunchesDeferred = 0
    public var sessionCompletionHandlersNotCalled = 0
    /// Silent pushes: sent by the server, replaced by a newer one before delivery (only the
    /// newest is kept), discarded (force-quit), held back at a delivery attempt (a rule, the
    /// spacing or a budget), delivered to the app (foreground or background), and apps
    /// terminated for not calling the completion handler in time.
    public var pushesSent = 0
    public var pushesCoalesced = 0
    public var pushesDiscarded = 0
    public var pushesDeferred = 0
    public var pushesDelivered = 0
    public var pushKills = 0
    public var registrationCrashes = 0
    public var unregisteredLaunchCrashes = 0
    public var forceQuitTerminations = 0
    public var powerOffTerminations = 0

    // MXBackgroundExitData
    public var normalAppExits = 0
    public var abnormalExits = 0
    public var appWatchdogExits = 0
    public var backgroundTaskAssertionTimeoutExits = 0
    public var cpuResourceLimitExits = 0
    public var memoryPressureExits = 0

    // MXAppRunTimeMetric
    public var foregroundSeconds = 0.0
    public var backgroundSeconds = 0.0

    public init() {}

    /// Background task launches of both kinds.
    public var launches: Int { refreshLaunches + processingLaunches }
}
