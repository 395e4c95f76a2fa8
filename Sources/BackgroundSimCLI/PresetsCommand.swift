import BackgroundSim
import CommandLineSupport

/// `bgsim presets`: the built-in scenarios, one a line.
enum PresetsCommand {
    static let usage = """
        USAGE: bgsim presets

        Lists the built-in scenarios, each with what it is for. Use one with
        'bgsim run --preset NAME', or print it in full with 'bgsim scenario --preset NAME'.
        """

    static func run(_ arguments: ArraySlice<String>, _ context: CLIContext) throws -> Int32 {
        _ = try Flags(arguments, known: [])
        let width = context.presets.map(\.name.count).max() ?? 0
        for preset in context.presets {
            print(preset.name.column(width + 3) + preset.summary)
        }
        // Policies of the tool's own that no preset runs: each name is also a scenario (the
        // default user and device running that policy).
        let own = context.policies.definitions.filter { definition in
            definition.name != "none" && !context.presets.contains { $0.name == definition.name }
        }
        if !own.isEmpty {
            print("")
            print("Policies without a preset (each name runs the default scenario with that policy):")
            let policyWidth = own.map(\.name.count).max() ?? 0
            for definition in own { print(definition.name.column(policyWidth + 3) + definition.summary) }
        }
        return 0
    }
}
