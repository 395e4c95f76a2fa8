import BackgroundSim

/// `bgsim presets`: the built-in scenarios, one a line.
enum PresetsCommand {
    static func run() {
        let width = Presets.all.map(\.name.count).max() ?? 0
        for preset in Presets.all {
            print(preset.name.padding(toLength: width + 3, withPad: " ", startingAt: 0) + preset.summary)
        }
    }
}
