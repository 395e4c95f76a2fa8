import BackgroundSim
import SimulatedBackgroundTasks

// The glue: the feed app's code as a policy the simulator runs by name, its content age as a
// metric, and a preset. The app's types stay internal to this module.

extension PolicyDefinition {
    /// The feed app, its own code, a process per launch; its content age at each open measured
    /// from its `contentUpdated` signposts.
    public static let feedRefresh = PolicyDefinition.appDelegate(
        name: "feed-real", summary: "A feed app's background refresh (BGAppRefreshTask, async URLSession, UserDefaults), its own code.",
        taskIdentifiers: [FeedRefresher.refreshIdentifier],
        server: SimulatedServer { _, _ in Data(count: FeedRefresher.feedBytes) }) {
        FeedAppDelegate()
    }.measuring([.contentAge(marginMinutes: 15)])
}

extension Presets.Preset {
    /// The default user and phone with the feed app, refreshing hourly (`FEED_REFRESH_MINUTES=60`).
    public static var feedRefresh: Presets.Preset {
        var scenario = Scenario()
        scenario.name = "feed-real"
        scenario.app.policy = PolicyConfiguration(.feedRefresh)
        scenario.app.permittedIdentifiers = [FeedRefresher.refreshIdentifier]
        scenario.app.metrics = PolicyDefinition.feedRefresh.metrics
        scenario.app.launch.environment = ["FEED_REFRESH_MINUTES": "60"]
        return Presets.Preset(name: "feed-real", summary: "A feed app's hourly background refresh, its own code, on the default user and phone.",
                              scenario: scenario)
    }
}
