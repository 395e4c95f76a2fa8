// How the simulator runs the service: a policy and a preset. The only file of the module that
// knows about the simulator.
import BackgroundSim
import SimulatedBackgroundTasks

extension PolicyDefinition {
    /// The CoverDrop-shaped sending code as a policy: a fresh app delegate, and so a fresh
    /// service, at each process launch.
    public static let coverDropSending = PolicyDefinition.appDelegate(
        name: "coverdrop-real", summary: "Message sending written the way CoverDrop's iOS code writes it, run unchanged.",
        taskIdentifiers: [BackgroundTaskService.serviceName]) { CoverDropAppDelegate() }
}

extension Presets.Preset {
    /// The user and phone of the built-in `coverdrop-shipped` preset, with no real messages
    /// (every run sends cover traffic), running `policy`: the CoverDrop-shaped code by default,
    /// or a built-in policy to compare it with.
    public static func coverDropSending(policy: PolicyConfiguration = PolicyConfiguration(.coverDropSending)) -> Presets.Preset {
        var scenario = Presets.scenario(named: "coverdrop-shipped")!
        scenario.name = policy.name == "coverdrop-real" ? "coverdrop-real" : "\(policy.name)-cover-only"
        scenario.work.arrivals = .none
        scenario.app.policy = policy
        return Presets.Preset(name: scenario.name,
                              summary: "CoverDrop's user and phone, cover traffic only, with the CoverDrop-shaped code.",
                              scenario: scenario)
    }
}
