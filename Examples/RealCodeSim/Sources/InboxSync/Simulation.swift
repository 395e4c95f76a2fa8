import BackgroundSim
import SimulatedBackgroundTasks

/// The inbox service's switch in a scenario: `app.policy.parameters.crashEveryNthLaunch`.
public struct InboxParameters: PolicyParameters {
    /// Every this-many-th launch traps (0, the default: never).
    public var crashEveryNthLaunch = 0

    public init() {}

    public static let numberFields = [NumberField<Self>("crashEveryNthLaunch", \.crashEveryNthLaunch, valid: 0...1_000)]
}

extension PolicyDefinition {
    /// The inbox service, its own code, a process per launch.
    public static let inboxSync = PolicyDefinition.appDelegate(
        name: "inbox-real", summary: "A messaging app's inbox sync with a singleton, static flags, an OperationQueue and Dispatch, its own code.",
        parameters: InboxParameters.self, taskIdentifiers: [InboxSyncService.refreshIdentifier],
        server: SimulatedServer { _, _ in Data(count: InboxSyncService.syncBytes) }) { parameters in
        InboxAppDelegate(crashEveryNthLaunch: parameters.crashEveryNthLaunch)
    }
}

extension Presets.Preset {
    /// CoverDrop's user and phone with the inbox service; the sync's requests are the app's own.
    public static var inboxSync: Presets.Preset {
        var scenario = Presets.scenario(named: "coverdrop-designed")!
        scenario.name = "inbox-real"
        scenario.work = WorkParameters()
        scenario.app.policy = PolicyConfiguration(.inboxSync)
        scenario.app.permittedIdentifiers = [InboxSyncService.refreshIdentifier]
        return Presets.Preset(name: "inbox-real", summary: "A messaging app's inbox sync, its own code, on CoverDrop's user and phone.",
                              scenario: scenario)
    }
}
