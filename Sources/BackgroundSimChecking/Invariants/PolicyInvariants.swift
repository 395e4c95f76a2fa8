import BackgroundSim
import SimKernel

// Invariants of a well-behaved policy: a violation is a bug in the app's background code.

/// Every launched background task gets exactly one `setTaskCompleted`, unless the process ends
/// first for a reason that is not the task's (force-quit, memory pressure, power off). A task the
/// system kills for never completing, and a second `setTaskCompleted`, are violations.
public struct TaskCompletedExactlyOnce: Invariant {
    public let name = "taskCompletedExactlyOnce"
    /// Launched and not yet completed: serial, and when it expired.
    private var open: [(serial: UInt32, expired: SimInstant?)] = []

    public init() {}

    public mutating func observe(_ entry: SystemLogEntry, in run: inout RunContext) {
        switch entry.event {
        case .taskLaunch(_, _, let serial, _):
            open.append((serial, nil))
        case .taskExpire(_, let serial, _):
            if let index = open.firstIndex(where: { $0.serial == serial }) { open[index].expired = entry.time }
        case .taskCompleted(_, let serial, _):
            open.removeAll { $0.serial == serial }
        case .duplicateCompletion(let identifier, let serial):
            run.fail("setTaskCompleted called again on \(identifier) (task \(serial))")
        case .kill(.taskNotCompleted(let identifier, let serial)):
            let task = open.first { $0.serial == serial }
            let since = task?.expired.map { " \(Format.duration($0.duration(to: entry.time))) after it expired" } ?? ""
            run.fail("never called setTaskCompleted for \(identifier): killed\(since)")
        case .terminate:
            open.removeAll()
        default:
            break
        }
    }
}

/// The app never holds a background-task assertion past its budget (the system would kill it:
/// `cumulativeBackgroundTaskAssertionTimeoutExitCount`).
public struct NoAssertionLeaks: Invariant {
    public let name = "noAssertionLeaks"

    public init() {}

    public mutating func observe(_ entry: SystemLogEntry, in run: inout RunContext) {
        if case .kill(.backgroundTaskAssertionTimeout) = entry.event {
            run.fail("held a background-task assertion past its budget and was killed")
        }
    }
}

/// The app never crashes: on the task scheduler's rules (registering after launch or twice,
/// a launch with no handler registered), or in its own code (a trap, a bad access, a wait that
/// cannot end), with the last line the app's process wrote, which for a trap is the runtime's
/// message.
public struct NoCrashes: Invariant {
    public let name = "noCrashes"
    /// The last line the app's current process wrote.
    private var lastOutput: String?

    public init() {}

    public mutating func observe(_ entry: SystemLogEntry, in run: inout RunContext) {
        switch entry.event {
        case .launch:
            lastOutput = nil
        case .appOutput(let line):
            lastOutput = line
        case .crash(let reason, let identifier):
            let said = reason.isAppCode ? lastOutput.map { " (its last output: \"\($0)\")" } ?? "" : ""
            run.fail("crashed (\(reason.rawValue)): \(Self.explanation(of: reason, identifier: identifier))\(said)")
        default:
            break
        }
    }

    /// What the app did wrong, and what to do instead.
    static func explanation(of reason: CrashReason, identifier: String) -> String {
        switch reason {
        case .noLaunchHandler:
            "the system launched \(identifier) in the background and no launch handler was registered for it; "
                + "register every handler in didFinishLaunching, before it returns (a scene delegate's callbacks do not run in a background launch)"
        case .registrationAfterLaunch:
            "registered a launch handler for \(identifier) after didFinishLaunching returned"
        case .duplicateRegistration:
            "registered a launch handler for \(identifier) twice"
        case .asyncWorkDidNotSettle:
            "the app's async work did not settle: it ran more jobs at one simulated instant than the executor allows "
                + "(a loop that never sleeps or waits?)"
        case .concurrencyUnsupported:
            "the app's own code could not run: this Swift runtime lacks the hooks simulated concurrency needs "
                + "(docs/RUN-YOUR-OWN-CODE.md, \"Supported toolchains\")"
        case .nonPropertyListDefault:
            "the app's own code stored a value that is not a property list in UserDefaults, which iOS refuses with an exception; "
                + "store Bool, numbers, String, Date, Data, and arrays and dictionaries of them (encode other types to Data first)"
        case .appCodeTrapped:
            "the app's own code trapped: a Swift runtime error (a force-unwrapped nil, fatalError, a failed precondition, "
                + "an index out of range, an overflow)"
        case .appCodeBadAccess:
            "the app's own code read or wrote memory it may not"
        case .appCodeAborted:
            "a signal ended the app's own code (abort() among them)"
        case .appCodeExited:
            "the app's own code called exit"
        case .blockingWait:
            "the app's own code waited for something that cannot happen while it waits in simulated time "
                + "(a semaphore or group wait, or sync onto the queue it runs on); its output names the file and line"
        }
    }
}

/// The policy's own promise: every submitted request of `identifier` asks to begin between
/// `minutes.lowerBound` and `minutes.upperBound` minutes from now (bounded backoff).
public struct EarliestBeginWithin: Invariant {
    public let name: String
    public let identifier: String
    public let minutes: ClosedRange<Double>

    public init(identifier: String, minutes: ClosedRange<Double>) {
        self.identifier = identifier
        self.minutes = minutes
        name = "earliestBeginWithin(\(Int(minutes.lowerBound))–\(Int(minutes.upperBound)) min)"
    }

    public mutating func observe(_ entry: SystemLogEntry, in run: inout RunContext) {
        guard case .submit(identifier, _, let earliestBeginIn) = entry.event else { return }
        let delay = earliestBeginIn.seconds / 60
        // A millisecond of slack for the conversion through the device clock.
        if delay < minutes.lowerBound - 1e-5 || delay > minutes.upperBound + 1e-5 {
            run.fail("submitted \(identifier) to begin in \(Format.minutes(delay)), outside \(Format.minutes(minutes.lowerBound))–\(Format.minutes(minutes.upperBound))")
        }
    }
}

/// The policy's own promise, a rate limit: successful runs of its work (ending with the queue
/// empty or the run's limit reached) are at least `minutes` apart — except across a jump of the
/// device clock when `exceptAfterClockJump` (a limit kept on the device clock, like CoverDrop's).
public struct MinimumRunInterval: Invariant {
    public let name: String
    public let minutes: Double
    public let exceptAfterClockJump: Bool
    private var lastSuccess: SimInstant?

    public init(minutes: Double, exceptAfterClockJump: Bool = true) {
        self.minutes = minutes
        self.exceptAfterClockJump = exceptAfterClockJump
        name = "minimumRunInterval(\(Format.minutes(minutes)))"
    }

    public mutating func observe(_ entry: SystemLogEntry, in run: inout RunContext) {
        switch entry.event {
        case .workQueueEmpty, .workLimitReached: break
        default: return
        }
        if let lastSuccess, lastSuccess.duration(to: entry.time) < .minutes(minutes) {
            run.fail("a run succeeded \(Format.duration(lastSuccess.duration(to: entry.time))) after the previous one")
        }
        lastSuccess = entry.time
    }

    public mutating func observe(_ event: DeviceEvent?, device: borrowing Device, system: SimulatedSystem, in run: inout RunContext) {
        if exceptAfterClockJump, case .clockJump? = event { lastSuccess = nil }
    }
}

/// Liveness: every work item completes within `hours` of being created (for work created when
/// the user opens the app: of the user opening it). Checked as the run goes — an item still
/// queued past the bound, or completed later than it — and so also for items still queued at
/// the end.
public struct WorkCompletesWithin: Invariant {
    public let name: String
    public let hours: Double
    private var reported: SimInstant?
    private var reportedLatency = false

    public init(hours: Double) {
        self.hours = hours
        name = "workCompletesWithin(\(Format.number(hours)) h)"
    }

    public mutating func observe(_ event: DeviceEvent?, device: borrowing Device, system: SimulatedSystem, in run: inout RunContext) {
        let bound = SimDuration.hours(hours)
        if let oldest = system.work.oldestQueuedItemCreation, oldest.duration(to: run.now) > bound, reported != oldest {
            reported = oldest
            run.fail("a work item created at \(oldest) is still queued \(Format.duration(oldest.duration(to: run.now))) later")
        }
        let latency = system.work.metrics.latency
        if !reportedLatency, latency.count > 0, latency.maximum > hours * 3_600 {
            reportedLatency = true
            run.fail("a work item completed \(Format.number(latency.maximum / 3_600)) h after it was created")
        }
    }
}

/// A policy that works in the foreground does so from the moment the app is there: work queued
/// while the app is in the foreground is started (``WorkController/start(limit:)``) within `minutes`.
///
/// Catches the classic slip of starting work only in `willEnterForeground`, which iOS does not
/// call when the user's tap cold-launches the app: after such a launch, work added while the
/// user looks at the app waits for the background. Not in ``Invariants/policy``, since some
/// designs leave work to the background on purpose; add it where the policy promises foreground
/// work:
///
///     checker.invariants.append(WorkStartsInTheForeground())
public struct WorkStartsInTheForeground: Invariant {
    public let name: String
    public let minutes: Double
    /// Since when the app has been in the foreground with work queued and not started.
    private var waitingSince: SimInstant?
    private var reported = false

    /// - Parameter minutes: How long the work may wait in the foreground: default 1 [Inf]
    ///   (sessions last a minute or so; a policy that starts work at all starts it at once).
    public init(minutes: Double = 1) {
        self.minutes = minutes
        name = "workStartsInTheForeground(\(Format.minutes(minutes)))"
    }

    public mutating func observe(_ event: DeviceEvent?, device: borrowing Device, system: SimulatedSystem, in run: inout RunContext) {
        // Checked before the state is updated, so that a session that ends with the work never
        // started is caught at its end.
        if let since = waitingSince, !reported, since.duration(to: run.now) > .minutes(minutes) {
            reported = true
            run.fail("the app has been in the foreground for \(Format.duration(since.duration(to: run.now))) with work queued "
                     + "and not started (work started only in willEnterForeground misses a launch by the user)")
        }
        let waiting = system.processState == .foreground && system.work.oldestQueuedItemCreation != nil && !system.work.isStarted
        if waiting {
            waitingSince = waitingSince ?? run.now
        } else {
            waitingSince = nil
            reported = false
        }
    }
}

/// The invariants every policy should keep, and the model's own.
public enum Invariants {
    /// The simulated world's invariants: time, battery, energy, submit limits, work only while
    /// running, the assertion budget, nothing running while the phone is off.
    public static var model: [any Invariant] {
        [TimeMovesForward(), BatteryWithinBounds(), EnergyLedgerBalances(), SubmitLimitsRespected(),
         NoWorkWhileSuspended(), AssertionBudgetEnforced(), NothingRunsWhilePhoneOff()]
    }

    /// What every policy must do: complete each task exactly once, never leak an assertion,
    /// never crash on the scheduler's rules; and at the other doors, call a URL session's
    /// completion handler, complete each continued-processing task once, and finish a push's
    /// work within its time.
    public static var policy: [any Invariant] {
        [TaskCompletedExactlyOnce(), NoAssertionLeaks(), NoCrashes(),
         SessionCompletionHandlerCalled(), ContinuedProcessingCompletedOnce(), PushWorkWithinBudget()]
    }

    /// The library: ``model`` and ``policy``.
    public static var standard: [any Invariant] { model + policy }

    /// What the policy with the parameters of `scenario.app.policy` promises about itself
    /// (``PolicyParameters/promises``: CoverDrop's bounded delays and, as designed, its hourly
    /// limit), each as its invariant; and what the scenario's own metrics declare
    /// (``declaredByAppMetrics(of:)``).
    public static func declared(by scenario: Scenario) -> [any Invariant] {
        declaredByAppMetrics(of: scenario) + scenario.app.policy.parameters.promises.map(invariant(keeping:))
    }

    /// The invariant that holds a run to `promise`.
    public static func invariant(keeping promise: PolicyPromise) -> any Invariant {
        switch promise {
        case .earliestBeginWithin(let identifier, let minutes): EarliestBeginWithin(identifier: identifier, minutes: minutes)
        case .minimumRunInterval(let minutes): MinimumRunInterval(minutes: minutes)
        }
    }
}
