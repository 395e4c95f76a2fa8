import BackgroundSim
import CommandLineSupport
import Foundation

/// Scenarios named on the command line: preset names or scenario JSON files.
enum ScenarioArguments {
    /// Each word as a named scenario: a preset by its name, a file by its base name.
    static func load(_ words: [String]) throws -> [(name: String, scenario: Scenario)] {
        try words.map { word in
            if let preset = Presets.scenario(named: word) { return (word, preset) }
            guard word.hasSuffix(".json") || FileManager.default.fileExists(atPath: word) else {
                throw UsageError("'\(word)' is neither a preset (\(Presets.all.map(\.name).joined(separator: ", "))) nor a scenario file")
            }
            do {
                return (URL(fileURLWithPath: word).deletingPathExtension().lastPathComponent, try ScenarioLoader.load(path: word))
            } catch let error as ScenarioError {
                throw UsageError(error.description)
            }
        }
    }
}
