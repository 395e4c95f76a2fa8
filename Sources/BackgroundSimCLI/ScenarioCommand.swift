import BackgroundSim
import CommandLineSupport

/// `bgsim scenario`: prints a scenario with every parameter filled in — the defaults, a preset, or
/// a file after validation — as a starting point for a scenario file.
enum ScenarioCommand {
    static let usage = """
        USAGE: bgsim scenario [--preset NAME | --scenario FILE] [--with FRAGMENT]...

        Prints the scenario as JSON with every parameter filled in: with no option, the defaults
        (the same as the scenario '{}'). Save it, delete what you do not change, edit the rest.
        Each parameter's unit, range and source: docs/SCENARIOS.md. Each --with FRAGMENT is laid
        over it in order (objects merge key by key, other values replace): the result shows what
        a fragment changes.
        """

    static func run(_ arguments: ArraySlice<String>, _ context: CLIContext) throws {
        let flags = try Flags(arguments, known: ["preset", "scenario"], repeatable: ["with"])
        let scenario: Scenario
        if flags.string("preset") == nil && flags.string("scenario") == nil {
            scenario = try context.overlaying(flags.strings("with"), on: Scenario())
        } else {
            scenario = try RunCommand.loadScenario(flags, context)
        }
        print(JSONWriter.pretty(ScenarioLoader.document(of: scenario)))
    }
}
