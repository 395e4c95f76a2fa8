@testable import BackgroundSimChecking
import BackgroundSim
import SimKernel
import Testing

@Suite("Invariants the app's own metrics declare")
struct AppMetricInvariantTests {
    /// Begins the `upload` interval at each open (once at a time) and ends it only in a
    /// processing task on the charger: some uploads wait overnight.
    final class ChargerUploader: BackgroundPolicy {
        func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
            app.taskScheduler.register(forTaskWithIdentifier: "upload") { task in
                if app.defaults.bool(forKey: "queued") {
                    app.signpost(.end, name: "upload")
                    app.defaults.set(false, forKey: "queued")
                }
                task.setTaskCompleted(success: true)
            }
            if reason == .user { opened(app) }
        }

        func willEnterForeground(_ app: AppContext) { opened(app) }

        func opened(_ app: AppContext) {
            guard !app.defaults.bool(forKey: "queued") else { return }
            app.defaults.set(true, forKey: "queued")
            app.signpost(.begin, name: "upload")
            try? app.taskScheduler.submit(.processing(identifier: "upload", requiresExternalPower: true))
        }
    }

    static func checker(endsWithinHours: Double) -> PolicyChecker {
        var scenario = Presets.scenario(named: "device-only")!
        scenario.app.permittedIdentifiers = ["upload"]
        scenario.app.metrics = [.interval("upload", doneWithin: .hours(6), endsWithin: .hours(endsWithinHours))]
        return PolicyChecker(scenario: scenario, days: 7, invariants: Invariants.standard + Invariants.declared(by: scenario),
                             policy: { ChargerUploader() })
    }

    @Test("an interval that must end within 2 h fails check, and the failure shrinks to a shorter run that still fails it")
    func failsAndShrinks() throws {
        let checker = Self.checker(endsWithinHours: 2)
        #expect(checker.invariants.contains { $0.name == "uploadEndsWithin(2 h)" })
        let report = try checker.check(seeds: Array(1...10), jobs: 2)
        let failure = try #require(report.firstFailure)
        let violation = try #require(failure.violations.first { $0.invariant == "uploadEndsWithin(2 h)" })
        #expect(violation.message.contains("\"upload\" interval begun at"))
        let shrunk = try Shrinker(checker: checker).shrink(failure)
        #expect(shrunk.violation.invariant == "uploadEndsWithin(2 h)")
        #expect(shrunk.minimal.days <= failure.days)
        #expect(shrunk.minimal.days == shrunk.violation.day + 1)
        // The minimal run, replayed, fails the same way at the same time.
        let replayed = try checker.check(seed: shrunk.minimal.seed, scenario: shrunk.minimal.scenario, days: shrunk.minimal.days)
        #expect(replayed.violations.first { $0.invariant == "uploadEndsWithin(2 h)" }?.time == shrunk.violation.time)
    }

    @Test("no false report: a bound longer than the run (8,000 h) is never broken")
    func holds() throws {
        let report = try Self.checker(endsWithinHours: 8_000).check(seeds: Array(1...10), jobs: 2)
        #expect(report.failures.allSatisfy { !$0.violations.contains { $0.invariant.hasPrefix("uploadEndsWithin") } })
    }
}
