import BackgroundSim
import Foundation
import SimKernel
import SimulatedConcurrency

/// One launch of the app's process as its own code sees it: the executor its async work runs
/// on, the objects the simulated frameworks keep for it (its notification center, path
/// monitors, sessions, registered defaults), its delegate, and the closures it handed the system.
///
/// It talks to the simulated iOS only through ``services`` (the phone's state, and calls), so
/// that it can run in this OS process (``InProcessLink``) or in one of its own
/// (``ForkedProcess``). Every call into the app's code goes through ``run(_:)``, which binds
/// the process to the thread — so that `BGTaskScheduler.shared` and `UIApplication.shared`
/// reach this device — moves the executor to the simulation's now, runs the code and then the
/// async work it started until nothing is ready, and asks the system to come back when the next
/// sleep ends. A sleep that ends while the app is suspended resumes when the app next runs,
/// after the code that runs then, as a timer would.
final class SimulatedProcess {
    /// The system, as this process reaches it.
    let services: any SystemServices
    /// What makes the app's code: its delegate, its scene's actions, its servers.
    let recipe: AppRecipe
    /// The executor its async work runs on; `nil` when this runtime cannot simulate it.
    let executor: SimulatedExecutor?
    /// The app's code crashed: nothing more of it runs in this process.
    private(set) var hasCrashed = false
    /// The device clock's start, as seconds since 1970 (its local time read as GMT).
    private(set) var clockStartSeconds: Int64 = 0
    /// The app's delegate, made at launch.
    var delegate: (any UIApplicationDelegate)?
    /// The app's SwiftUI scene, made at launch.
    var scene: BackgroundTaskScene?
    /// The scene's phase (SwiftUI's `scenePhase`).
    var scenePhase = ScenePhase.background
    /// The closures the app's code handed the system, by number.
    var callbacks = CallbackTable()
    /// The process's notification center (`NotificationCenter.default` in its code).
    let notifications = NotificationCenter()
    /// The `UserDefaults` values this process has read or written, `nil` for a key known to
    /// hold none: while it lives, only its own code writes the phone's store.
    var storedValues: [String: PersistentStore.Value?] = [:]
    /// `UserDefaults.register(defaults:)`'s values, for this process only.
    var registeredDefaults: [String: Any] = [:]
    /// `UIDevice.isBatteryMonitoringEnabled`, off at each launch.
    var isBatteryMonitoringEnabled = false
    /// The environment and arguments the process was launched with, once read.
    private(set) lazy var launch: (environment: [String: String], arguments: [String]) = {
        guard case .launch(let entries, let arguments) = call(.launchEnvironment) else { return ([:], []) }
        var environment: [String: String] = [:]
        for entry in entries {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            environment[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        return (environment, arguments)
    }()
    /// The signpost IDs made so far, and the instant of the first (``nextSignpostID()``).
    private var signpostIDs: (made: UInt64, since: SimInstant)?
    /// The signpost IDs made for objects (`OSSignpostID(log:object:)`), by the object.
    private var objectSignpostIDs: [ObjectIdentifier: UInt64] = [:]
    /// What its code has been told of the battery, Low Power Mode and the thermal state.
    private var deviceNotifier = DeviceNotifier()
    /// The Dispatch queues whose blocks are running now, innermost last (the main queue while a
    /// callback of the system's runs the app's code).
    var executingQueues: [DispatchQueue] = []
    /// `OperationQueue.main` in its code.
    private(set) lazy var mainOperationQueue = OperationQueue(main: ())
    /// The path monitors its code started, in the order started.
    var pathMonitors: [NWPathMonitor] = []
    /// Its running continued-processing tasks, whose progress the system reads after each run.
    var continuedTasks: [BGContinuedProcessingTask] = []
    /// The requests its `URLSession.shared` has in hand.
    private(set) lazy var requests = NetworkRequests(process: self)
    /// The timer that brings the process back for its next sleep, if one is set.
    private var wake: (timer: UInt32, handler: CallbackID, at: SimInstant)?

    /// The sessions its code made (not the shared one), in the order made.
    var sessionsMade: [URLSession] = []
    /// The tasks of `URLSession.shared` in this process.
    let sharedSessionTasks = SessionTasks()
    /// While set, the news of background tasks waits: the system launched the process for a
    /// session's events and has not yet handed them over.
    var holdsSessionEvents = false
    /// The sessions whose events the system handed over and whose delegates have not yet heard
    /// `urlSessionDidFinishEvents(forBackgroundURLSession:)`, in the order handed over.
    var sessionsAwaitingFinish: [String] = []

    init(services: any SystemServices, recipe: AppRecipe) {
        self.services = services
        self.recipe = recipe
        executor = try? SimulatedExecutor()
    }

    /// The phone and the process now.
    var state: PhoneState { services.state }

    /// What the servers its requests reach answer.
    var server: SimulatedServer { recipe.server }

    /// Carries out `call` in the system.
    @discardableResult
    func call(_ call: SystemCall) -> SystemCallResult {
        services.call(call)
    }

    /// Runs the app's code `body` at the simulation's now, then the async work it started.
    /// Work that does not settle crashes the app (a crash of reason `asyncWorkDidNotSettle`,
    /// which ends the process once the callback returns), rather than trap or hang.
    func run(_ body: () -> Void) {
        guard let executor, !hasCrashed else { return }
        let previous = Self.current
        Self.current = self
        defer { Self.current = previous }
        do {
            try executor.withBound {
                // The app's code runs first, then the sleeps that ended while it was
                // suspended (as the system fires an app's overdue timers after the callback
                // that resumes it), all at now.
                executor.jump(to: state.instant)
                for monitor in pathMonitors { monitor.deliverIfChanged(beforeTheCode: true) }
                deviceNotifier.postChanges(in: self)
                execute(on: .main, body)
                deliverBackgroundSessionNews()
                try executor.advance(to: state.instant)
            }
            if !continuedTasks.isEmpty { continuedTasks.removeAll { !$0.reportProgress() } }
        } catch {
            crash(.asyncWorkDidNotSettle)
            return
        }
        scheduleWake()
    }

    /// The app's code crashed for `reason`: nothing more of it runs in this process, and the
    /// system ends the process once the callback returns (an OS process of its own ends at once).
    func crash(_ reason: CrashReason) {
        hasCrashed = true
        services.crash(reason)
    }

    /// The process launched: the device clock's start is known, and the app's code can run
    /// (a runtime that cannot simulate it crashes the launch, rather than trap).
    func launched(clockStartSeconds: Int64) {
        self.clockStartSeconds = clockStartSeconds
        if executor == nil { crash(.concurrencyUnsupported) }
    }

    /// Tells each background session the code made (the last made, for an identifier made
    /// twice) of its tasks that ended, and, if the system handed over its events, that they are
    /// all delivered — asynchronously, after the code that just ran.
    private func deliverBackgroundSessionNews() {
        guard !sessionsMade.isEmpty, !holdsSessionEvents else { return }
        var seen: [String] = []
        for session in sessionsMade.reversed() {
            guard let identifier = session.configuration.identifier, !seen.contains(identifier) else { continue }
            seen.append(identifier)
            let ended = takeEndedTransfers(session: identifier)
            let finishEvents = sessionsAwaitingFinish.contains(identifier)
            sessionsAwaitingFinish.removeAll { $0 == identifier }
            if !ended.isEmpty || finishEvents { session.deliverBackgroundNews(ended, finishEvents: finishEvents) }
        }
    }

    /// The background transfers of the session `identifier` that ended and that no process has
    /// heard of.
    func takeEndedTransfers(session identifier: String) -> [EndedTransfer] {
        guard case .endedTransfers(let ended) = call(.takeEndedTransfers(session: identifier)) else { return [] }
        return ended
    }

    /// The process ended (a new one launched): its code will not run again. It lets go of what
    /// that code held in cycles — sessions and their delegates, continued-processing tasks, path
    /// monitors — so that the process and its objects are freed.
    func end() {
        for session in sessionsMade { session.processEnded() }
        sessionsMade.removeAll()
        sharedSessionTasks.live.removeAll()
        continuedTasks.removeAll()
        pathMonitors.removeAll()
        callbacks.removeAll()
        delegate = nil
    }

    /// Sets a timer for the executor's next timed job, unless one is set for that instant.
    private func scheduleWake() {
        guard let next = executor?.nextDeadline else { return }
        if let wake, wake.at == next { return }
        if let wake {
            call(.cancelTimer(wake.timer))
            callbacks.remove(wake.handler)
        }
        let handler = callbacks.add(once: true) { [weak self] in
            guard let self else { return }
            self.wake = nil
            self.run {}
        }
        let delay = Swift.max(.zero, next - state.instant)
        guard case .integer(let timer) = call(.scheduleTimer(afterNanoseconds: delay.nanoseconds, handler: handler)) else { return }
        wake = (UInt32(timer), handler, next)
    }

    // MARK: The thread's process

    private static let binding = ThreadBinding<SimulatedProcess>()

    /// The process whose code the calling thread is running, if any.
    static var current: SimulatedProcess? {
        get { binding.current }
        set { binding.current = newValue }
    }

    /// The process running the calling code; a use outside the app's code stops with a message
    /// naming `api`.
    static func required(by api: String) -> SimulatedProcess {
        guard let current else {
            fatalError("\(api) was used outside the simulated app's code: call it from code the simulation runs "
                       + "(an app delegate, a task's launch handler, or work they start)")
        }
        return current
    }

    /// The signpost ID for the object `object`: made the first time, then the same.
    func signpostID(for object: ObjectIdentifier) -> UInt64 {
        if let id = objectSignpostIDs[object] { return id }
        let id = nextSignpostID()
        objectSignpostIDs[object] = id
        return id
    }

    /// A signpost ID unique in the run: the instant this process made its first, mixed, and
    /// a count (no two processes of a run make their first at the same instant but by chance).
    func nextSignpostID() -> UInt64 {
        var ids = signpostIDs ?? (0, state.instant)
        ids.made += 1
        signpostIDs = ids
        return (UInt64(bitPattern: ids.since.nanosecondsSinceStart) &* 0x9E37_79B9_7F4A_7C15) ^ ids.made
    }
}
