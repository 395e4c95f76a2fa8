import SimKernel

/// What a policy can see and do from inside the app: the device clock, the task scheduler,
/// background-task assertions, the network path, the battery, Low Power Mode, the persistent
/// store and timers.
///
/// One context exists per process launch. Calls made after the process has been terminated do
/// nothing (there is no process to make them).
public final class AppContext {
    unowned let system: SimulatedSystem
    let generation: UInt32

    /// The task scheduler, like `BGTaskScheduler.shared`.
    public let taskScheduler: SimulatedTaskScheduler

    /// The app's work queue and executor.
    public let work: WorkController

    /// Storage that survives termination, like `UserDefaults.standard`.
    public var defaults: PersistentStore { system.defaults }

    init(system: SimulatedSystem, generation: UInt32) {
        self.system = system
        self.generation = generation
        taskScheduler = SimulatedTaskScheduler(system: system, generation: generation)
        work = WorkController(system: system, generation: generation)
    }

    var isCurrent: Bool { system.processGeneration == generation && system.processIsRunning }

    /// The system's side of a framework the app's simulated code uses, which outlives the
    /// process (one per run, made by `make` on first use; later calls return it).
    package func frameworkState<State: AnyObject>(_ make: () -> State) -> State {
        if let state = system.frameworkState as? State { return state }
        let state = make()
        system.frameworkState = state
        return state
    }

    /// The scenario's policy, when the run makes its policy from it (a library that must make
    /// the same policy elsewhere, in another process, names it so).
    package var scenarioPolicy: PolicyConfiguration? { system.scenarioPolicy }

    /// Whether this is the current process and it is running (in the foreground, or in the
    /// background and not suspended).
    package var isRunning: Bool {
        system.processGeneration == generation && (system.processState == .foreground || system.processState == .background)
    }

    /// The device clock's reading: what the app sees as the current `Date`. It can jump.
    public var date: SimInstant { system.snapshot.clockReading }

    /// The simulation's own time (not the device clock's reading): the time base of the app's
    /// simulated async work.
    package var instant: SimInstant { system.snapshot.now }

    /// The local calendar: `calendar.day(of: date)`, `calendar.midnight(ofDay:)` and
    /// `calendar.timeOfDay(at:)` read the device clock as the app's `Calendar.current` would.
    public var calendar: SimCalendar { system.calendar }

    /// `UIApplication.applicationState`.
    public var applicationState: ApplicationState { system.processState == .foreground ? .active : .background }

    /// The current network path, like `NWPathMonitor.currentPath`.
    public var networkPath: NetworkPath { system.snapshot.network }

    /// `UIDevice.batteryLevel`: 0 ... 1.
    public var batteryLevel: Double { system.snapshot.batteryPercent / 100 }

    /// `UIDevice.batteryState`.
    public var batteryState: BatteryState { system.snapshot.batteryState }

    /// `ProcessInfo.isLowPowerModeEnabled`.
    public var isLowPowerModeEnabled: Bool { system.snapshot.isLowPowerMode }

    /// `ProcessInfo.thermalState`.
    public var thermalState: ThermalState { system.snapshot.thermalState }

    /// Whether the user's Background App Refresh switch is on for the app now (the scenario's
    /// `app.backgroundAppRefreshEnabled`, and its `backgroundAppRefreshOff` fault windows).
    package var isBackgroundAppRefreshOn: Bool { system.backgroundAppRefreshAllowed }

    /// `UIApplication.isProtectedDataAvailable`: whether files and keychain items protected
    /// while the device is locked (`NSFileProtectionComplete`, `kSecAttrAccessibleWhenUnlocked`)
    /// can be read now. The model's phone is unlocked exactly while its screen is on (a session:
    /// lock-screen glances that leave it locked are not modelled [Inf]), and the keys stay for
    /// ``protectedDataLockDelay`` after the screen goes off.
    public var isProtectedDataAvailable: Bool {
        let snapshot = system.snapshot
        return snapshot.isScreenOn || snapshot.screenOffSince.duration(to: snapshot.now) < Self.protectedDataLockDelay
    }

    /// Whether files and keychain items protected until the first unlock
    /// (`NSFileProtectionCompleteUntilFirstUserAuthentication`, the default class for an app's
    /// files; `kSecAttrAccessibleAfterFirstUnlock`) can be read now: false from a restart of the
    /// phone until the user first unlocks it [A] (Apple Platform Security, "Data Protection
    /// classes"). The system launches no app in the background before then
    /// (`beforeFirstUnlock`), so app code sees false only when a debugger command launches it.
    public var isDataAvailableAfterFirstUnlock: Bool { system.snapshot.isUnlockedSinceBoot }

    /// How long protected data stays readable after the device locks: 10 s [A] (Apple Platform
    /// Security guide, "Data Protection classes": the class key of Complete Protection is
    /// discarded 10 seconds after the device locks).
    public static let protectedDataLockDelay = SimDuration.seconds(10)

    // MARK: Background-task assertions

    /// `beginBackgroundTask(withName:expirationHandler:)`: asks for time to finish work in the
    /// background. All assertions share one budget (about 30 s) from entering the background;
    /// the handler runs shortly before it ends, and an assertion still held when it ends gets the
    /// app killed.
    @discardableResult
    public func beginBackgroundTask(withName name: String? = nil, expirationHandler: (() -> Void)? = nil) -> BackgroundTaskIdentifier {
        guard isCurrent else { return .invalid }
        return system.beginAssertion(name: name ?? "", expirationHandler: expirationHandler)
    }

    /// `endBackgroundTask(_:)`.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        guard isCurrent else { return }
        system.endAssertion(identifier)
    }

    /// `backgroundTimeRemaining`: `.max` in the foreground (iOS reports `DBL_MAX`), otherwise the
    /// time left of the assertion budget (zero when none is held).
    public var backgroundTimeRemaining: SimDuration { system.backgroundTimeRemaining }

    // MARK: Timers

    /// Schedules `handler` to run after `delay`, if the process is running then. A timer that
    /// comes due while the app is suspended fires when it next runs; termination cancels it.
    @discardableResult
    public func schedule(after delay: SimDuration, _ handler: @escaping () -> Void) -> AppTimer {
        guard isCurrent else { return AppTimer(id: 0) }
        return system.addTimer(after: delay, handler: handler)
    }

    /// Cancels a timer.
    public func cancel(_ timer: AppTimer) {
        system.cancelTimer(timer)
    }

    // MARK: Work

    /// Reports the share of a CPU core the app is using now, 0 ... 1, for the CPU monitor that
    /// kills processing tasks that use more than 80 % for 60 s while on battery.
    public func reportCPUUsage(_ share: Double) {
        guard isCurrent else { return }
        system.setCPUUsage(share)
    }

    /// A uniform random number in [0, 1) from the app's own deterministic stream (for jitter).
    public func randomUnit() -> Double {
        system.appRandomUnit()
    }

    /// 64 random bits from the same stream as ``randomUnit()`` (for the simulated
    /// `SecRandomCopyBytes` and the simulated system generator; named here, not called).
    package func randomBits() -> UInt64 {
        system.appRandomBits()
    }

    /// Ends the process as a crash for `reason` once the callback the app's code runs in
    /// returns (for the app's own code under SimulatedBackgroundTasks: a runaway or an
    /// unsupported runtime). Nothing happens for a stale handle.
    package func crash(_ reason: CrashReason) {
        guard isCurrent else { return }
        system.crashAfterCallback(reason)
    }

    /// The environment variables the scenario launches the app with (`app.launch.environment`,
    /// what `ProcessInfo.processInfo.environment` reads on iOS).
    public var launchEnvironment: [String: String] { system.appParameters.launch.environment }

    /// The launch arguments the scenario gives, after the process's name (`app.launch.arguments`).
    public var launchArguments: [String] { system.appParameters.launch.arguments }

    /// Emits a signpost, as `mxSignpost` or an `OSSignposter` would: what the app's own metrics
    /// are measured from (``AppMetricDeclaration``). Signposts of an earlier process are not
    /// recorded once another has launched.
    ///
    ///     context.signpost(.begin, name: "upload")              // the file is queued
    ///     context.signpost(.end, name: "upload")                // it went up
    ///     context.signpost(.event, name: AppSignpost.contentUpdatedName)
    public func signpost(_ kind: AppSignpost.Kind, name: String, category: String = "", id: UInt64 = 0) {
        guard system.processGeneration == generation else { return }
        system.record(.signpost(AppSignpost(kind, name: name, category: category, id: id)))
    }

    /// Records a line the app's own code wrote to its standard output or error (an `appOutput`
    /// event in the log), for the app's code under SimulatedBackgroundTasks. Lines of an earlier
    /// process are not recorded once another has launched.
    package func recordOutput(_ line: String) {
        guard system.processGeneration == generation else { return }
        system.record(.appOutput(line: line))
    }

    /// A uniform integer in `range` from the same stream, by the kernel's portable algorithm
    /// (for the simulated integer draws of app code, and the policies that draw as apps do).
    package func randomInt(in range: ClosedRange<Int>) -> Int {
        system.appRandomInt(in: range)
    }
}

/// The app's view of the task scheduler, like `BGTaskScheduler`.
public final class SimulatedTaskScheduler {
    unowned let system: SimulatedSystem
    let generation: UInt32

    init(system: SimulatedSystem, generation: UInt32) {
        self.system = system
        self.generation = generation
    }

    /// `register(forTaskWithIdentifier:using:launchHandler:)`. Allowed only while the app is
    /// finishing launching; a later or second registration of the same identifier crashes the
    /// app, as on iOS. Returns false for an identifier that is not permitted.
    @discardableResult
    public func register(forTaskWithIdentifier identifier: String, launchHandler: @escaping (BackgroundTask) -> Void) -> Bool {
        guard system.processGeneration == generation else { return false }
        return system.register(identifier: identifier, handler: launchHandler)
    }

    /// `submit(_:)`: replaces a pending request with the same identifier.
    ///
    /// - Throws: ``TaskSchedulerError`` `unavailable`, `tooManyPendingTaskRequests` or `notPermitted`.
    public func submit(_ request: TaskRequest) throws(TaskSchedulerError) {
        guard system.processGeneration == generation else { return }
        try system.submit(request)
    }

    /// `submit(_:)` for a continued-processing request: only in the foreground; it starts once
    /// the current callback returns if a slot is free, or waits for one, or fails, as its
    /// strategy says.
    ///
    /// - Throws: ``TaskSchedulerError`` `unavailable` (from the background), `notPermitted` or
    ///   `immediateRunIneligible`.
    public func submit(_ request: ContinuedProcessingTaskRequest) throws(TaskSchedulerError) {
        guard system.processGeneration == generation else { return }
        try system.submit(request)
    }

    /// `cancel(taskRequestWithIdentifier:)`.
    public func cancel(taskRequestWithIdentifier identifier: String) {
        system.cancelRequest(identifier: identifier)
    }

    /// `cancelAllTaskRequests()`.
    public func cancelAllTaskRequests() {
        system.cancelAllRequests()
    }

    /// `getPendingTaskRequests(completionHandler:)`: copies of the pending requests.
    public func pendingTaskRequests() -> [TaskRequest] {
        system.pending.entries.map(\.request)
    }
}
