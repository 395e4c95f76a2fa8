/// The built-in background policies, by the names scenarios use in `app.policy`.
public enum PolicyCatalog {
    public struct Entry: Sendable {
        public var name: String
        public var summary: String
        /// Makes a fresh policy for a process launch; `nil` for no app code.
        public var make: (@Sendable () -> any BackgroundPolicy)?
    }

    public static let all: [Entry] = [
        Entry(name: "none", summary: "No app code: the app launches and is suspended; nothing is scheduled.", make: nil),
        Entry(name: "probe-refresh", summary: "Keeps one app refresh request pending, 15 min after each submit.",
              make: { ProbePolicy(kind: .appRefresh) }),
        Entry(name: "probe-processing", summary: "Keeps one processing request (power and network) pending, 15 min after each submit.",
              make: { ProbePolicy(kind: .processing) }),
    ]

    public static func entry(named name: String) -> Entry? {
        all.first { $0.name == name }
    }
}
