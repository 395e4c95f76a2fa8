import SimKernel

/// The iOS background-execution model for one app on one device: the process lifecycle,
/// background-task assertions, the task scheduler, task delivery, expiration, kills and
/// throttling, with a ``LaunchModel`` for the system's discretion.
///
/// The app's policy calls into this object through ``AppContext`` during callbacks; the system
/// records what it asked for, and after every callback ``reconcile(in:)`` brings the simulation's
/// agenda in line with the new state (suspension, assertion deadlines, task expirations, timers,
/// the next launch evaluation). Every decision that involves chance draws from the system's own
/// labelled streams, keyed by day.
///
/// Behaviour and its sources: `reference/ios-background-execution.md`; parameters:
/// ``SystemParameters``.
///
/// Its stored properties are `@exclusivity(unchecked)`: the system runs on one thread, and it
/// never calls into the app while an access to one of its properties is open (loops iterate
/// copies; callbacks run between accesses), so the dynamic exclusivity checks Swift would make on
/// every class property access cannot fire — and they cost about a quarter of a run's
/// instructions (callgrind, `bgsim-bench scenario-days --preset probe-refresh`).
public final class SimulatedSystem {
    /// Quinn's process states (ios-background-execution.md §1), with the force-quit case kept as
    /// ``forceQuitFlag``.
    public enum ProcessState: Sendable, Equatable {
        /// Not running: never launched, or terminated (eligible for background relaunch unless
        /// the force-quit flag is set).
        case notRunning
        case foreground
        /// Running in the background: finishing callbacks, holding an assertion or running a task.
        case background
        case suspended
    }

    static let launchLabel = StreamLabel("system.launch")
    static let jetsamLabel = StreamLabel("system.jetsam")
    static let expiryLabel = StreamLabel("system.expiry")
    static let appLabel = StreamLabel("app.random")

    public let parameters: SystemParameters
    public let appParameters: AppParameters
    let networkParameters: NetworkParameters
    let energyParameters: EnergyParameters
    /// The faults the system injects (``FaultPlan``): jetsams, Background App Refresh off,
    /// submit errors, early expirations.
    let faults: FaultPlan
    /// The app's work: a queue that survives termination, and the executor.
    public let work: WorkEngine
    let makePolicy: (() -> any BackgroundPolicy)?
    @exclusivity(unchecked) var launchModel: any LaunchModel
    let seed: UInt64

    // MARK: Process

    @exclusivity(unchecked) public internal(set) var processState: ProcessState = .notRunning
    /// Increases at every launch; contexts of earlier processes stop working.
    @exclusivity(unchecked) public internal(set) var processGeneration: UInt32 = 0
    @exclusivity(unchecked) var policy: (any BackgroundPolicy)?
    @exclusivity(unchecked) var context: AppContext?
    /// Registration is allowed only while this is set (during `didFinishLaunching`).
    @exclusivity(unchecked) var isFinishingLaunch = false
    @exclusivity(unchecked) var registrations: [(identifier: String, handler: (BackgroundTask) -> Void)] = []
    /// Set when the app did something that crashes it; acted on when the callback returns.
    @exclusivity(unchecked) var pendingCrash = false
    /// Set by a force-quit; blocks background launches until the user opens the app.
    @exclusivity(unchecked) public internal(set) var forceQuitFlag = false
    /// `UserDefaults` for the app; survives termination.
    public let defaults = PersistentStore()
    @exclusivity(unchecked) var lastAppUse: SimInstant?
    @exclusivity(unchecked) var jetsamEvent: EventHandle?
    var processIsRunning: Bool { processState != .notRunning }

    // MARK: Assertions

    struct Assertion {
        var id: Int
        var name: String
        var expirationHandler: (() -> Void)?
    }

    @exclusivity(unchecked) var assertions: [Assertion] = []
    @exclusivity(unchecked) var nextAssertionID = 1
    /// When the app last entered the background (the assertion budget runs from here).
    @exclusivity(unchecked) public internal(set) var backgroundSince: SimInstant = .start
    @exclusivity(unchecked) var assertionsWarned = false
    @exclusivity(unchecked) var assertionWarningEvent: EventHandle?
    @exclusivity(unchecked) var assertionDeadlineEvent: EventHandle?

    // MARK: Tasks

    struct PendingRequest {
        var request: TaskRequest
        /// The earliest begin date converted to true time when submitted.
        var earliest: SimInstant
    }

    final class RunningTask {
        let task: BackgroundTask
        let requiresExternalPower: Bool
        let requiresNetwork: Bool
        @exclusivity(unchecked) var expired = false
        @exclusivity(unchecked) var expirationEvent: EventHandle?
        @exclusivity(unchecked) var graceEvent: EventHandle?

        init(task: BackgroundTask, request: TaskRequest) {
            self.task = task
            requiresExternalPower = request.requiresExternalPower
            requiresNetwork = request.requiresNetworkConnectivity
        }
    }

    @exclusivity(unchecked) var pending: [PendingRequest] = []
    @exclusivity(unchecked) var running: [RunningTask] = []
    @exclusivity(unchecked) var nextTaskSerial: UInt32 = 1
    @exclusivity(unchecked) var throttledUntil: SimInstant?
    @exclusivity(unchecked) var lastRefreshLaunch: SimInstant?
    @exclusivity(unchecked) var lastProcessingLaunch: SimInstant?
    @exclusivity(unchecked) var evaluationEvent: EventHandle?
    @exclusivity(unchecked) var evaluationTime: SimInstant?
    @exclusivity(unchecked) var cpuShare = 0.0
    @exclusivity(unchecked) var cpuMonitorEvent: EventHandle?

    // MARK: Timers

    struct TimerEntry {
        var id: UInt32
        var due: SimInstant
        var handler: () -> Void
        var event: EventHandle?
        /// Came due while the app was suspended; fires when it next runs.
        var overdue = false
    }

    @exclusivity(unchecked) var timers: [TimerEntry] = []
    @exclusivity(unchecked) var nextTimerID: UInt32 = 1

    // MARK: Work and energy

    @exclusivity(unchecked) var radio: RadioModel
    @exclusivity(unchecked) var radioTransferring = false
    @exclusivity(unchecked) var radioPath = NetworkPath.offline
    @exclusivity(unchecked) var radioPhaseEvent: EventHandle?
    @exclusivity(unchecked) var radioPhaseTime: SimInstant?
    @exclusivity(unchecked) var workCheckEvent: EventHandle?
    @exclusivity(unchecked) var workCheckTime: SimInstant?
    @exclusivity(unchecked) var launchOverheadEvent: EventHandle?
    @exclusivity(unchecked) var radioShareRandom: RandomStream
    /// What the app draws now; the world passes it to the device after every call.
    @exclusivity(unchecked) var appPower = AppPower()

    // MARK: Observation

    @exclusivity(unchecked) public internal(set) var snapshot = DeviceSnapshot()
    @exclusivity(unchecked) public internal(set) var metrics = SystemMetrics()
    /// Receives a record of every lifecycle transition, assertion, submit, launch, expiration,
    /// completion and kill, when set (for `bgsim run --trace`).
    @exclusivity(unchecked) public var log: ((SystemLogEntry) -> Void)?
    @exclusivity(unchecked) var accountedUntil: SimInstant = .start
    /// For tests: react to every device event, to check that skipping the ones that cannot
    /// concern the system changes nothing.
    @exclusivity(unchecked) package var reactsToEveryDeviceEvent = false

    // MARK: Randomness

    @exclusivity(unchecked) var randomDay = Int.min
    @exclusivity(unchecked) var launchRandom = RandomStream(seed: 0)
    @exclusivity(unchecked) var jetsamRandom = RandomStream(seed: 0)
    @exclusivity(unchecked) var expiryRandom = RandomStream(seed: 0)
    @exclusivity(unchecked) var appRandom = RandomStream(seed: 0)

    /// Creates the system for an app.
    ///
    /// - Parameter makePolicy: Makes the policy for each process launch; `nil` for no app code
    ///   (the process still launches and is suspended, but nothing registers or submits).
    public init(parameters: SystemParameters, app: AppParameters, calendar: SimCalendar, seed: UInt64,
                work: WorkParameters = WorkParameters(), network: NetworkParameters = NetworkParameters(),
                energy: EnergyParameters = EnergyParameters(), faults: FaultPlan = FaultPlan(),
                makePolicy: (() -> any BackgroundPolicy)?) {
        self.parameters = parameters
        self.faults = faults
        self.appParameters = app
        self.networkParameters = network
        self.energyParameters = energy
        self.work = WorkEngine(parameters: work, seed: seed)
        radio = RadioModel(parameters: energy)
        radioShareRandom = RandomStream(seed: seed, label: Self.radioShareLabel)
        self.seed = seed
        self.makePolicy = makePolicy
        launchModel = switch parameters.launchModel {
        case .heuristic: HeuristicLaunchModel(parameters: parameters.heuristic, calendar: calendar)
        case .eager: EagerLaunchModel()
        case .stingy: StingyLaunchModel(parameters: parameters.heuristic, calendar: calendar)
        }
    }

    // MARK: Inspection (for checkers)

    /// Background-task assertions the app holds now.
    public var heldAssertionCount: Int { assertions.count }

    /// Task requests pending of `kind`.
    public func pendingRequestCount(of kind: TaskRequest.Kind) -> Int {
        pending.count { $0.request.kind == kind }
    }

    // MARK: Entry points

    /// Schedules the system's fault events, if any: call once before the run.
    public func start(in simulation: inout Simulation<WorldEvent>) {
        for jetsam in faults.jetsams {
            simulation.schedule(.faultJetsam, at: .start + .hours(jetsam.atHours))
        }
        for window in faults.backgroundAppRefreshOff where window.toHours > window.fromHours {
            simulation.schedule(.faultWindowEnd, at: .start + .hours(window.toHours))
        }
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

    /// Which device events can concern the system in its current state. Most device events
    /// (sessions, midnight, charger changes under a model that looks only at its own times) do
    /// not, and skipping them keeps the iOS model nearly free when the app is idle.
    var interest: DeviceEventInterest {
        DeviceEventInterest(
            reactsToChanges: launchModel.reactsToDeviceChanges && !pending.isEmpty,
            anyTaskRunning: !running.isEmpty,
            processingRunning: running.contains { $0.task.kind == .processing },
            processRunning: processIsRunning,
            workActive: work.activeSince != nil || radioTransferring,
            everyEvent: reactsToEveryDeviceEvent)
    }

    /// Reacts to a device event that the device has already handled.
    ///
    /// The caller checks ``interest`` first and calls only for events that concern the system.
    func deviceDidHandle(_ event: WorldEvent, device: borrowing Device, in simulation: inout Simulation<WorldEvent>) {
        work.settle(at: simulation.now)
        observe(device, at: simulation.now)
        switch event {
        case .appOpen:
            appOpened(in: &simulation)
        case .appClose(let forceQuit):
            appClosed(forceQuit: forceQuit, in: &simulation)
        case .sessionStart:
            // The user picking up the phone ends processing tasks (BGProcessingTask docs [A]).
            if snapshot.isScreenOn { expireRunning(where: { $0.task.kind == .processing }, cause: .userActivity) }
        case .unplug:
            expireRunning(where: { $0.requiresExternalPower }, cause: .powerLoss)
        case .networkChange, .networkFlap:
            if !snapshot.network.isSatisfied { expireRunning(where: { $0.requiresNetwork }, cause: .networkLoss) }
        case .batteryLevel, .batteryDeath:
            if !snapshot.isPoweredOn && processIsRunning { terminate(.powerOff, in: &simulation) }
        default:
            break
        }
        // Expiration handlers run above; a crash they caused ends the process now.
        afterCallback(in: &simulation)
        if launchModel.reactsToDeviceChanges { evaluateLaunches(in: &simulation) }
        reconcile(in: &simulation)
    }

    /// Handles one of the system's own events.
    func handle(_ event: WorldEvent, device: borrowing Device, in simulation: inout Simulation<WorldEvent>) {
        work.settle(at: simulation.now)
        observe(device, at: simulation.now)
        switch event {
        case .launchEvaluation:
            evaluationEvent = nil
            evaluationTime = nil
            evaluateLaunches(in: &simulation)
        case .taskExpiration(let serial):
            if let running = running.first(where: { $0.task.serial == serial }) {
                running.expirationEvent = nil
                expire(running, cause: .timeUp)
            }
        case .taskGraceEnd(let serial):
            if let running = running.first(where: { $0.task.serial == serial }), running.task.completion == nil {
                record(.kill(.taskNotCompleted(identifier: running.task.identifier, serial: running.task.serial)))
                throttledUntil = simulation.now + .hours(parameters.throttlePenaltyHours)
                terminate(.taskTimeout, in: &simulation)
            }
        case .assertionWarning:
            assertionWarningEvent = nil
            warnAssertions()
        case .assertionDeadline:
            assertionDeadlineEvent = nil
            if !assertions.isEmpty && processState == .background {
                record(.kill(.backgroundTaskAssertionTimeout))
                terminate(.assertionTimeout, in: &simulation)
            }
        case .appTimer(let id):
            timerFired(id)
        case .jetsam:
            jetsamEvent = nil
            if processState == .suspended { terminate(.memoryPressure, in: &simulation) }
        case .faultJetsam:
            if processState == .suspended || processState == .background {
                record(.kill(.jetsamFault))
                terminate(.memoryPressure, in: &simulation)
            }
        case .faultWindowEnd:
            evaluateLaunches(in: &simulation)
        case .workCheck:
            checkWork(at: simulation.now)
        case .radioPhase:
            radioPhaseEvent = nil
            radioPhaseTime = nil
            radio.advancePhase(at: simulation.now)
        case .launchOverheadEnd:
            launchOverheadEvent = nil
        case .cpuMonitorCheck:
            cpuMonitorEvent = nil
            if effectiveCPUShare * 100 > parameters.cpuMonitorPercent && running.contains(where: monitoredByCPU) {
                record(.kill(.cpuResourceLimit))
                terminate(.cpuLimit, in: &simulation)
            }
        default:
            break
        }
        afterCallback(in: &simulation)
        reconcile(in: &simulation)
    }

    /// Brings the snapshot, the time accounts and the day's random streams up to `now`.
    func observe(_ device: borrowing Device, at now: SimInstant) {
        let seconds = accountedUntil.duration(to: now).seconds
        switch processState {
        case .foreground: metrics.foregroundSeconds += seconds
        case .background: metrics.backgroundSeconds += seconds
        case .notRunning, .suspended: break
        }
        accountedUntil = now
        snapshot = DeviceSnapshot(device: device, at: now)
        if snapshot.day != randomDay {
            randomDay = snapshot.day
            let index = UInt64(bitPattern: Int64(randomDay))
            launchRandom = RandomStream(seed: seed, label: Self.launchLabel, index: index)
            jetsamRandom = RandomStream(seed: seed, label: Self.jetsamLabel, index: index)
            expiryRandom = RandomStream(seed: seed, label: Self.expiryLabel, index: index)
            appRandom = RandomStream(seed: seed, label: Self.appLabel, index: index)
        }
    }

    // MARK: Lifecycle

    private func appOpened(in simulation: inout Simulation<WorldEvent>) {
        lastAppUse = snapshot.now
        work.appSessionOpened(at: snapshot.now, day: snapshot.day)
        launchModel.appDidEnterForeground(at: snapshot.now, hour: snapshot.hour)
        if forceQuitFlag {
            forceQuitFlag = false
            record(.forceQuitFlagCleared)
        }
        cancel(&jetsamEvent, in: &simulation)
        assertionsWarned = false
        if processState == .notRunning {
            processState = .foreground
            launchProcess(reason: .user)
        } else {
            processState = .foreground
            record(.willEnterForeground)
            if let policy, let context { policy.willEnterForeground(context) }
            fireOverdueTimers()
        }
        afterCallback(in: &simulation)
    }

    private func appClosed(forceQuit: Bool, in simulation: inout Simulation<WorldEvent>) {
        guard processState == .foreground else { return }
        processState = .background
        backgroundSince = snapshot.now
        assertionsWarned = false
        record(.didEnterBackground)
        if let context { policy?.didEnterBackground(context) }
        afterCallback(in: &simulation)
        if forceQuit && processIsRunning {
            // Still running in the background (an assertion, a task): iOS calls willTerminate.
            if processState == .background && (!assertions.isEmpty || !running.isEmpty), let policy, let context {
                record(.willTerminate)
                policy.willTerminate(context)
            }
            terminate(.forceQuit, in: &simulation)
            forceQuitFlag = true
            if parameters.forceQuitClearsPendingRequests { pending.removeAll() }
            record(.forceQuit(pendingRequestsCleared: parameters.forceQuitClearsPendingRequests))
        }
    }

    /// Starts a new process and calls `didFinishLaunching`.
    func launchProcess(reason: LaunchReason) {
        processGeneration &+= 1
        registrations.removeAll()
        let context = AppContext(system: self, generation: processGeneration)
        self.context = context
        policy = makePolicy?()
        record(.launch(reason: reason))
        isFinishingLaunch = true
        policy?.didFinishLaunching(context, reason: reason)
        isFinishingLaunch = false
    }

    /// Acts on a crash the last callback caused.
    func afterCallback(in simulation: inout Simulation<WorldEvent>) {
        if pendingCrash {
            pendingCrash = false
            terminate(.crash, in: &simulation)
        }
    }

    /// Ends the process: its in-memory state, registrations, assertions, tasks and timers go.
    func terminate(_ reason: TerminationReason, in simulation: inout Simulation<WorldEvent>) {
        guard processIsRunning else { return }
        switch reason {
        case .forceQuit: metrics.forceQuitTerminations += 1; metrics.normalAppExits += 1
        case .powerOff: metrics.powerOffTerminations += 1
        case .memoryPressure: metrics.memoryPressureExits += 1
        case .taskTimeout, .assertionTimeout: metrics.backgroundTaskAssertionTimeoutExits += 1
        case .cpuLimit: metrics.cpuResourceLimitExits += 1
        case .crash: metrics.abnormalExits += 1
        }
        record(.terminate(reason: reason))
        work.processTerminated(at: snapshot.now, killed: reason.isKill)
        processState = .notRunning
        policy = nil
        context = nil
        registrations.removeAll()
        assertions.removeAll()
        cancel(&assertionWarningEvent, in: &simulation)
        cancel(&assertionDeadlineEvent, in: &simulation)
        for task in running {
            cancel(&task.expirationEvent, in: &simulation)
            cancel(&task.graceEvent, in: &simulation)
        }
        running.removeAll()
        for index in timers.indices { cancel(&timers[index].event, in: &simulation) }
        timers.removeAll()
        cancel(&jetsamEvent, in: &simulation)
        cancel(&cpuMonitorEvent, in: &simulation)
        cpuShare = 0
    }

    /// Cancels `handle`'s event, if any, and clears it.
    func cancel(_ handle: inout EventHandle?, in simulation: inout Simulation<WorldEvent>) {
        if let event = handle { simulation.cancel(event) }
        handle = nil
    }

    /// Passes `event` to the log, when one is attached; builds nothing otherwise.
    func record(_ event: @autoclosure () -> SystemLogEvent) {
        if let log { log(SystemLogEntry(time: snapshot.now, event: event())) }
    }

    // MARK: Reconciliation

    /// Brings the simulation's agenda in line with the state after a change: completed tasks
    /// leave, timers get events, an app with nothing to do is suspended, assertion deadlines are
    /// scheduled, and the next launch evaluation is set.
    func reconcile(in simulation: inout Simulation<WorldEvent>) {
        let now = simulation.now
        // Completed tasks.
        for task in running where task.task.completion != nil {
            cancel(&task.expirationEvent, in: &simulation)
            cancel(&task.graceEvent, in: &simulation)
        }
        running.removeAll { $0.task.completion != nil }
        // Expired tasks not yet completed get the grace period to call setTaskCompleted.
        for task in running where task.expired && task.graceEvent == nil {
            cancel(&task.expirationEvent, in: &simulation)
            task.graceEvent = simulation.schedule(.taskGraceEnd(serial: task.task.serial), after: .seconds(parameters.taskCompletionGraceSeconds))
        }

        // Timers.
        for index in timers.indices where timers[index].event == nil && !timers[index].overdue {
            timers[index].event = simulation.schedule(.appTimer(id: timers[index].id), at: Swift.max(now, timers[index].due))
        }

        // Suspension.
        if processState == .background && assertions.isEmpty && running.isEmpty {
            processState = .suspended
            record(.suspend)
            if parameters.suspendedTerminationPerHour > 0 {
                let hours = ExponentialDistribution(rate: parameters.suspendedTerminationPerHour).sample(using: &jetsamRandom)
                jetsamEvent = simulation.schedule(.jetsam, at: now + .hours(hours))
            }
        }

        // Assertion budget.
        if processState == .background && !assertions.isEmpty {
            let deadline = backgroundSince + .seconds(parameters.extensionBudgetSeconds)
            if assertionDeadlineEvent == nil {
                assertionDeadlineEvent = simulation.schedule(.assertionDeadline, at: Swift.max(now, deadline))
            }
            if assertionWarningEvent == nil && !assertionsWarned {
                let warning = deadline - .seconds(parameters.expirationLeadSeconds)
                assertionWarningEvent = simulation.schedule(.assertionWarning, at: Swift.max(now, warning))
            }
        } else {
            cancel(&assertionWarningEvent, in: &simulation)
            cancel(&assertionDeadlineEvent, in: &simulation)
        }

        // The work executor, the radio and the app's power (before the CPU monitor, which watches
        // the executor's CPU use).
        reconcileWork(in: &simulation)

        // CPU monitor.
        if effectiveCPUShare * 100 > parameters.cpuMonitorPercent && running.contains(where: monitoredByCPU) {
            if cpuMonitorEvent == nil {
                cpuMonitorEvent = simulation.schedule(.cpuMonitorCheck, after: .seconds(parameters.cpuMonitorSeconds))
            }
        } else {
            cancel(&cpuMonitorEvent, in: &simulation)
        }

        scheduleNextEvaluation(in: &simulation)
    }

    /// Whether the CPU monitor watches this task: processing tasks that did not ask for power.
    func monitoredByCPU(_ task: RunningTask) -> Bool {
        task.task.kind == .processing && !task.requiresExternalPower
    }

    func setCPUUsage(_ share: Double) {
        cpuShare = Swift.max(0, share)
    }

    /// The CPU share the monitor sees: what the policy reported, or the work executor's, whichever
    /// is higher.
    var effectiveCPUShare: Double { Swift.max(cpuShare, work.headCPUShare) }

    func appRandomUnit() -> Double {
        appRandom.unit()
    }
}

/// Which device events can concern the system, as a small value the world keeps beside the
/// device, so that uninteresting events cost one check and no call.
struct DeviceEventInterest {
    var reactsToChanges = false
    var anyTaskRunning = false
    var processingRunning = false
    var processRunning = false
    var workActive = false
    var everyEvent = false

    func concerns(_ event: WorldEvent) -> Bool {
        if everyEvent { return true }
        switch event {
        case .appOpen, .appClose:
            return true
        case .sessionStart:
            return processingRunning
        case .networkChange, .networkFlap:
            return anyTaskRunning || reactsToChanges || workActive
        case .unplug:
            return anyTaskRunning || reactsToChanges
        case .batteryLevel, .batteryDeath:
            return processRunning || reactsToChanges
        case .sessionEnd, .plugIn, .optimizedChargingResume, .dayStart, .clockJump:
            return reactsToChanges
        default:
            return false
        }
    }
}
