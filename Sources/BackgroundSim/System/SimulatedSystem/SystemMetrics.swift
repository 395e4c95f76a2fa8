import SimKernel

/// What the iOS model did over a run, as a reduction of its log: every figure here is counted by
/// ``record(_:at:)`` from the ``SystemLogEvent``s the system records, keyed by the enums they
/// carry, and nothing else changes it — so the metrics and the log cannot disagree. The time
/// accounts follow the process state the log reports.
///
/// Reports read it through the named figures below (``refreshLaunches``,
/// ``expirations(_:)``, ``terminations(_:)``, …).
public struct SystemMetrics: Sendable, Equatable {
    /// Tasks delivered, by kind (debugger launches included; continued processing counted apart
    /// from the launches the system chose).
    package private(set) var tasksLaunched = CaseCounts<BackgroundTask.Kind>()
    /// Task expirations, by cause.
    package private(set) var expirationsByCause = CaseCounts<ExpirationCause>()
    /// Process ends, by reason.
    package private(set) var terminationsByReason = CaseCounts<TerminationReason>()
    /// Refused submissions, by error.
    package private(set) var submitErrorsByCode = CaseCounts<TaskSchedulerError.Code>()
    /// Crashes on a task scheduler rule, or of the app's own code, by reason.
    package private(set) var crashesByReason = CaseCounts<CrashReason>()
    /// Every launch decision, by task kind and outcome: why requests waited.
    public private(set) var launchDecisions = LaunchDecisionCounts()
    /// Refresh and processing launches by local hour of day.
    public private(set) var launchHourHistogram = [Int](repeating: 0, count: 24)
    /// Refresh and processing launches while the phone was on the charger.
    public private(set) var launchesWhileCharging = 0
    /// Accepted submissions of every kind.
    public private(set) var acceptedSubmits = 0
    /// Cold launches of the process in the background, for any door.
    public private(set) var backgroundProcessLaunches = 0
    /// Background wakes: cold launches in the background and resumes of a suspended app, for
    /// any door, each charged the launch overhead.
    public private(set) var backgroundWakes = 0
    public private(set) var tasksCompletedSuccessfully = 0
    public private(set) var tasksCompletedUnsuccessfully = 0
    /// `setTaskCompleted` calls after the first, for the same task.
    public private(set) var duplicateCompletions = 0
    public private(set) var assertionsBegun = 0
    public private(set) var assertionExpirations = 0
    /// Background URL sessions: transfers the app handed to a session, transfers a force-quit
    /// cancelled, launches (or resumes) of the app for a session's events, deferrals of those
    /// launches (one per waiting session), and completion handlers the app did not call in time.
    public private(set) var sessionTransfersCreated = 0
    public private(set) var sessionTransfersCancelled = 0
    public private(set) var sessionRelaunches = 0
    public private(set) var sessionRelaunchesDeferred = 0
    public private(set) var sessionCompletionHandlersNotCalled = 0
    /// Silent pushes: reaching the phone, replaced by a newer one before delivery (only the
    /// newest is kept), discarded (force-quit), held back at a delivery attempt (a rule, the
    /// spacing, a budget, the phone off), delivered to the app (foreground or background), and
    /// apps killed for not calling the completion handler in time.
    public private(set) var pushesSent = 0
    public private(set) var pushesCoalesced = 0
    public private(set) var pushesDiscarded = 0
    public private(set) var pushesDeferred = 0
    public private(set) var pushesDelivered = 0
    public private(set) var pushKills = 0

    /// `MXAppRunTimeMetric`: time in the foreground and running in the background, in
    /// nanoseconds, by the process state the log reports.
    public private(set) var foregroundNanoseconds: Int64 = 0
    public private(set) var backgroundNanoseconds: Int64 = 0
    /// The process state the log last reported, and until when its time is accounted.
    private var state = SimulatedSystem.ProcessState.notRunning
    private(set) var accountedUntil = SimInstant.start

    public init() {}

    /// Counts `event`, recorded when the phone was as `device` says (its hour and charger count
    /// for task launches).
    package mutating func record(_ event: SystemLogEvent, at device: DeviceSnapshot) {
        defer { checkInvariantsIfEnabled() }
        switch event {
        case .launch(let reason):
            enter(reason == .user ? .foreground : .background, at: device.now)
            if reason != .user {
                backgroundProcessLaunches += 1
                countWake(reason)
            }
        case .resume(let reason):
            enter(.background, at: device.now)
            countWake(reason)
        case .willEnterForeground: enter(.foreground, at: device.now)
        case .didEnterBackground: enter(.background, at: device.now)
        case .suspend: enter(.suspended, at: device.now)
        case .terminate(let reason):
            enter(.notRunning, at: device.now)
            terminationsByReason.add(reason)
        case .kill(let reason):
            if case .pushNotCompleted = reason { pushKills += 1 }
        case .crash(let reason, _): crashesByReason.add(reason)
        case .submit: acceptedSubmits += 1
        case .submitError(_, let code): submitErrorsByCode.add(code)
        case .launchDecision(_, let kind, let decision): launchDecisions.record(decision, kind: kind)
        case .taskLaunch(_, let kind, _, _):
            tasksLaunched.add(kind)
            if kind != .continuedProcessing {
                launchHourHistogram[device.hour] += 1
                if device.isCharging { launchesWhileCharging += 1 }
            }
        case .taskExpire(_, _, let cause): expirationsByCause.add(cause)
        case .taskCompleted(_, _, let success):
            if success { tasksCompletedSuccessfully += 1 } else { tasksCompletedUnsuccessfully += 1 }
        case .duplicateCompletion: duplicateCompletions += 1
        case .sessionTransfersCreated(_, let count, _, _): sessionTransfersCreated += Int(count)
        case .sessionTransfersCancelled(_, let count): sessionTransfersCancelled += Int(count)
        case .sessionRelaunchDeferred: sessionRelaunchesDeferred += 1
        case .sessionCompletionHandlerNotCalled: sessionCompletionHandlersNotCalled += 1
        case .pushReceived: pushesSent += 1
        case .pushCoalesced: pushesCoalesced += 1
        case .pushDiscarded: pushesDiscarded += 1
        case .pushDeferred: pushesDeferred += 1
        case .pushDelivered: pushesDelivered += 1
        case .beginBackgroundTask: assertionsBegun += 1
        case .backgroundTaskExpiring: assertionExpirations += 1
        case .forceQuit, .forceQuitFlagCleared, .phoneStarted, .willTerminate, .cancel, .cancelAll, .launchDeferred, .simulatedLaunch,
             .simulatedExpiration, .taskActionCancelled, .continuedProcessingQueued, .continuedProcessingQueueCancelled, .sessionEventsPending,
             .handleSessionEvents, .sessionCompletionHandlerCalled, .pushCompletionHandlerCalled, .endBackgroundTask, .workStart,
             .workStop, .workQueueEmpty, .workLimitReached, .appOutput, .signpost:
            break
        }
    }

    /// A background wake for `reason`: a launch or resume for a URL session's events counts as
    /// a session relaunch.
    private mutating func countWake(_ reason: LaunchReason) {
        backgroundWakes += 1
        if reason == .backgroundURLSession { sessionRelaunches += 1 }
    }

    /// The process entered `state` at `now`.
    private mutating func enter(_ state: SimulatedSystem.ProcessState, at now: SimInstant) {
        accountTime(until: now)
        self.state = state
    }

    /// Accounts the time since the last account to the process state held during it.
    package mutating func accountTime(until now: SimInstant) {
        precondition(now >= accountedUntil, "SystemMetrics: time accounted until \(now), back from \(accountedUntil)")
        let elapsed = now.nanosecondsSinceStart - accountedUntil.nanosecondsSinceStart
        switch state {
        case .foreground: foregroundNanoseconds += elapsed
        case .background: backgroundNanoseconds += elapsed
        case .notRunning, .suspended: break
        }
        accountedUntil = now
    }

    /// A copy with no launch decisions counted, for tests that compare runs whose evaluations
    /// differ but whose outcomes may not.
    package var withoutLaunchDecisions: SystemMetrics {
        var copy = self
        copy.launchDecisions = LaunchDecisionCounts()
        return copy
    }

    // MARK: Named figures

    public var refreshLaunches: Int { tasksLaunched[.appRefresh] }
    public var processingLaunches: Int { tasksLaunched[.processing] }
    /// Continued-processing tasks started (iOS 26).
    public var continuedProcessingLaunches: Int { tasksLaunched[.continuedProcessing] }
    /// Refresh and processing launches.
    public var launches: Int { refreshLaunches + processingLaunches }
    /// Task expirations of every cause.
    public var expirations: Int { expirationsByCause.total }
    /// Task expirations for `cause`.
    public func expirations(_ cause: ExpirationCause) -> Int { expirationsByCause[cause] }
    /// Process ends for `reason`.
    public func terminations(_ reason: TerminationReason) -> Int { terminationsByReason[reason] }
    /// Refused submissions with `code`.
    public func submitErrors(_ code: TaskSchedulerError.Code) -> Int { submitErrorsByCode[code] }
    /// Every refused submission.
    public var submitErrors: Int { submitErrorsByCode.total }
    /// Crashes for `reason`.
    public func crashes(_ reason: CrashReason) -> Int { crashesByReason[reason] }
    /// Submissions, accepted or refused.
    public var submits: Int { acceptedSubmits + submitErrorsByCode.total }
    /// Launch opportunities passed up because the app was being throttled.
    public var throttledLaunches: Int {
        launchDecisions.count(.appRefresh, .throttled) + launchDecisions.count(.processing, .throttled)
    }
    public var registrationCrashes: Int { crashesByReason[.registrationAfterLaunch] + crashesByReason[.duplicateRegistration] }
    public var unregisteredLaunchCrashes: Int { crashesByReason[.noLaunchHandler] }
    /// Crashes of the app's own code run under SimulatedBackgroundTasks (every reason whose
    /// ``CrashReason/isAppCode`` is true).
    public var appCodeCrashes: Int {
        CrashReason.allCases.reduce(0) { $1.isAppCode ? $0 + crashesByReason[$1] : $0 }
    }
    public var foregroundSeconds: Double { Double(foregroundNanoseconds) / 1e9 }
    public var backgroundSeconds: Double { Double(backgroundNanoseconds) / 1e9 }

    // MARK: MXBackgroundExitData

    /// Exits MetricKit counts as normal: the user's force-quits.
    public var normalAppExits: Int { terminations(.forceQuit) }
    /// Crashes.
    public var abnormalExits: Int { terminations(.crash) }
    /// Kills for a task or an assertion past its time.
    public var backgroundTaskAssertionTimeoutExits: Int { terminations(.taskTimeout) + terminations(.assertionTimeout) }
    public var cpuResourceLimitExits: Int { terminations(.cpuLimit) }
    public var memoryPressureExits: Int { terminations(.memoryPressure) }
}

/// Counts keyed by the cases of an enum, held in a fixed array in ``CountedCase/countOrder``.
package struct CaseCounts<Key: CountedCase>: Sendable, Equatable {
    private var counts = [Int](repeating: 0, count: Key.countOrder.count)

    package init() {}

    /// The count for `key`.
    package subscript(key: Key) -> Int { counts[Self.index(key)] }

    /// Every count together.
    package var total: Int { counts.reduce(0, +) }

    mutating func add(_ key: Key, _ amount: Int = 1) {
        counts[Self.index(key)] += amount
    }

    private static func index(_ key: Key) -> Int {
        guard let index = Key.countOrder.firstIndex(of: key) else { preconditionFailure("CaseCounts: \(key) is not counted") }
        return index
    }
}

/// An enum whose cases ``CaseCounts`` counts, in a stored order (a stored array, so that
/// counting allocates nothing).
package protocol CountedCase: Equatable, Sendable {
    static var countOrder: [Self] { get }
}

extension BackgroundTask.Kind: CountedCase { package static let countOrder = allCases }
extension ExpirationCause: CountedCase { package static let countOrder = allCases }
extension TerminationReason: CountedCase { package static let countOrder = allCases }
extension TaskSchedulerError.Code: CountedCase { package static let countOrder = allCases }
extension CrashReason: CountedCase { package static let countOrder = allCases }
