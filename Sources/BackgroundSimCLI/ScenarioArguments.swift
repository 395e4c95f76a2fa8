import BackgroundSim
import CommandLineSupport
import Foundation

/// Scenarios named on the command line: preset names or scenario JSON files.
enum ScenarioArguments {
    /// Each word as a named scenario: a preset by its name, a file by its base name; each with
    /// the fragments `overlays` laid over it in order (`--with`).
    static func load(_ words: [String], _ context: CLIContext, overlays: [String] = []) throws -> [(name: String, scenario: Scenario)] {
        try words.map { word in
            let (name, scenario) = try loadOne(word, context)
            let overlaid = try context.overlaying(overlays, on: scenario)
            context.warnAboutNoOps(in: overlaid)
            return (name, overlaid)
        }
    }

    /// A preset by its name, or a file by its base name.
    private static func loadOne(_ word: String, _ context: CLIContext) throws -> (name: String, scenario: Scenario) {
        if let scenario = context.scenario(named: word) { return (word, scenario) }
        guard word.hasSuffix(".json") || FileManager.default.fileExists(atPath: word) else {
            if let replacement = FormerNames.replacement(for: word) { throw UsageError("'\(word)' is now called '\(replacement)'") }
            if let nearest = ScenarioLoader.closest(to: word, among: context.scenarioNameList) {
                throw UsageError("'\(word)' is neither a preset or policy nor a scenario file; did you mean '\(nearest)'?")
            }
            throw UsageError("'\(word)' is neither a preset or policy (\(context.scenarioNames)) nor a scenario file")
        }
        return (URL(fileURLWithPath: word).deletingPathExtension().lastPathComponent, try context.loadScenario(path: word))
    }
}
