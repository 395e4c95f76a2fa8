import BackgroundSim

/// The system's side of one simulated phone, which outlives each process of the app (and the
/// policy object made for each launch): the background sessions the system carries, the process
/// running now, and the fork server that starts the app's processes.
final class SimulatedPhone {
    /// The system's side of the app's background `URLSession`s.
    private(set) lazy var backgroundSessions = BackgroundSessionStore(phone: self)
    /// The latest process's host, while anything still holds it.
    private(set) weak var host: ProcessHost?
    #if os(Linux)
    /// Starts the app's processes in OS processes of their own; made at the first such launch.
    private var server: ForkServer?
    #endif

    /// The phone of the run `app` belongs to, made at its first launch.
    static func of(_ app: AppContext) -> SimulatedPhone {
        app.frameworkState { SimulatedPhone() }
    }

    /// A new process launched: the last one has ended, and lets go of what its code held.
    func launched(_ host: ProcessHost) {
        self.host?.end()
        self.host = host
        backgroundSessions.attach(host)
    }

    #if os(Linux)
    /// The fork server, made at the first call (the same policy makes every launch of a run): by
    /// the tool's broker when it can make the scenario's `policy`, else forked here with `recipe`.
    func forkServer(recipe: AppRecipe, policy: PolicyConfiguration?) -> ForkServer {
        if let server { return server }
        let server = if let policy, let channel = ProcessBroker.current?.server(for: policy) {
            ForkServer(brokered: channel)
        } else {
            ForkServer(recipe: recipe)
        }
        self.server = server
        return server
    }
    #endif
}
