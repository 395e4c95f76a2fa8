import BackgroundSim
import CommandLineSupport

/// `bgsim presets`: the built-in scenarios, one a line.
enum PresetsCommand {
    static let usage = """
        USAGE: bgsim presets

        Lists the built-in scenarios, each with what it is for. Use one with
        'bgsim run --preset NAME', or print it in full with 'bgsim scenario --preset NAME'.
        """

    static func run(_ arguments: ArraySlice<String>) throws -> Int32 {
        _ = try Flags(arguments, known: [])
        let width = Presets.all.map(\.name.count).max() ?? 0
        for preset in Presets.all {
            print(preset.name.column(width + 3) + preset.summary)
        }
        return 0
    }
}
