import Foundation
import Testing

extension PolicyChecker {
    /// Checks every seed and, if a run breaks an invariant, records one Swift Testing issue at
    /// the caller's source location: the invariant, the first violation, how many seeds failed,
    /// the failure shrunk to a small scenario (written to a file) and the line that replays it.
    ///
    ///     @Test func coverDropKeepsItsPromises() throws {
    ///         var checker = PolicyChecker(scenario: Presets.scenario(named: "coverdrop-designed")!, days: 7,
    ///                                     invariants: Invariants.standard + [WorkCompletesWithin(hours: 48)])
    ///         checker.swarm = Swarm()
    ///         try checker.expectNoViolations(seeds: Array(1...500))
    ///     }
    ///
    /// - Parameters:
    ///   - shrink: Shrink the first failure (the one that fails earliest in its run).
    ///   - directory: Where to write the minimal scenario. Default: the temporary directory.
    /// - Returns: The report, for further expectations.
    @discardableResult
    public func expectNoViolations(
        seeds: [UInt64] = Array(1...100), jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        shrink: Bool = true, directory: String = FileManager.default.temporaryDirectory.path,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CheckReport {
        let report = try check(seeds: seeds, jobs: jobs)
        guard let first = report.firstFailure else { return report }
        var shrunk: ShrunkFailure?
        var file: String?
        if shrink {
            let result = try Shrinker(checker: self).shrink(first)
            let path = FailureReport.scenarioPath(in: directory, for: first)
            try ScenarioFile.write(result.minimal.scenario, to: path)
            shrunk = result
            file = path
        }
        let text = FailureReport.describe(report, shrunk: shrunk, scenarioFile: file, replayable: policy == nil)
        Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
        return report
    }
}
