import BackgroundSim
import Foundation

/// The words a check prints when it finds a violation: what broke, on how many seeds, the
/// shrunk scenario and how to replay it. The same for `bgsim check` and the Swift Testing API.
package enum FailureReport {
    /// A description of `report`'s failures, with `shrunk` (the first failure made small) and the
    /// file its scenario was written to.
    ///
    /// - Parameters:
    ///   - replayable: Whether the tool can replay the scenario (its policy is one the tool
    ///     knows, not a test's own).
    ///   - toolName: The tool the replay lines name: `bgsim`, or a team's own (`mysim`).
    package static func describe(_ report: CheckReport, shrunk: ShrunkFailure?, scenarioFile: String?, replayable: Bool,
                                 toolName: String = "bgsim") -> String {
        guard let first = report.firstFailure else { return "every invariant held on \(report.seedsChecked) seeds" }
        let violation = first.violations[0]
        let counts = report.failuresByInvariant.map { "\($0.invariant) on \($0.runs)" }.joined(separator: ", ")
        var lines = ["\(violation.invariant) broken: \(report.failures.count) of \(report.seedsChecked) seeds failed (\(counts))",
                     "first: seed \(first.seed), \(violation)"]
        // Each other invariant that broke, by its first failure: a policy can have more than one bug.
        for (invariant, _) in report.failuresByInvariant where invariant != violation.invariant {
            let runs = report.failures.filter { $0.violations[0].invariant == invariant }
            if let earliest = runs.min(by: { ($0.violations[0].time, $0.seed) < ($1.violations[0].time, $1.seed) }) {
                lines.append("also:  seed \(earliest.seed), \(earliest.violations[0])")
            }
        }
        if let shrunk {
            // Faults, and the clock jumps that happened (random ones included).
            let original = shrunk.original.scenario.faults.count + shrunk.original.clockJumps.count
            let minimal = shrunk.minimal.scenario.faults.count + shrunk.minimal.clockJumps.count
            lines.append("shrunk in \(shrunk.attempts) runs: \(shrunk.original.days) → \(shrunk.minimal.days) days, "
                         + "\(original) → \(minimal) faults and clock jumps; still: \(shrunk.violation)")
            if let scenarioFile {
                lines.append("minimal scenario: \(scenarioFile)")
                if replayable {
                    lines.append("replay: \(shrunk.replayCommand(scenarioFile: scenarioFile, toolName: toolName))")
                    lines.append("check:  \(shrunk.checkCommand(scenarioFile: scenarioFile, toolName: toolName))")
                } else {
                    lines.append("replay: checker.check(seed: \(shrunk.minimal.seed), scenario: try ScenarioLoader.load(path: \"\(scenarioFile)\"), "
                                 + "days: \(shrunk.minimal.days))")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Where to write the minimal scenario of a failure: `directory/bgsim-failure-<scenario>[-<policy>]-seed<S>.json`.
    package static func scenarioPath(in directory: String, for failure: RunCheck) -> String {
        // Named after the policy too when the scenario's name does not say it (a preset run with
        // another policy, a file named after its base).
        let policy = failure.scenario.app.policy.name
        let label = failure.scenario.name.contains(policy) || policy == "none" ? failure.scenario.name : "\(failure.scenario.name)-\(policy)"
        let name = label.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" }
        return URL(fileURLWithPath: directory).appendingPathComponent("bgsim-failure-\(String(name))-seed\(failure.seed).json").path
    }
}
