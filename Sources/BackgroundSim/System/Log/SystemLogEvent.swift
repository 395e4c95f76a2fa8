import SimKernel

/// One thing the iOS model did: a lifecycle transition, a scheduler call, a launch decision, a
/// task's launch, expiration or completion, an assertion, a kill or a crash.
///
/// The system's log is a stream of these, each with its time (``SystemLogEntry``). Checkers,
/// trace builders and tests switch on the cases, so the compiler tells them when one changes;
/// `bgsim run --trace` writes each as a JSON line whose `event` is ``Kind/rawValue`` and whose
/// other fields are the payload (see `docs/OUTPUT.md`).
///
///     SimulationRunner.run(scenario: scenario, seed: 1, days: 7, log: { entry in
///         if case .taskLaunch(let identifier, _, _) = entry.event { print(entry.time, identifier) }
///     })
public enum SystemLogEvent: Sendable, Equatable {
    // MARK: Process lifecycle

    /// A new process started and `didFinishLaunching` ran.
    case launch(reason: LaunchReason)
    /// A running (background or suspended) app returned to the foreground.
    case willEnterForeground
    /// The app left the foreground.
    case didEnterBackground
    /// `applicationWillTerminate` ran (a force-quit while running in the background).
    case willTerminate
    /// The app was suspended: nothing held it running in the background.
    case suspend
    /// A suspended app was resumed in the background, for `reason` (the door that woke it).
    case resume(reason: LaunchReason)
    /// The process ended.
    case terminate(reason: TerminationReason)
    /// The user force-quit the app; its pending requests were cleared if the model says so.
    case forceQuit(pendingRequestsCleared: Bool)
    /// The user opened a force-quit app: background launches are allowed again.
    case forceQuitFlagCleared
    /// The phone started again after a restart or an empty battery: a force-quit no longer holds
    /// the app back (`forceQuitFlagCleared` if one did), and pending requests were deleted if the
    /// model says so (``SystemParameters/restartDropsPendingRequests``).
    case phoneStarted(forceQuitFlagCleared: Bool, pendingRequestsCleared: Bool)
    /// The system killed the app (a ``terminate(reason:)`` follows).
    case kill(KillReason)
    /// The app did something the task scheduler crashes it for, or its own code crashed.
    case crash(reason: CrashReason, identifier: String)
    /// A line the app's own code wrote to its standard output or error (`print`, a trap's
    /// message), in a process of its own under SimulatedBackgroundTasks: the device's log.
    case appOutput(line: String)
    /// The app's code emitted a signpost (`mxSignpost`, `os_signpost`, an `OSSignposter`'s
    /// interval or event), from which its own metrics are measured (``AppMetrics``).
    case signpost(AppSignpost)

    // MARK: The task scheduler

    /// A request was accepted; it may begin `earliestBeginIn` from now at the earliest (zero
    /// for a continued-processing request, which starts as soon as a slot is free).
    case submit(identifier: String, kind: BackgroundTask.Kind, earliestBeginIn: SimDuration)
    /// A request was refused.
    case submitError(identifier: String, error: TaskSchedulerError.Code)
    /// `cancel(taskRequestWithIdentifier:)`.
    case cancel(identifier: String)
    /// `cancelAllTaskRequests()`.
    case cancelAll
    /// A launch evaluation considered a pending request: launched, or not, and why.
    case launchDecision(identifier: String, kind: TaskRequest.Kind, decision: LaunchDecision)
    /// A pending request will next be evaluated later than the system's next look (`nil`: not
    /// until something changes, such as the user opening the app), and why: it is not due yet,
    /// or the launch model could not launch it at the evaluations in between, which are not made.
    case launchDeferred(identifier: String, kind: TaskRequest.Kind, nextEvaluationIn: SimDuration?, reason: LaunchDenial)

    // MARK: Tasks

    /// A task was delivered to the app, with `allotment` to run before it expires (zero for a
    /// task with none: continued processing, or a debugger's launch).
    case taskLaunch(identifier: String, kind: BackgroundTask.Kind, serial: UInt32, allotment: SimDuration)
    /// A task's expiration handler was called.
    case taskExpire(identifier: String, serial: UInt32, cause: ExpirationCause)
    /// The app called `setTaskCompleted(success:)` for the first time on a task.
    case taskCompleted(identifier: String, serial: UInt32, success: Bool)
    /// The app called `setTaskCompleted(success:)` again on the same task (a bug).
    case duplicateCompletion(identifier: String, serial: UInt32)
    /// The system cancelled the Swift task running the app's async action for a task, because
    /// the task expired before the action returned, as SwiftUI's `backgroundTask(_:action:)`
    /// does [A]. Recorded after the `taskExpire` it follows.
    case taskActionCancelled(identifier: String, serial: UInt32)
    /// A `_simulateLaunchForTaskWithIdentifier:` from the scenario's `debugger` section, and what
    /// came of it (a launch follows as `taskLaunch`).
    case simulatedLaunch(identifier: String, outcome: DebuggerOutcome)
    /// A `_simulateExpirationForTaskWithIdentifier:` from the scenario's `debugger` section, and
    /// what came of it (an expiration follows as `taskExpire`).
    case simulatedExpiration(identifier: String, outcome: DebuggerOutcome)

    // MARK: Continued processing

    /// A continued-processing request waits for a free slot (the `queue` strategy).
    case continuedProcessingQueued(identifier: String)
    /// The process ended with `count` continued-processing requests still queued; they are gone.
    case continuedProcessingQueueCancelled(count: UInt32)

    // MARK: Background URL sessions

    /// The app handed `count` transfers to the background session `session`, discretionary or
    /// not; created in the background, they may start only after `startsIn` (the resume rate
    /// limiter's delay; zero in the foreground).
    case sessionTransfersCreated(session: String, count: UInt32, discretionary: Bool, startsIn: SimDuration)
    /// A force-quit cancelled `count` of the session's transfers; they are back in the app's queue.
    case sessionTransfersCancelled(session: String, count: UInt32)
    /// Every transfer of `session` has finished while the app was not running; the system will
    /// launch or resume it for the events (if the session sends launch events; if not, they
    /// wait for the app to run).
    case sessionEventsPending(session: String)
    /// The system did not launch the app for the session's events now, and why.
    case sessionRelaunchDeferred(session: String, reason: LaunchDenial)
    /// The app was launched or resumed and `handleEventsForBackgroundURLSession` called.
    case handleSessionEvents(session: String)
    /// The app called the completion handler it was given.
    case sessionCompletionHandlerCalled(session: String)
    /// The events' time ran out before the app called the completion handler (a bug).
    case sessionCompletionHandlerNotCalled(session: String)

    // MARK: Silent pushes

    /// A silent push from the app's server reached the phone; the system holds it.
    case pushReceived
    /// A push replaced the held one, which is lost (only the newest is kept).
    case pushCoalesced
    /// The push was dropped, and why (a force-quit, or a kill while it was held).
    case pushDiscarded(reason: PushDiscardReason)
    /// The held push was not delivered at this attempt, and why (a rule, the spacing, a budget).
    case pushDeferred(reason: LaunchDenial)
    /// The held push was delivered: to the app in the foreground, or in the background (after a
    /// launch or resume, with 30 s to call the handler).
    case pushDelivered(inBackground: Bool)
    /// The app called the push's completion handler.
    case pushCompletionHandlerCalled

    // MARK: Background-task assertions

    /// `beginBackgroundTask(withName:expirationHandler:)`.
    case beginBackgroundTask(id: BackgroundTaskIdentifier, name: String)
    /// `endBackgroundTask(_:)` for a held assertion.
    case endBackgroundTask(id: BackgroundTaskIdentifier)
    /// An assertion's expiration handler was called, shortly before the budget ends.
    case backgroundTaskExpiring(id: BackgroundTaskIdentifier)

    // MARK: Work

    /// The policy started the work executor, with an optional limit on the items this run completes.
    case workStart(limit: Int?)
    /// The policy stopped the work executor.
    case workStop
    /// A run emptied the work queue.
    case workQueueEmpty
    /// A run completed its limit of items and stopped.
    case workLimitReached
}

extension SystemLogEvent {
    /// Whether the event means the app's code runs: a launch or resume, a return to the
    /// foreground, a task handed over or expiring, a door's callback, an assertion's
    /// expiration handler. None may happen while the phone is off.
    public var runsAppCode: Bool {
        switch self {
        case .launch, .resume, .willEnterForeground, .didEnterBackground, .willTerminate, .taskLaunch, .taskExpire,
             .handleSessionEvents, .pushDelivered, .backgroundTaskExpiring:
            true
        default:
            false
        }
    }
}

/// A ``SystemLogEvent`` with the time it happened.
public struct SystemLogEntry: Sendable, Equatable {
    /// When it happened, in the simulation's true time.
    public var time: SimInstant
    public var event: SystemLogEvent

    public init(time: SimInstant, event: SystemLogEvent) {
        self.time = time
        self.event = event
    }
}

extension SystemLogEvent {
    /// The case of a ``SystemLogEvent`` without its payload, for filtering; its raw value is the
    /// event's name in traces (`"event":"taskLaunch"`), which never changes when a case is renamed.
    public enum Kind: String, Sendable, CaseIterable {
        case launch = "launch"
        case willEnterForeground = "willEnterForeground"
        case didEnterBackground = "didEnterBackground"
        case willTerminate = "willTerminate"
        case suspend = "suspend"
        case resume = "resume"
        case terminate = "terminate"
        case forceQuit = "forceQuit"
        case forceQuitFlagCleared = "forceQuitFlagCleared"
        case phoneStarted = "phoneStarted"
        case kill = "kill"
        case crash = "crash"
        case appOutput = "appOutput"
        case signpost = "signpost"
        case submit = "submit"
        case submitError = "submitError"
        case cancel = "cancel"
        case cancelAll = "cancelAll"
        case launchDecision = "launchDecision"
        case launchDeferred = "launchDeferred"
        case taskLaunch = "taskLaunch"
        case taskExpire = "taskExpire"
        case taskCompleted = "taskCompleted"
        case duplicateCompletion = "duplicateCompletion"
        case taskActionCancelled = "taskActionCancelled"
        case simulatedLaunch = "simulatedLaunch"
        case simulatedExpiration = "simulatedExpiration"
        case continuedProcessingQueued = "continuedProcessingQueued"
        case continuedProcessingQueueCancelled = "continuedProcessingQueueCancelled"
        case sessionTransfersCreated = "sessionTransfersCreated"
        case sessionTransfersCancelled = "sessionTransfersCancelled"
        case sessionEventsPending = "sessionEventsPending"
        case sessionRelaunchDeferred = "sessionRelaunchDeferred"
        case handleSessionEvents = "handleSessionEvents"
        case sessionCompletionHandlerCalled = "sessionCompletionHandlerCalled"
        case sessionCompletionHandlerNotCalled = "sessionCompletionHandlerNotCalled"
        case pushReceived = "pushReceived"
        case pushCoalesced = "pushCoalesced"
        case pushDiscarded = "pushDiscarded"
        case pushDeferred = "pushDeferred"
        case pushDelivered = "pushDelivered"
        case pushCompletionHandlerCalled = "pushCompletionHandlerCalled"
        case beginBackgroundTask = "beginBackgroundTask"
        case endBackgroundTask = "endBackgroundTask"
        case backgroundTaskExpiring = "backgroundTaskExpiring"
        case workStart = "workStart"
        case workStop = "workStop"
        case workQueueEmpty = "workQueueEmpty"
        case workLimitReached = "workLimitReached"
    }

    /// The event's case.
    public var kind: Kind {
        switch self {
        case .launch: .launch
        case .willEnterForeground: .willEnterForeground
        case .didEnterBackground: .didEnterBackground
        case .willTerminate: .willTerminate
        case .suspend: .suspend
        case .resume: .resume
        case .terminate: .terminate
        case .forceQuit: .forceQuit
        case .forceQuitFlagCleared: .forceQuitFlagCleared
        case .phoneStarted: .phoneStarted
        case .kill: .kill
        case .crash: .crash
        case .appOutput: .appOutput
        case .signpost: .signpost
        case .submit: .submit
        case .submitError: .submitError
        case .cancel: .cancel
        case .cancelAll: .cancelAll
        case .launchDecision: .launchDecision
        case .launchDeferred: .launchDeferred
        case .taskLaunch: .taskLaunch
        case .taskExpire: .taskExpire
        case .taskCompleted: .taskCompleted
        case .duplicateCompletion: .duplicateCompletion
        case .taskActionCancelled: .taskActionCancelled
        case .simulatedLaunch: .simulatedLaunch
        case .simulatedExpiration: .simulatedExpiration
        case .continuedProcessingQueued: .continuedProcessingQueued
        case .continuedProcessingQueueCancelled: .continuedProcessingQueueCancelled
        case .sessionTransfersCreated: .sessionTransfersCreated
        case .sessionTransfersCancelled: .sessionTransfersCancelled
        case .sessionEventsPending: .sessionEventsPending
        case .sessionRelaunchDeferred: .sessionRelaunchDeferred
        case .handleSessionEvents: .handleSessionEvents
        case .sessionCompletionHandlerCalled: .sessionCompletionHandlerCalled
        case .sessionCompletionHandlerNotCalled: .sessionCompletionHandlerNotCalled
        case .pushReceived: .pushReceived
        case .pushCoalesced: .pushCoalesced
        case .pushDiscarded: .pushDiscarded
        case .pushDeferred: .pushDeferred
        case .pushDelivered: .pushDelivered
        case .pushCompletionHandlerCalled: .pushCompletionHandlerCalled
        case .beginBackgroundTask: .beginBackgroundTask
        case .endBackgroundTask: .endBackgroundTask
        case .backgroundTaskExpiring: .backgroundTaskExpiring
        case .workStart: .workStart
        case .workStop: .workStop
        case .workQueueEmpty: .workQueueEmpty
        case .workLimitReached: .workLimitReached
        }
    }
}
