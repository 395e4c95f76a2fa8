/// The built-in background policies, by the names scenarios use in `app.policy`.
public enum PolicyCatalog {
    public struct Entry: Sendable {
        public var name: String
        public var summary: String
        /// Makes a fresh policy for a process launch from the scenario's parameters; `nil` for no
        /// app code.
        public var make: (@Sendable (Scenario) -> any BackgroundPolicy)?
    }

    public static let all: [Entry] = [
        Entry(name: "none", summary: "No app code: the app launches and is suspended; nothing is scheduled.", make: nil),
        Entry(name: "probe-refresh", summary: "Keeps one app refresh request pending, 15 min after each submit.",
              make: { _ in ProbePolicy(kind: .appRefresh) }),
        Entry(name: "probe-processing", summary: "Keeps one processing request (power and network) pending, 15 min after each submit.",
              make: { _ in ProbePolicy(kind: .processing) }),
        Entry(name: "proton-upload", summary: "Proton Drive: uploads in an extension, then a processing task; URLs expire after 3 h.",
              make: { ExtensionThenProcessingUpload(parameters: $0.policies.protonUpload) }),
        Entry(name: "coverdrop-send", summary: "CoverDrop: message sending in app refresh, rate-limited hourly, backoff 5–120 min.",
              make: { RefreshMessageSender(parameters: $0.policies.coverDrop) }),
        Entry(name: "coverdrop-send-forgetful",
              summary: "CoverDrop with a planted bug: after the device clock jumps back, the worker forgets setTaskCompleted.",
              make: { RefreshMessageSender(parameters: $0.policies.coverDrop, forgetsCompletionAfterClockJump: true) }),
        Entry(name: "zashi-sync", summary: "Zashi: wallet sync in a processing task on power and Wi-Fi, completed only when synced.",
              make: { ProcessingSync(parameters: $0.policies.zashiSync) }),
        Entry(name: "bgscheduler-demo", summary: "TestBGScheduler: refresh 60 s after backgrounding, every 60 s, three 2 s operations.",
              make: { PeriodicRefreshDemo(parameters: $0.policies.periodicDemo) }),
    ]

    public static func entry(named name: String) -> Entry? {
        all.first { $0.name == name }
    }
}
