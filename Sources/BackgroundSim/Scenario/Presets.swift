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
    ]

    /// The preset called `name`, if there is one.
    public static func scenario(named name: String) -> Scenario? {
        all.first { $0.name == name }?.scenario
    }
}
