import SimKernel

/// The iOS background-execution model for one app on one device, composed of small parts: the
/// process lifecycle (here), the pending requests and the scheduler's rules
/// (``PendingRequests``, ``TaskRegistrations``), the one admission step every wake goes through
/// (``WakeAdmission``, with ``WakeRule/table``), running tasks and their expiry
/// (``RunningTasks``), background-task assertions and their budget (``BackgroundAssertions``),
/// the app's timers (``AppTimers``), what its work draws (``AppEnergy``), and the other doors'
/// own state (``ContinuedProcessingTasks``, ``SessionEventDelivery``, ``PushDelivery``). Each
/// door's state is a ``BackgroundDoor``, listed once in ``forEachDoor(_:with:)``.
///
/// Every door that runs the app in the background — a task of each kind, a push, a URL
/// session's events, continued processing, a debugger command — asks ``WakeAdmission`` and then
/// goes through ``wake(for:in:deliver:)``, which checks the phone is on, launches or resumes the
/// app and runs the epilogue once (`Wake/SimulatedSystem+Wake.swift`). What the app owes after a wake
/// is a ``CompletionWindow``.
///
/// The app's policy calls into this object through ``AppContext`` during callbacks; the system
/// records what it asked for, and after every callback ``reconcile(in:)`` brings the simulation's
/// agenda in line with the new state (suspension, assertion deadlines, task expirations, timers,
/// the next launch evaluation). The parts never call into the app; the system calls the app
/// between accesses to them. Every decision that involves chance draws from the system's own
/// labelled streams, keyed by day (``SystemStreams``).
///
/// Behaviour, parameters and sources: `docs/MODEL.md` (Part 2), ``SystemParameters``.
///
/// The stored properties touched on every call into the system are `@exclusivity(unchecked)`
/// in normal builds: the system runs on one thread and never calls into the app while an access
/// to one of its properties is open (the parts never call the app; loops iterate copies;
/// callbacks run between accesses), so Swift's dynamic exclusivity checks cannot fire — and
/// they would cost a third of a run (`bgsim-bench scenario-days --preset probe-refresh --days
/// 1000` under callgrind: 1,085 M instructions with every check, 790 M without; `BENCHMARKS.md`).
/// A build with `SIMKERNEL_INTERNAL_CHECKS` (every debug build, so every test) keeps every
/// check, so that claim is tested; properties touched only at a launch, a
/// termination or a hand-off keep their checks in every build.
public final class SimulatedSystem {
    /// Quinn's process states, with the force-quit case kept as ``forceQuitFlag``.
    public enum ProcessState: Sendable, Equatable {
        /// Not running: never launched, or terminated (eligible for background relaunch unless
        /// the force-quit flag is set).
        case notRunning
        case foreground
        /// Running in the background: finishing callbacks, holding an assertion or running a task.
        case background
        case suspended
    }

    package let parameters: SystemParameters
    package let appParameters: AppParameters
    /// The scenario's policy, when the run makes its policy from it (not from a closure a test
    /// handed the runner instead).
    package var scenarioPolicy: PolicyConfiguration?
    let networkParameters: NetworkParameters
    /// The faults the system injects (``FaultPlan``): jetsams, Background App Refresh off,
    /// submit errors, early expirations.
    let faults: FaultPlan
    /// The debugger commands the scenario replays (``DebuggerCommands``).
    let debugger: DebuggerCommands
    /// The local calendar (the app reads its clock's time of day in it).
    let calendar: SimCalendar
    /// The app's work: a queue that survives termination, and the executor.
    package let work: WorkEngine
    let makePolicy: (() -> any BackgroundPolicy)?
    /// The system's own side of frameworks that the app's simulated code uses and that outlive
    /// its processes (SimulatedBackgroundTasks' background URL sessions), made on first use.
    package var frameworkState: AnyObject?

    // MARK: The process

    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    public internal(set) var processState: ProcessState = .notRunning
    /// Increases at every launch; contexts of earlier processes stop working.
    package internal(set) var processGeneration: UInt32 = 0
    var policy: (any BackgroundPolicy)?
    var context: AppContext?
    var registrations = TaskRegistrations()
    /// Set when the app did something that crashes it; acted on when the callback returns.
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var pendingCrash = false
    /// Set by a force-quit; blocks background launches until the user opens the app.
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    public internal(set) var forceQuitFlag = false
    /// The phone's starts the system has seen (``DeviceSnapshot/bootCount``).
    var seenBootCount: UInt32 = 0
    /// This phone never starts continued-processing tasks
    /// (``ContinuedProcessingParameters/neverStartsProbability``).
    let continuedProcessingNeverStarts: Bool
    static let continuedProcessingDeviceLabel = StreamLabel("system.continuedProcessing.device")
    /// `UserDefaults` for the app; survives termination.
    package let defaults = PersistentStore()
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var lastAppUse: SimInstant?
    /// When the suspended app is reclaimed (jetsam).
    var jetsam = EventSlot()
    var processIsRunning: Bool { processState != .notRunning }

    // MARK: The parts

    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var pending = PendingRequests()
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var admission: WakeAdmission
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var running = RunningTasks()
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var assertions = BackgroundAssertions()
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var timers = AppTimers()
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var continued = ContinuedProcessingTasks()
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var sessionEvents: SessionEventDelivery
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var push: PushDelivery
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var energy: AppEnergy
    /// When the work executor next needs attention.
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var workCheck = EventSlot()
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var streams: SystemStreams

    // MARK: Observation

    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    package internal(set) var snapshot = DeviceSnapshot()
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    package internal(set) var metrics = SystemMetrics()
    /// The app's own metrics, from its signposts and the user's opens.
    package internal(set) var appMetrics: AppMetrics
    /// Receives every ``SystemLogEvent`` with its time, when set (for `bgsim run --trace`,
    /// checkers and tests).
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    package var log: ((SystemLogEntry) -> Void)?
    /// For tests: react to every device event, to check that skipping the ones that cannot
    /// concern the system changes nothing.
    package var reactsToEveryDeviceEvent = false

    /// Creates the system for an app.
    ///
    /// - Parameter makePolicy: Makes the policy for each process launch; `nil` for no app code
    ///   (the process still launches and is suspended, but nothing registers or submits).
    package init(parameters: SystemParameters, app: AppParameters, calendar: SimCalendar, seed: UInt64,
         work: WorkParameters = WorkParameters(), network: NetworkParameters = NetworkParameters(),
         energy: EnergyParameters = EnergyParameters(), faults: FaultPlan = FaultPlan(),
         debugger: DebuggerCommands = DebuggerCommands(), pushes: ServerPushes = ServerPushes(),
         makePolicy: (() -> any BackgroundPolicy)?) {
        self.parameters = parameters
        self.faults = faults
        self.debugger = debugger
        self.calendar = calendar
        self.appParameters = app
        self.appMetrics = AppMetrics(declarations: app.metrics)
        for (key, value) in app.launch.defaults { defaults.set(value.stored, forKey: key) }
        self.networkParameters = network
        self.work = WorkEngine(parameters: work, seed: seed)
        self.energy = AppEnergy(parameters: energy, seed: seed)
        self.streams = SystemStreams(seed: seed)
        self.makePolicy = makePolicy
        let model: any LaunchModel = switch parameters.launchModel {
        case .heuristic: HeuristicLaunchModel(parameters: parameters.heuristic, calendar: calendar)
        case .eager: EagerLaunchModel()
        case .stingy: StingyLaunchModel(parameters: parameters.heuristic, calendar: calendar)
        case .replay: ReplayLaunchModel(device: parameters.replay.device(forSeed: seed))
        }
        admission = WakeAdmission(model: model, budget: parameters.budget, recentUse: .hours(parameters.heuristic.refreshRecencyDays * 24),
                                  retryInterval: .minutes(parameters.heuristic.evaluationMinutes))
        sessionEvents = SessionEventDelivery(parameters: parameters.backgroundURLSession)
        push = PushDelivery(pushes: pushes, parameters: parameters.push, otherApps: parameters.otherApps, seed: seed)
        let neverStarts = parameters.continuedProcessing.neverStartsProbability
        if neverStarts > 0 {
            var stream = RandomStream(seed: seed, label: Self.continuedProcessingDeviceLabel)
            continuedProcessingNeverStarts = stream.chance(neverStarts)
        } else {
            continuedProcessingNeverStarts = false
        }
    }

    // MARK: Inspection (for checkers)

    /// Background-task assertions the app holds now.
    public var heldAssertionCount: Int { assertions.held.count }

    /// When the app last entered the background (the assertion budget runs from here).
    public var backgroundSince: SimInstant { assertions.backgroundSince }

    /// Task requests pending of `kind`.
    public func pendingRequestCount(of kind: TaskRequest.Kind) -> Int {
        pending.count(of: kind)
    }

    /// The pending request with `identifier`, if any (for field logs: a submitted request's
    /// requirements).
    package func pendingRequest(identifier: String) -> TaskRequest? {
        pending.entries.first { $0.request.identifier == identifier }?.request
    }

    // MARK: Faults

    /// Schedules the system's fault events, if any: call once before the run.
    func start(in simulation: inout Simulation<WorldEvent>) {
        precondition(simulation.now == .start && simulation.firedEventCount == 0, "SimulatedSystem: started after the run began")
        for jetsam in faults.jetsams {
            simulation.schedule(.system(.faultJetsam), at: .start + .hours(jetsam.atHours))
        }
        for window in faults.backgroundAppRefreshOff where window.toHours > window.fromHours {
            simulation.schedule(.system(.faultWindowEnd), at: .start + .hours(window.toHours))
        }
        for (index, command) in debugger.simulateLaunch.enumerated() {
            simulation.schedule(.system(.debuggerLaunch(index: UInt32(index))), at: .start + .hours(command.atHours))
        }
        for (index, command) in debugger.simulateExpiration.enumerated() {
            simulation.schedule(.system(.debuggerExpiration(index: UInt32(index))), at: .start + .hours(command.atHours))
        }
        if let first = push.nextSend(after: .start) { simulation.schedule(.system(.pushSend), at: first) }
    }

    /// Hours since the simulation started, for fault windows.
    var hoursSinceStart: Double { Double(snapshot.now.nanosecondsSinceStart) / 3_600_000_000_000 }

    /// Whether Background App Refresh is on for the app now: the setting, unless a fault has the
    /// user switch it off.
    var backgroundAppRefreshAllowed: Bool {
        guard appParameters.backgroundAppRefreshEnabled else { return false }
        if faults.backgroundAppRefreshOff.isEmpty { return true }
        let hours = hoursSinceStart
        return !faults.backgroundAppRefreshOff.contains { $0.contains(hours: hours) }
    }

    // MARK: Observation

    /// Which device events can concern the system in its current state. Most device events
    /// (sessions, midnight, charger changes under a model that looks only at its own times) do
    /// not, and skipping them keeps the iOS model nearly free when the app is idle.
    var interest: DeviceEventInterest {
        DeviceEventInterest(
            reactsToChanges: admission.model.reactsToDeviceChanges && !pending.isEmpty,
            anyTaskRunning: !running.isEmpty,
            processingRunning: running.anyProcessing,
            processRunning: processIsRunning,
            workActive: work.activeSince != nil || energy.transferring || !work.transfers.isEmpty,
            transfersWaiting: !work.transfers.isEmpty,
            lockedSinceBoot: !snapshot.isUnlockedSinceBoot,
            everyEvent: reactsToEveryDeviceEvent)
    }

    /// Brings the snapshot, the time accounts and the day's random streams up to `now`.
    func observe(_ device: borrowing Device, at now: SimInstant) {
        metrics.accountTime(until: now)
        snapshot = DeviceSnapshot(device: device, at: now)
        streams.use(day: snapshot.day)
    }

    /// Records `event`: the metrics count it (``SystemMetrics/record(_:at:)``, the only way they
    /// change), and the log sees it, when one is attached.
    func record(_ event: SystemLogEvent) {
        #if SIMKERNEL_INTERNAL_CHECKS
        checkPoweredOn(for: event)
        #endif
        metrics.record(event, at: snapshot)
        if !appMetrics.isEmpty { appMetrics.record(event, at: snapshot.now) }
        if let log { log(SystemLogEntry(time: snapshot.now, event: event)) }
    }

    /// What the app draws now; the world passes it to the device after every call.
    var appPower: AppPower { energy.power }
}
