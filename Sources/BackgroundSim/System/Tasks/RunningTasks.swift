import SimKernel

/// The background tasks the system has delivered and the app has not completed, with their
/// expiration and, once expired, the grace period in which the app must still call
/// `setTaskCompleted` before the system kills it [A].
///
/// It also keeps the CPU monitor, which kills an app whose processing task on battery uses more
/// than a set share of a core for too long [O].
///
/// This type never calls into the app: it hands back the task whose expiration handler the
/// system is to call.
struct RunningTasks: BackgroundDoor {
    struct Entry {
        let task: BackgroundTask
        /// The process the task was delivered to.
        let generation: UInt32
        let requiresExternalPower: Bool
        let requiresNetwork: Bool
        /// Launched by a debugger command: the system never expires it (only a simulated
        /// expiration does).
        let simulated: Bool
        /// The expiration handler has been called.
        var expired = false
        /// The deadline the task runs to: its allotment (a miss expires it), then, once expired,
        /// the grace period (a miss kills the app); `nil` for a task with no allotment that has
        /// not expired.
        var window: CompletionWindow?

        /// Whether the task waits out its grace period (it expired and was reconciled).
        var isInGrace: Bool {
            if case .killForTask = window?.miss { return true }
            return false
        }
    }

    private(set) var entries: [Entry] = []
    /// The serial the next delivered task gets; serials are never reused within a run.
    private(set) var nextSerial: UInt32 = 1
    /// The share of a core the app says it uses (``AppContext/reportCPUUsage(_:)``), 0 … 1.
    var reportedCPUShare = 0.0
    private var cpuCheck = EventSlot()

    var isEmpty: Bool { entries.isEmpty }

    /// Whether a task keeps the app running in the background (until it completes, or its grace ends).
    var holdsApp: Bool { !entries.isEmpty }

    /// Whether a processing task is running (the user picking up the phone ends it).
    var anyProcessing: Bool { entries.contains { $0.task.kind == .processing } }

    /// How many tasks of `kind` are running (expired ones still in their grace period included).
    func count(of kind: BackgroundTask.Kind) -> Int {
        entries.count { $0.task.kind == kind }
    }

    /// The serials of the running tasks of `kind` that the system may still expire, in launch order.
    func serials(of kind: BackgroundTask.Kind) -> [UInt32] {
        entries.filter { $0.task.kind == kind && !$0.expired }.map(\.task.serial)
    }

    /// Takes the next serial for a task about to be delivered.
    mutating func takeSerial() -> UInt32 {
        defer { nextSerial &+= 1 }
        return nextSerial
    }

    /// Adds a task delivered to process `generation` that expires at `expiry`, or has no time
    /// allotment (`nil`: a continued-processing task, which ends on stalled progress or the
    /// user's cancel). A task a debugger command launched (`simulated`) has none either, and the
    /// system never expires it. Only processing requests can require power or a network.
    mutating func add(_ task: BackgroundTask, generation: UInt32, requiresExternalPower: Bool = false, requiresNetwork: Bool = false,
                      expiringAt expiry: SimInstant?, simulated: Bool, in simulation: inout Simulation<WorldEvent>) {
        precondition(expiry.map { $0 >= simulation.now } ?? true, "RunningTasks: task \(task.serial) expires before it starts")
        precondition(!simulated || expiry == nil, "RunningTasks: the debugger's task \(task.serial) given an allotment")
        var entry = Entry(task: task, generation: generation, requiresExternalPower: requiresExternalPower,
                          requiresNetwork: requiresNetwork, simulated: simulated)
        if let expiry {
            entry.window = CompletionWindow(generation: generation, miss: .expireTask(serial: task.serial),
                                            event: .taskExpiration(serial: task.serial), at: expiry, in: &simulation)
        }
        entries.append(entry)
        checkInvariantsIfEnabled()
    }

    /// The running task with `serial`, if any.
    func task(serial: UInt32) -> BackgroundTask? {
        entries.first { $0.task.serial == serial }?.task
    }

    /// Marks the task with `serial` expired, if it is running, not yet expired and not
    /// completed, and returns it so that the caller can call its expiration handler.
    mutating func beginExpiration(serial: UInt32) -> BackgroundTask? {
        guard let index = entries.firstIndex(where: { $0.task.serial == serial }),
              !entries[index].expired, entries[index].task.completion == nil else { return nil }
        // Not checked here: the task waits on its expiration until the next reconcile gives it
        // its grace period, which the invariants then hold.
        entries[index].expired = true
        return entries[index].task
    }

    /// A task's deadline passed (its expiration or its grace period's end): returns its window,
    /// which no longer waits on an event.
    mutating func windowEnded(serial: UInt32) -> CompletionWindow? {
        guard let index = entries.firstIndex(where: { $0.task.serial == serial }) else { return nil }
        defer {
            entries[index].window = nil
            checkInvariantsIfEnabled()
        }
        return entries[index].window
    }

    /// The serials of running tasks, not expired or completed, that `predicate` selects, leaving
    /// out those a debugger command launched (the system does not expire them).
    func serials(where predicate: (Entry) -> Bool) -> [UInt32] {
        entries.filter { predicate($0) && !$0.simulated && !$0.expired && $0.task.completion == nil }.map(\.task.serial)
    }

    /// The serial of the running task of `identifier` that has not expired or completed, if any.
    func unexpiredSerial(identifier: String) -> UInt32? {
        entries.first { $0.task.identifier == identifier && !$0.expired && $0.task.completion == nil }?.task.serial
    }

    /// Removes completed tasks, and gives each expired one not yet completed its grace period
    /// (a window whose miss kills the app).
    mutating func reconcile(graceSeconds: Double, in simulation: inout Simulation<WorldEvent>) {
        for index in entries.indices where entries[index].task.completion != nil {
            cancelEvents(of: index, in: &simulation)
        }
        entries.removeAll { $0.task.completion != nil }
        for index in entries.indices where entries[index].expired && !entries[index].isInGrace {
            let task = entries[index].task
            entries[index].window?.close(in: &simulation)
            entries[index].window = CompletionWindow(generation: entries[index].generation, miss: .killForTask(identifier: task.identifier, serial: task.serial),
                                                     event: .taskGraceEnd(serial: task.serial),
                                                     at: simulation.now + .seconds(graceSeconds), in: &simulation)
        }
        checkInvariantsIfEnabled()
    }

    /// Whether the CPU monitor watches a running task: a processing task that did not ask for
    /// external power, or any processing task when `ignoringExternalPower` (the observed bug,
    /// ``SystemParameters/cpuMonitorIgnoresExternalPower``).
    func cpuMonitored(ignoringExternalPower: Bool) -> Bool {
        entries.contains { $0.task.kind == .processing && (ignoringExternalPower || !$0.requiresExternalPower) }
    }

    /// Starts the CPU monitor's countdown while a watched task runs and the app uses more than
    /// the limit (`overLimit`); stops it otherwise.
    mutating func reconcileCPUMonitor(overLimit: Bool, parameters: SystemParameters, in simulation: inout Simulation<WorldEvent>) {
        if overLimit {
            cpuCheck.setIfIdle(.cpuMonitorCheck, at: simulation.now + .seconds(parameters.cpuMonitorSeconds), in: &simulation)
        } else {
            cpuCheck.cancel(in: &simulation)
        }
    }

    /// The CPU monitor's countdown ended.
    mutating func cpuCheckFired() {
        cpuCheck.fired()
    }

    /// The process ended: every task goes, with its events, and the CPU monitor stops.
    mutating func processEnded(in simulation: inout Simulation<WorldEvent>) {
        for index in entries.indices { cancelEvents(of: index, in: &simulation) }
        entries.removeAll()
        cpuCheck.cancel(in: &simulation)
        reportedCPUShare = 0
        checkInvariantsIfEnabled()
    }

    /// The task at `index` is leaving: its deadline is cancelled, and its expiration handler
    /// released (it usually captures the task, a cycle that would keep every task of a run alive).
    private mutating func cancelEvents(of index: Int, in simulation: inout Simulation<WorldEvent>) {
        entries[index].window?.close(in: &simulation)
        entries[index].window = nil
        entries[index].task.expirationHandler = nil
    }
}
