import BackgroundSimTesting
import Testing
import ZashiSync

@Suite("Zashi's sync, written as app code, against the zashi-shipped policy")
struct ZashiSyncTests {
    static let reference = Presets.Preset.zashiSync(policy: PolicyConfiguration(name: "zashi-shipped")).scenario
    static let code = Presets.Preset.zashiSync().scenario

    /// The first day, before any sync task can run (the earliest is 03:00 the next day),
    /// decides alike: the same launches, moves, and requests with the same windows (the jitter
    /// drawn as the code draws it, `Int.random(in: 0...60)` minutes, from the same stream).
    @Test("the code makes the policy's decisions on the first day: the same launches and requests with the same windows, 20 seeds")
    func sameFirstDecisions() throws {
        var submits = 0
        for seed in UInt64(1)...20 {
            let reference = try Run(Self.reference, seed: seed, days: 1)
            let code = try Run(Self.code, seed: seed, days: 1)
            submits += reference.decisions.count { if case .submit = $0.event { true } else { false } }
            if let (a, b) = firstDifference(bursts(reference.decisions), bursts(code.decisions)) {
                Issue.record("seed \(seed): first difference \(a) vs \(b)")
            }
        }
        #expect(submits > 40)
    }

    /// After that the runs drift apart one launch at a time, and are compared as populations:
    /// the system's launch chances depend on the app's energy (the model's energy budget), and
    /// the code spends a little differently — it polls the server's tip every 75 s in the
    /// foreground and downloads a backlog in requests of 100 blocks, where the policy downloads
    /// each block as it is made — so a close launch decision soon goes the other way (often at
    /// the first night's sync). Over 40 seeds × 60 days the means agree within the stated
    /// tolerances; the code's radio wakes more often in the foreground, about 6 % more energy.
    @Test("over 40 seeds × 60 days: processing launches, task outcomes and the blocks synced agree to 2 %, energy to 10 %")
    func samePopulation() throws {
        var reference = Totals(), code = Totals()
        for seed in UInt64(1)...40 {
            reference.add(try #require(try Run(Self.reference, seed: seed, days: 60).result))
            code.add(try #require(try Run(Self.code, seed: seed, days: 60).result))
        }
        #expect(reference.launches > 1_500 && reference.successes > 500 && reference.failures > 500)
        #expect(relativeDifference(code.launches, reference.launches) < 0.02, "\(code.launches) vs \(reference.launches)")
        #expect(relativeDifference(code.successes, reference.successes) < 0.02, "\(code.successes) vs \(reference.successes)")
        #expect(relativeDifference(code.failures, reference.failures) < 0.02, "\(code.failures) vs \(reference.failures)")
        #expect(relativeDifference(code.bytes, reference.bytes) < 0.02, "\(code.bytes) vs \(reference.bytes)")
        #expect(relativeDifference(code.joules, reference.joules) < 0.10, "\(code.joules) vs \(reference.joules)")
    }

    private struct Totals {
        var launches = 0.0, successes = 0.0, failures = 0.0, bytes = 0.0, joules = 0.0

        mutating func add(_ result: RunResult) {
            launches += Double(result.os.metrics.processingLaunches)
            successes += Double(result.os.metrics.tasksCompletedSuccessfully)
            failures += Double(result.os.metrics.tasksCompletedUnsuccessfully)
            bytes += result.work.metrics.completedBytes
            joules += result.energy.appJoulesPerDay
        }
    }

    private func relativeDifference(_ a: Double, _ b: Double) -> Double { abs(a - b) / b }
}
