import BackgroundSim
@testable import BackgroundSimLab
import Synchronization
import Testing

/// The experiment entry points validate what they are handed before running anything.
@Suite("Lab entry points validate first")
struct LabDoorTests {
    /// A preset with one value a Swift caller could set but no file could hold.
    static var broken: Scenario {
        var scenario = Presets.scenario(named: "proton-upload-designed")!
        scenario.network.wifiShare = .nan
        return scenario
    }

    /// Counts progress callbacks, which come after each run.
    final class Runs: Sendable {
        let count = Atomic<Int>(0)
        func ran() { count.add(1, ordering: .relaxed) }
    }

    func expectRefused(_ body: (_ progress: @escaping @Sendable () -> Void) throws -> Void) {
        let runs = Runs()
        #expect {
            try body { runs.ran() }
        } throws: { error in
            guard let error = error as? ScenarioError else { return false }
            return error.issues.contains { $0.path == "network.wifiShare" || $0.path == "days" || $0.path == "scenarios" }
        }
        #expect(runs.count.load(ordering: .relaxed) == 0, "nothing ran")
    }

    @Test("replications, comparisons and what-ifs refuse an invalid scenario, or bad days, before any run")
    func refusedBeforeRunning() {
        let good = Presets.scenario(named: "proton-upload-designed")!
        expectRefused { _ = try Replications.run(Self.broken, seeds: [1, 2], days: 2, jobs: 1, progress: $0) }
        expectRefused { _ = try Replications.run(good, seeds: [1, 2], days: -1, jobs: 1, progress: $0) }
        // Past the 64-bit nanosecond clock's reach (106,751 days).
        expectRefused { _ = try Replications.run(good, seeds: [1, 2], days: 106_752, jobs: 1, progress: $0) }
        expectRefused { _ = try Comparison.run([("good", good), ("broken", Self.broken)], seeds: [1, 2], days: 2, jobs: 1, progress: $0) }
        expectRefused { _ = try Comparison.run([("alone", good)], seeds: [1, 2], days: 2, jobs: 1, progress: $0) }
        expectRefused { _ = try WhatIfStudy.run([("broken", Self.broken)], seeds: [1], days: 2, jobs: 1, progress: $0) }
    }
}
