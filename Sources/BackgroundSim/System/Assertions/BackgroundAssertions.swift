import SimKernel

/// The app's background-task assertions (`beginBackgroundTask`) and their shared budget: about
/// 30 s from entering the background, with the expiration handlers called shortly before it ends
/// and the app killed if it still holds one when it ends [A-DTS].
///
/// This type never calls into the app: ``beginWarning()`` hands back the handlers for the system
/// to call.
struct BackgroundAssertions: BackgroundDoor {
    struct Assertion {
        var id: BackgroundTaskIdentifier
        var name: String
        var expirationHandler: (() -> Void)?
    }

    private(set) var held: [Assertion] = []
    /// The next assertion's id; ids start at 1 (0 is `.invalid`) and are never reused.
    private(set) var nextID = 1
    /// When the app last entered the background, or was launched or resumed there: the budget
    /// runs from here.
    var backgroundSince: SimInstant = .start
    /// The expiration handlers have been called in this stretch in the background.
    private(set) var warned = false
    private(set) var warning = EventSlot()
    private(set) var deadline = EventSlot()

    var isEmpty: Bool { held.isEmpty }

    /// Whether an assertion keeps the app running in the background.
    var holdsApp: Bool { !held.isEmpty }

    /// When the budget of the current stretch in the background ends.
    func budgetEnd(budgetSeconds: Double) -> SimInstant {
        backgroundSince + .seconds(budgetSeconds)
    }

    mutating func begin(name: String, expirationHandler: (() -> Void)?) -> BackgroundTaskIdentifier {
        let id = BackgroundTaskIdentifier(rawValue: nextID)
        nextID += 1
        held.append(Assertion(id: id, name: name, expirationHandler: expirationHandler))
        checkInvariantsIfEnabled()
        return id
    }

    /// Ends the assertion `id`; false if it is not held.
    mutating func end(_ id: BackgroundTaskIdentifier) -> Bool {
        guard held.contains(where: { $0.id == id }) else { return false }
        held.removeAll { $0.id == id }
        checkInvariantsIfEnabled()
        return true
    }

    /// A new stretch in the background begins at `now` (the app left the foreground, or was
    /// launched or resumed there to run a task): the budget starts again, with its warning.
    mutating func enterBackground(at now: SimInstant) {
        precondition(now >= backgroundSince, "BackgroundAssertions: in the background at \(now), before the last time (\(backgroundSince))")
        backgroundSince = now
        warned = false
    }

    /// The app came to the foreground: a later stretch in the background gets its warning again.
    mutating func enterForeground() {
        warned = false
    }

    /// The warning event fired: returns the assertions whose handlers are to be called, in the
    /// order they began.
    mutating func beginWarning() -> [Assertion] {
        warning.fired()
        warned = true
        return held
    }

    /// The deadline event fired.
    mutating func deadlineFired() {
        deadline.fired()
    }

    /// Schedules the warning and the deadline while the app runs in the background holding an
    /// assertion; cancels them otherwise.
    mutating func reconcile(runningInBackground: Bool, now: SimInstant, parameters: SystemParameters,
                            in simulation: inout Simulation<WorldEvent>) {
        precondition(now == simulation.now, "BackgroundAssertions: reconciled as of \(now) at \(simulation.now)")
        if runningInBackground && !held.isEmpty {
            let end = budgetEnd(budgetSeconds: parameters.extensionBudgetSeconds)
            deadline.setIfIdle(.assertionDeadline, at: Swift.max(now, end), in: &simulation)
            if !warned {
                warning.setIfIdle(.assertionWarning, at: Swift.max(now, end - .seconds(parameters.expirationLeadSeconds)), in: &simulation)
            }
        } else {
            warning.cancel(in: &simulation)
            deadline.cancel(in: &simulation)
        }
        checkInvariantsIfEnabled()
    }

    /// The process ended: every assertion goes, with the budget's events.
    mutating func processEnded(in simulation: inout Simulation<WorldEvent>) {
        held.removeAll()
        warning.cancel(in: &simulation)
        deadline.cancel(in: &simulation)
    }
}
