/// The built-in scenarios, listed by `bgsim presets`.
public enum Presets {
    /// A built-in scenario with its name and what it is for.
    public struct Preset: Sendable {
        public var name: String
        public var summary: String
        public var scenario: Scenario
    }

    /// Every preset, in the order `bgsim presets` lists them.
    public static let all: [Preset] = [
        Preset(
            name: "device-only",
            summary: "The default user and iPhone 15 with no app: the device's own days, for calibration.",
            scenario: {
                var scenario = Scenario()
                scenario.name = "device-only"
                scenario.description = "The default user and device with no app."
                return scenario
            }()),
        Preset(
            name: "probe-refresh",
            summary: "Default user and device; the app keeps one refresh request pending (earliest +15 min).",
            scenario: probe(name: "probe-refresh", policy: "probe-refresh", identifier: ProbePolicy.refreshIdentifier)),
        Preset(
            name: "probe-processing",
            summary: "Default user and device; the app keeps one processing request (power, network) pending.",
            scenario: probe(name: "probe-processing", policy: "probe-processing", identifier: ProbePolicy.processingIdentifier)),
    ]

    /// A probe: the default user and device with a probe policy that is allowed its identifier.
    static func probe(name: String, policy: String, identifier: String) -> Scenario {
        var scenario = Scenario()
        scenario.name = name
        scenario.description = "Measures how often the system launches a \(policy == "probe-refresh" ? "refresh" : "processing") task."
        scenario.app.policy = policy
        scenario.app.permittedIdentifiers = [identifier]
        return scenario
    }

    /// The preset called `name`, if there is one.
    public static func scenario(named name: String) -> Scenario? {
        all.first { $0.name == name }?.scenario
    }
}
