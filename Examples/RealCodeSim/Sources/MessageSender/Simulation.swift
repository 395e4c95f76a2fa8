import BackgroundSim
import SimulatedBackgroundTasks

extension PolicyDefinition {
    /// The app's own code as a policy: a fresh `AppDelegate` at each process launch.
    public static let realSender = PolicyDefinition.appDelegate(
        name: "real-sender", summary: "The team's message sender, its own code run unchanged.",
        taskIdentifiers: [BackgroundTaskService.identifier]) { AppDelegate() }
}

extension Presets.Preset {
    /// CoverDrop's user and phone, with the team's message sender. The messages are the
    /// sender's own (its `Outbox`), not the simulator's workload, which is turned off.
    public static var realSender: Presets.Preset {
        var scenario = Presets.scenario(named: "coverdrop-designed")!
        scenario.name = "real-sender"
        scenario.work = WorkParameters()
        scenario.app.policy = PolicyConfiguration(.realSender)
        scenario.app.permittedIdentifiers = [BackgroundTaskService.identifier]
        return Presets.Preset(name: "real-sender", summary: "The team's message sender, its own code, on CoverDrop's user and phone.",
                              scenario: scenario)
    }
}
