/// The built-in scenarios, listed by `bgsim presets`: the device alone, then each reference
/// app's presets (``ReferenceApp``).
public enum Presets {
    /// A scenario offered by name, with what it is for.
    public struct Preset: Sendable {
        public var name: String
        public var summary: String
        public var scenario: Scenario

        /// A scenario offered by `name`, with what it is for.
        public init(name: String, summary: String, scenario: Scenario) {
            self.name = name
            self.summary = summary
            self.scenario = scenario
        }

        /// `scenario` offered by its own name, its description saying what it is for.
        init(_ scenario: Scenario) {
            self.init(name: scenario.name, summary: scenario.description, scenario: scenario)
        }
    }

    /// Every preset, in the order `bgsim presets` lists them.
    public static let all: [Preset] = [Preset(deviceOnly)] + ReferenceApp.all.flatMap(\.presets)

    /// The default user and device with no app.
    private static var deviceOnly: Scenario {
        var scenario = Scenario()
        scenario.name = "device-only"
        scenario.description = "The default user and device with no app."
        return scenario
    }

    /// The preset called `name`, if there is one.
    public static func scenario(named name: String) -> Scenario? {
        all.first { $0.name == name }?.scenario
    }
}
