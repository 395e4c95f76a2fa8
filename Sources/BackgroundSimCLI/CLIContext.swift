import BackgroundSim
import BackgroundSimLab
import CommandLineSupport
import Foundation

/// What every subcommand knows beyond its arguments: the policies and presets the tool offers,
/// and its name.
struct CLIContext: Sendable {
    var policies: PolicyRegistry
    var extraPresets: [Presets.Preset]
    var toolName: String

    /// `text` (a help text, a message) with the tool called by its own name: each `bgsim`
    /// followed by a space, or in quotes, becomes ``toolName`` (`mysim run …`); `bgsim-bench`
    /// and file names are left alone.
    func named(_ text: String) -> String {
        guard toolName != "bgsim" else { return text }
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: "bgsim") {
            let before = range.lowerBound == rest.startIndex ? (result.last ?? " ") : rest[rest.index(before: range.lowerBound)]
            let after = range.upperBound < rest.endIndex ? rest[range.upperBound] : " "
            result += rest[..<range.lowerBound]
            let standalone = !(before.isLetter || before.isNumber || before == "-" || before == "/" || before == "_")
                && (after == " " || after == "'" || after == "`" || after == "\n" || after == ":")
            result += standalone ? toolName : "bgsim"
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    /// The presets by name: the built-in ones, then the tool's own.
    var presets: [Presets.Preset] { Presets.all + extraPresets }

    /// The scenario `name` stands for: a preset, or a registered policy's name (the default
    /// scenario running that policy); `nil` if it is neither (a former name included: the
    /// message says what replaced it, ``FormerNames``).
    func scenario(named name: String) -> Scenario? {
        if let preset = presets.first(where: { $0.name == name }) { return preset.scenario }
        guard let definition = policies.definition(named: name), name != "none" else { return nil }
        var scenario = Scenario()
        scenario.name = name
        scenario.app.policy = PolicyConfiguration(definition)
        scenario.app.permittedIdentifiers = definition.taskIdentifiers
        scenario.app.metrics = definition.metrics
        return scenario
    }

    /// What a message about `name`, which names no scenario, says: what replaced it, if it is a
    /// former name (``FormerNames``), or the names known.
    func unknownScenario(_ name: String) -> String {
        if let replacement = FormerNames.replacement(for: name) { return "'\(name)' is now called '\(replacement)'" }
        if let nearest = ScenarioLoader.closest(to: name, among: scenarioNameList) {
            return "did you mean '\(nearest)'? ('\(toolName) presets' lists them all)"
        }
        return "expected one of \(scenarioNames)"
    }

    /// The names `scenario(named:)` knows.
    var scenarioNameList: [String] {
        let policyNames = policies.definitions.map(\.name).filter { name in name != "none" && !presets.contains { $0.name == name } }
        return presets.map(\.name) + policyNames
    }

    /// The names `scenario(named:)` knows, for messages.
    var scenarioNames: String { scenarioNameList.joined(separator: ", ") }

    /// `base` with each scenario fragment in `paths` laid over it in order (`--with`; the merge
    /// rule is ``ScenarioLoader/overlay(_:source:over:policies:)``'s); problems are bad input.
    func overlaying(_ paths: [String], on base: Scenario) throws -> Scenario {
        var scenario = base
        for path in paths {
            do {
                scenario = try ScenarioLoader.overlay(path: path, over: scenario, policies: policies)
            } catch {
                throw UsageError(error.description)
            }
        }
        return scenario
    }

    /// A sweep's or a tuning's base scenario document with each fragment in `paths` laid over
    /// it in order (`--with`), as a whole scenario's document; `source` names the study file.
    func overlaying(_ paths: [String], onDocument base: JSONValue, source: String) throws -> JSONValue {
        guard !paths.isEmpty else { return base }
        let scenario: Scenario
        do {
            scenario = try ScenarioLoader.decode(JSONWriter.compact(base), source: source, policies: policies)
        } catch {
            throw UsageError(error.description)
        }
        return ScenarioLoader.document(of: try overlaying(paths, on: scenario))
    }

    /// Reads a scenario file with this tool's policies; problems are bad input (exit 2).
    func loadScenario(path: String) throws -> Scenario {
        do {
            return try ScenarioLoader.load(path: path, policies: policies)
        } catch {
            throw UsageError(error.description)
        }
    }
}

extension CLIContext {
    /// Says on standard error, before a long command starts, what it will cost: the simulated
    /// device-days and the time they should take here (``RunEstimate``); nothing for a short
    /// one (unless `evenIfShort`: a command the user did not size, such as a bare `compare`),
    /// or with `--quiet`.
    func announceCost(_ subcommand: String, scenario: Scenario, runs: Int, days: Int, jobs: Int, quiet: Bool, evenIfShort: Bool = false,
                      probe: RunEstimate.Probe? = nil) {
        guard !quiet, let note = RunEstimate.note(scenario, deviceDays: Double(runs) * Double(days), jobs: jobs, days: days,
                                                  policies: policies, evenIfShort: evenIfShort, probe: probe)
        else { return }
        Output.error("\(toolName) \(subcommand): \(note)")
    }
}

extension CLIContext {
    /// Says on standard error what in `scenario` would silently do nothing: task identifiers the
    /// policy uses that the app's Info.plist (`app.permittedIdentifiers`) does not permit, so
    /// that every submit of them fails `notPermitted` and every registration is refused.
    func warnAboutNoOps(in scenario: Scenario) {
        guard let definition = policies.definition(named: scenario.app.policy.name) else { return }
        let used = scenario.app.policy.parameters.taskIdentifiers ?? definition.taskIdentifiers
        let missing = used.filter { !scenario.app.permittedIdentifiers.contains($0) }
        guard !missing.isEmpty else { return }
        Output.error("\(toolName): warning: \(scenario.name): app.permittedIdentifiers does not list \(missing.map { "\"\($0)\"" }.joined(separator: ", ")), "
                     + "which the policy \"\(definition.name)\" uses: iOS refuses its registration and every submit fails (notPermitted)")
    }
}
