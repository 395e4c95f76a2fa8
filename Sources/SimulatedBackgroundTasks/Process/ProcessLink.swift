import BackgroundSim

/// Where the app's code runs, as the system's side (``ProcessHost``) sees it: it hands the
/// process a delivery and returns once the process has run its code and the async work it
/// started, having carried out the process's calls meanwhile.
protocol ProcessLink: AnyObject {
    /// Runs the app's code for `delivery` in the process. Nothing runs once the process ended.
    func deliver(_ delivery: ProcessDelivery)
    /// The simulated process ended: its code runs no more. Calling it again does nothing.
    func end()
}

/// The system as the app's process sees it: the phone's state, and the calls it makes.
protocol SystemServices: AnyObject {
    /// The phone and the process now.
    var state: PhoneState { get }
    /// Carries out `call` in the system and returns its answer.
    func call(_ call: SystemCall) -> SystemCallResult
    /// Reports that the app's code crashed for `reason`: the process ends once the callback it
    /// runs in returns. In an OS process of its own, that process ends at once (and this does
    /// not return), as a crashed process does.
    func crash(_ reason: CrashReason)
    /// Writes `output` to the device's log, as the process's standard output.
    func write(output: String)
}

/// The app's process in this OS process: deliveries and calls are function calls.
///
/// The app's code then shares this OS process with the simulation and with every other
/// simulation running on other threads: what its globals and statics hold outlives each
/// simulated process and is seen by the others, and a trap in it ends the whole run. This is
/// safe only for code that keeps no state of its own outside the objects the simulation makes
/// at each launch (docs/RUN-YOUR-OWN-CODE.md, "One process or one per launch").
final class InProcessLink: ProcessLink, SystemServices {
    /// The system's side; gone once the process ended and the system let go of it.
    private weak var host: ProcessHost?
    private var process: SimulatedProcess?
    /// The state last read, for code of an ended process that still runs.
    private var lastState: PhoneState

    init(host: ProcessHost, recipe: AppRecipe) {
        self.host = host
        lastState = host.state
        process = SimulatedProcess(services: self, recipe: recipe)
    }

    func deliver(_ delivery: ProcessDelivery) {
        process?.handle(delivery)
    }

    /// Lets go of the process (which holds this link), after it lets go of what its code held.
    func end() {
        process?.end()
        process = nil
    }

    var state: PhoneState {
        if let host { lastState = host.state }
        return lastState
    }

    /// Carries out `call`; a call from code of a process the system has let go of changes
    /// nothing (as a call through a stale `AppContext` does).
    func call(_ call: SystemCall) -> SystemCallResult {
        guard let host else { return .none }
        guard call.awaitsAnswer else {
            host.perform(withoutAnswer: call)
            return .none
        }
        return host.perform(call)
    }

    func crash(_ reason: CrashReason) {
        _ = host?.perform(.crash(reason))
    }

    func write(output: String) {
        host?.recordOutput(Array(output.utf8))
    }
}
