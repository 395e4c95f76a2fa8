import BackgroundSim
import SimKernel
import SimulatedConcurrency

/// One launch of the app's process as its own code sees it: the simulated device's services
/// (``AppContext``), the executor its async work runs on, and the handlers it registered.
///
/// Every call into the app's code goes through ``run(_:)``, which binds the process to the
/// thread — so that `BGTaskScheduler.shared` and `UIApplication.shared` reach this device —
/// moves the executor to the simulation's now, runs the code and then the async work it started
/// until nothing is ready, and asks the simulation to come back when the next sleep ends. A sleep
/// that ends while the app is suspended resumes when the app next runs, after the code that
/// runs then, as a timer would.
final class SimulatedProcess {
    let app: AppContext
    /// The executor its async work runs on; `nil` when this runtime cannot simulate it.
    let executor: SimulatedExecutor?
    /// The app's code crashed: nothing more of it runs in this process.
    private(set) var hasCrashed = false
    /// The process's notification center (`NotificationCenter.default` in its code).
    let notifications = NotificationCenter()
    /// `UserDefaults.register(defaults:)`'s values, for this process only.
    var registeredDefaults: [String: Any] = [:]
    /// `UIDevice.isBatteryMonitoringEnabled`, off at each launch.
    var isBatteryMonitoringEnabled = false
    /// What its code has been told of the battery, Low Power Mode and the thermal state.
    private var deviceNotifier = DeviceNotifier()
    /// The path monitors its code started, in the order started.
    var pathMonitors: [NWPathMonitor] = []
    /// Its running continued-processing tasks, whose progress the system reads after each run.
    var continuedTasks: [BGContinuedProcessingTask] = []
    /// The requests its `URLSession.shared` has in hand.
    private(set) lazy var requests = NetworkRequests(process: self)
    /// The timer that brings the process back for its next sleep, if one is set.
    private var wake: (timer: AppTimer, at: SimInstant)?

    /// What the servers its requests reach answer.
    let server: SimulatedServer
    /// The phone's background sessions, which outlive the process.
    let backgroundSessions: BackgroundSessionStore
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

    init(app: AppContext, server: SimulatedServer, backgroundSessions: BackgroundSessionStore) {
        self.app = app
        self.server = server
        self.backgroundSessions = backgroundSessions
        do {
            executor = try SimulatedExecutor()
        } catch {
            // The app's code cannot run here: the process crashes as it launches, and the run
            // reports it (a crash of reason `concurrencyUnsupported`), rather than trap.
            executor = nil
            app.crash(.concurrencyUnsupported)
        }
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
                executor.jump(to: app.instant)
                for monitor in pathMonitors { monitor.deliverIfChanged(beforeTheCode: true) }
                deviceNotifier.postChanges(in: self)
                body()
                deliverBackgroundSessionNews()
                try executor.advance(to: app.instant)
            }
            if !continuedTasks.isEmpty { continuedTasks.removeAll { !$0.reportProgress() } }
        } catch {
            hasCrashed = true
            app.crash(.asyncWorkDidNotSettle)
            return
        }
        scheduleWake()
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
            let ended = backgroundSessions.takeEnded(session: identifier)
            let finishEvents = sessionsAwaitingFinish.contains(identifier)
            sessionsAwaitingFinish.removeAll { $0 == identifier }
            if !ended.isEmpty || finishEvents { session.deliverBackgroundNews(ended, finishEvents: finishEvents) }
        }
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
    }

    /// Sets a timer for the executor's next timed job, unless one is set for that instant.
    private func scheduleWake() {
        guard let next = executor?.nextDeadline else { return }
        if let wake, wake.at == next { return }
        if let wake { app.cancel(wake.timer) }
        let timer = app.schedule(after: Swift.max(.zero, next - app.instant)) { [weak self] in
            guard let self else { return }
            self.wake = nil
            self.run {}
        }
        wake = (timer, next)
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
}
