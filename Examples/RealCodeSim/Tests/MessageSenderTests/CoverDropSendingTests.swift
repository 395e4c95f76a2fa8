import BackgroundSimTesting
import CoverDropSending
import Foundation
import Testing

/// What the app's code and the system did that a user or the server could see, to compare two
/// runs by: launches, lifecycle, requests (with their delays), task launches, expirations and
/// completions, kills — not the work executor's own records, which differ by construction (the
/// app's code sends one request at a time; the policy hands the executor a run of sends).
private struct Decision: Equatable, CustomStringConvertible {
    var time: SimInstant
    var event: SystemLogEvent

    var description: String { "\(time) \(event)" }

    static func of(_ entry: SystemLogEntry) -> Decision? {
        switch entry.event {
        case .launch, .resume, .willEnterForeground, .didEnterBackground, .suspend, .terminate, .kill, .crash,
             .submit, .submitError, .taskLaunch, .taskExpire, .taskCompleted:
            Decision(time: entry.time, event: entry.event)
        default:
            nil
        }
    }
}

private struct Run {
    var decisions: [Decision] = []
    var result: RunResult?

    init(_ scenario: Scenario, seed: UInt64, days: Int) throws {
        var decisions: [Decision] = []
        result = try SimulationRunner.run(scenario: scenario, seed: seed, days: days, log: { entry in
            if let decision = Decision.of(entry) { decisions.append(decision) }
        })
        self.decisions = decisions
    }
}

@Suite("CoverDrop's sending, written as app code, against the coverdrop-shipped policy")
struct CoverDropSendingTests {
    static let reference = Presets.Preset.coverDropSending(policy: PolicyConfiguration(name: "coverdrop-shipped")).scenario
    static let code = Presets.Preset.coverDropSending().scenario

    /// The two differ only in how a run's sends reach the executor: one request at a time (the
    /// code), or a run of them (the policy), which ends an overlapped run's task 1.6 ms apart
    /// and moves completions by a nanosecond of rounding. Every decision is the same, in the
    /// same order up to those instants, at the same times to 2 ms.
    @Test("the code makes the policy's decisions: the same launches, requests (to the second), task outcomes and kills, 20 seeds × 60 days",
          arguments: 1...20)
    func sameDecisions(seed: UInt64) throws {
        let reference = try Run(Self.reference, seed: seed, days: 60)
        let code = try Run(Self.code, seed: seed, days: 60)
        #expect(reference.decisions.count == code.decisions.count)
        #expect(reference.decisions.count > 1_000)
        // Compare bursts of decisions (each within a second of the one before) as sets, in
        // order: within a burst the code's completions come a send or two after the policy's.
        func bucketed(_ decisions: [Decision]) -> [[String]] {
            var buckets: [[String]] = []
            var last: SimInstant?
            for decision in decisions {
                if let last, last.duration(to: decision.time) <= .seconds(1) {
                    buckets[buckets.count - 1].append("\(decision.event)")
                } else {
                    buckets.append(["\(decision.event)"])
                }
                last = decision.time
            }
            return buckets.map { $0.sorted() }
        }
        let referenceBuckets = bucketed(reference.decisions), codeBuckets = bucketed(code.decisions)
        #expect(referenceBuckets.count == codeBuckets.count)
        if let index = zip(referenceBuckets, codeBuckets).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            Issue.record("seed \(seed): first difference \(referenceBuckets[index]) vs \(codeBuckets[index])")
        }
    }

    /// The sends and their cost: the code's requests are the policy's messages, each overlapped
    /// send counted (the policy counts a message sent twice once, and its dropped neighbour as
    /// unsent, so its sends are sent + unsent); energy to 1 %.
    @Test("the code sends what the policy sends, at the same energy to 1 %, 20 seeds × 60 days")
    func sameSendsAndEnergy() throws {
        var referenceSends = 0, codeSends = 0, referenceJoules = 0.0, codeJoules = 0.0
        var overlapped = 0
        for seed in UInt64(1)...20 {
            let reference = try #require(try Run(Self.reference, seed: seed, days: 60).result)
            let code = try #require(try Run(Self.code, seed: seed, days: 60).result)
            referenceSends += reference.work.metrics.coverSent + reference.work.metrics.coverUnsent
            overlapped += reference.work.metrics.coverUnsent
            codeSends += code.work.completed
            #expect(code.work.metrics.coverSent == 0 && reference.work.completed == 0)
            #expect(code.os.metrics.tasksCompletedSuccessfully == reference.os.metrics.tasksCompletedSuccessfully)
            #expect(code.os.metrics.tasksCompletedUnsuccessfully == reference.os.metrics.tasksCompletedUnsuccessfully)
            referenceJoules += reference.energy.appJoulesPerDay
            codeJoules += code.energy.appJoulesPerDay
        }
        #expect(overlapped > 100)   // the overlapping jobs are exercised
        // One difference in 6,319 sends (seed 9, day 30): a task expires while its job has a
        // send left, and the app returns to the foreground, whose job joins. The policy starts
        // a fresh run of lockstep rounds for both jobs (4 sends); in the code the first job
        // sends its last while the new one sends its own two (3).
        #expect(referenceSends - codeSends == 1, "\(codeSends) vs \(referenceSends)")
        #expect(abs(codeJoules / referenceJoules - 1) < 0.01, "\(codeJoules) vs \(referenceJoules)")
    }
}
