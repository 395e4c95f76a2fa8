import BackgroundSim
import Foundation

/// Scenario files written by a check: only what differs from the defaults, so a minimal
/// failing scenario reads as the few things that make it fail.
package enum ScenarioFile {
    /// `scenario` as a JSON document holding only the values that differ from the defaults —
    /// the policy's parameters from that policy's defaults — (``ScenarioLoader`` fills the rest
    /// back in).
    package static func minimalDocument(of scenario: Scenario) -> JSONValue {
        var defaults = Scenario()
        defaults.app.policy = scenario.app.policy.withDefaultParameters
        let full = ScenarioLoader.document(of: scenario)
        let base = ScenarioLoader.document(of: defaults)
        let document = difference(full, from: base) ?? .object([])
        guard scenario.app.policy.name != Scenario().app.policy.name else { return document }
        // The policy's name always, and its parameters that differ from its defaults.
        var policy: [(key: String, value: JSONValue)] = [("name", .string(scenario.app.policy.name))]
        if let parameters = full["app"]?["policy"]?["parameters"], let defaults = base["app"]?["policy"]?["parameters"],
           let changed = difference(parameters, from: defaults) {
            policy.append(("parameters", changed))
        }
        return ScenarioLoader.setting(.object(policy), at: ["app", "policy"], in: document)
    }

    /// The parts of `value` that differ from `base`; `nil` if none do. Objects are compared key
    /// by key; arrays and plain values whole.
    static func difference(_ value: JSONValue, from base: JSONValue) -> JSONValue? {
        guard case .object(let members) = value, case .object = base else { return value == base ? nil : value }
        let changed = members.compactMap { key, member -> (key: String, value: JSONValue)? in
            guard let baseMember = base[key] else { return (key, member) }
            return difference(member, from: baseMember).map { (key, $0) }
        }
        return changed.isEmpty ? nil : .object(changed)
    }

    /// Writes `scenario`'s minimal document to `path`, atomically, sealed (``DocumentSeal``) as
    /// `toolName check` wrote it.
    package static func write(_ scenario: Scenario, to path: String, toolName: String = "bgsim") throws {
        let text = JSONWriter.pretty(DocumentSeal.sealed(minimalDocument(of: scenario), by: "\(toolName) check")) + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
