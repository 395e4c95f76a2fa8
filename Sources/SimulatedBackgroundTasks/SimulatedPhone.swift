import BackgroundSim

/// This library's side of one simulated phone, which outlives each process of the app (and the
/// policy object made for each launch): the background sessions the system carries, and the
/// process running now.
final class SimulatedPhone {
    /// The system's side of the app's background `URLSession`s.
    private(set) lazy var backgroundSessions = BackgroundSessionStore(phone: self)
    /// The latest process, while anything still holds it.
    private(set) weak var process: SimulatedProcess?

    /// The phone of the run `app` belongs to, made at its first launch.
    static func of(_ app: AppContext) -> SimulatedPhone {
        app.frameworkState { SimulatedPhone() }
    }

    /// A new process launched: the last one has ended, and lets go of what its code held.
    func launched(_ process: SimulatedProcess) {
        self.process?.end()
        self.process = process
        backgroundSessions.attach(process)
    }
}
