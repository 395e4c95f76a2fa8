/// Why the process ended. Raw values are the `reason` of `terminate` in traces.
public enum TerminationReason: String, Sendable, Equatable, CaseIterable {
    /// The user swiped the app away in the app switcher.
    case forceQuit = "forceQuit"
    /// The phone turned off (an empty battery).
    case powerOff = "powerOff"
    /// The system reclaimed the suspended app's memory (jetsam).
    case memoryPressure = "memoryPressure"
    /// Killed for not completing a task within the grace period after it expired.
    case taskTimeout = "taskTimeout"
    /// Killed for holding a background-task assertion past its budget.
    case assertionTimeout = "assertionTimeout"
    /// Killed by the CPU monitor (a processing task on battery over its CPU limit).
    case cpuLimit = "cpuLimit"
    /// The app crashed on a task scheduler rule.
    case crash = "crash"

    /// Whether the system ended the app as a penalty (the work in hand is lost, not paused).
    var isKill: Bool { self == .taskTimeout || self == .assertionTimeout || self == .cpuLimit || self == .crash }

    /// Whether the end discards the push the system holds for the app: a force-quit does [A]
    /// (its caller discards it, with the pushes after it), and so does any kill, by the system
    /// or a crash: "if something force quits or kills the app, the system discards held
    /// notifications" [A]; a phone that turns off keeps it [Inf].
    var discardsHeldPush: Bool {
        switch self {
        case .forceQuit, .powerOff: false
        case .memoryPressure, .taskTimeout, .assertionTimeout, .cpuLimit, .crash: true
        }
    }
}

/// Why the system dropped the push it held (``SystemLogEvent/pushDiscarded(reason:)``).
public enum PushDiscardReason: String, Sendable, Equatable, CaseIterable {
    /// The user force-quit the app: the held push, and every push until the user opens the app
    /// again, is dropped [A].
    case forceQuit = "forceQuit"
    /// The app's process was killed (by the system: memory, an overrun, the CPU monitor; or by a
    /// crash) while the system held a push for it: "if something force quits or kills the app,
    /// the system discards held notifications" [A] ("Pushing background updates to your app").
    /// Later pushes are delivered as usual. A phone that turns off keeps it [Inf].
    case appKilled = "appKilled"
}

/// Why the system killed the app.
public enum KillReason: Sendable, Equatable {
    /// A task was not completed within the grace period after its expiration handler.
    case taskNotCompleted(identifier: String, serial: UInt32)
    /// A background-task assertion was still held when its budget ended.
    case backgroundTaskAssertionTimeout
    /// A jetsam fault (`faults.jetsams`) reclaimed the running or suspended app.
    case jetsamFault
    /// A processing task used more CPU than the monitor allows, for too long, on battery.
    case cpuResourceLimit
    /// The app did not call a silent push's completion handler within its 30 s.
    case pushNotCompleted

    /// The reason's name in traces (`"reason":"taskNotCompleted"`).
    public var name: String {
        switch self {
        case .pushNotCompleted: "pushNotCompleted"
        case .taskNotCompleted: "taskNotCompleted"
        case .backgroundTaskAssertionTimeout: "backgroundTaskAssertionTimeout"
        case .jetsamFault: "jetsamFault"
        case .cpuResourceLimit: "cpuResourceLimit"
        }
    }
}

/// What the app did that the task scheduler crashes it for [A]. Raw values are the `reason` of
/// `crash` in traces.
public enum CrashReason: String, Sendable, Equatable, CaseIterable {
    /// `register` after `didFinishLaunching` returned ("All launch handlers must be registered
    /// before application finishes launching").
    case registrationAfterLaunch = "registrationAfterLaunch"
    /// `register` twice for the same identifier.
    case duplicateRegistration = "duplicateRegistration"
    /// A task launched for an identifier with no handler registered in this process.
    case noLaunchHandler = "noLaunchHandler"
    /// The app's own async code (run under SimulatedBackgroundTasks) did not settle: more jobs
    /// ran at one simulated instant than the executor's limit (a loop that never sleeps or waits).
    case asyncWorkDidNotSettle = "asyncWorkDidNotSettle"
    /// The app's own code could not run: this Swift runtime lacks the hooks simulated
    /// concurrency needs (docs/RUN-YOUR-OWN-CODE.md, "Supported toolchains").
    case concurrencyUnsupported = "concurrencyUnsupported"
    /// The app's own code stored a value that is not a property list in `UserDefaults`, which
    /// iOS refuses with an exception (`NSInvalidArgumentException`) [A].
    case nonPropertyListDefault = "nonPropertyListDefault"
    /// The app's own code trapped: a Swift runtime error — a force-unwrapped `nil`,
    /// `fatalError`, a failed `precondition`, an index out of range, an arithmetic overflow —
    /// for which the Swift runtime uses a trace trap, reported as `EXC_BREAKPOINT (SIGTRAP)` on
    /// an iPhone's ARM processor and `EXC_BAD_INSTRUCTION (SIGILL)` on x86_64 [A] (Apple,
    /// "EXC_BREAKPOINT (SIGTRAP) and EXC_BAD_INSTRUCTION (SIGILL)"). In a debug build the
    /// runtime's message is the process's last `appOutput` line before the crash.
    case appCodeTrapped = "appCodeTrapped"
    /// The app's own code read or wrote memory it may not: `EXC_BAD_ACCESS` (`SIGSEGV`,
    /// `SIGBUS`) [A] (Apple, "Understanding the exception types in a crash report").
    case appCodeBadAccess = "appCodeBadAccess"
    /// Another signal ended the app's own code, `abort()`'s `SIGABRT` among them: iOS's
    /// `EXC_CRASH` [A] (Apple, "Understanding the exception types in a crash report").
    case appCodeAborted = "appCodeAborted"
    /// The app's own code called `exit`: its process ended without the system ending it.
    case appCodeExited = "appCodeExited"
    /// The app's own code waited for something that cannot happen while it waits, in simulated
    /// time: a `DispatchSemaphore` or `DispatchGroup` wait that nothing already done can
    /// satisfy, or `sync` onto the queue it is running on. On iOS the thread would block (and
    /// `sync` onto its own queue traps); here the process crashes at once and its output names
    /// the file and line of the wait [Inf].
    case blockingWait = "blockingWait"

    /// Whether the reason is one of the app's own code (run under SimulatedBackgroundTasks),
    /// not a misuse of the task scheduler.
    public var isAppCode: Bool {
        switch self {
        case .registrationAfterLaunch, .duplicateRegistration, .noLaunchHandler: false
        case .asyncWorkDidNotSettle, .concurrencyUnsupported, .nonPropertyListDefault, .appCodeTrapped, .appCodeBadAccess,
             .appCodeAborted, .appCodeExited, .blockingWait: true
        }
    }
}

/// Why a running task's expiration handler was called. Raw values are the `cause` of
/// `taskExpire` in traces.
public enum ExpirationCause: String, Sendable, Equatable, CaseIterable {
    /// Its allotted time ran out (or an early expiration cut it short).
    case timeUp = "timeUp"
    /// The user picked up the phone during a processing task.
    case userActivity = "userActivity"
    /// The charger was unplugged during a task that requires external power.
    case powerLoss = "powerLoss"
    /// The network went away during a task that requires connectivity.
    case networkLoss = "networkLoss"
    /// A continued-processing task made no progress for the timeout.
    case noProgress = "noProgress"
    /// The user cancelled a continued-processing task from its Live Activity.
    case userCancelled = "userCancelled"
    /// The system ended a continued-processing task soon after the app left the foreground,
    /// progress or not (``ContinuedProcessingParameters/earlyExpiryProbability``).
    case earlyExpiry = "earlyExpiry"
}

/// What came of a debugger command (the scenario's `debugger` section). Raw values are the
/// `outcome` of `simulatedLaunch` and `simulatedExpiration` in traces.
public enum DebuggerOutcome: String, Sendable, Equatable, CaseIterable {
    /// The task was launched, or expired.
    case done = "done"
    /// The app had no process for the debugger to act on.
    case appNotRunning = "appNotRunning"
    /// No request with the identifier was pending (a simulated launch).
    case noPendingRequest = "noPendingRequest"
    /// No task with the identifier was running unexpired (a simulated expiration).
    case noRunningTask = "noRunningTask"
    /// A rule of ``WakeRule/table`` that applies to the debugger held the launch back (a
    /// simulated launch): today only a phone that is off, which a running app never meets.
    case notAdmitted = "notAdmitted"
}
