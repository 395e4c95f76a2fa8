import BackgroundSimTesting
import CoverDropSending
import Foundation
import Testing

@Suite("CoverDrop's sending, written as app code, against the coverdrop-shipped policy")
struct CoverDropSendingTests {
    static let reference = Presets.Preset.coverDropSending(policy: PolicyConfiguration(name: "coverdrop-shipped")).scenario
    static let code = Presets.Preset.coverDropSending().scenario

    /// Each seed's run of the policy and of the code, 60 days, made once for the two tests below.
    static let runs: [Result<(reference: Run, code: Run), any Error>] = (UInt64(1)...20).map { seed in
        Result { (try Run(reference, seed: seed, days: 60), try Run(code, seed: seed, days: 60)) }
    }

    /// The two differ only in how a run's sends reach the executor: one request at a time (the
    /// code), or a run of them (the policy), which ends an overlapped run's task 1.6 ms apart
    /// and moves completions by a nanosecond of rounding. Every decision is the same, in the
    /// same order up to those instants, at the same times to 2 ms.
    @Test("the code makes the policy's decisions: the same launches, requests (to the second), task outcomes and kills, 20 seeds × 60 days",
          arguments: 1...20)
    func sameDecisions(seed: UInt64) throws {
        let (reference, code) = try Self.runs[Int(seed) - 1].get()
        #expect(reference.decisions.count == code.decisions.count)
        #expect(reference.decisions.count > 1_000)
        let referenceBursts = bursts(reference.decisions), codeBursts = bursts(code.decisions)
        #expect(referenceBursts.count == codeBursts.count)
        if let (a, b) = firstDifference(referenceBursts, codeBursts) {
            Issue.record("seed \(seed): first difference \(a) vs \(b)")
        }
    }

    /// The sends and their cost: the code's requests are the policy's messages, each overlapped
    /// send counted (the policy counts a message sent twice once, and its dropped neighbour as
    /// unsent, so its sends are sent + unsent); energy to 1 %.
    @Test("the code sends what the policy sends, at the same energy to 1 %, 20 seeds × 60 days")
    func sameSendsAndEnergy() throws {
        var referenceSends = 0, codeSends = 0, referenceJoules = 0.0, codeJoules = 0.0
        var overlapped = 0
        for runs in Self.runs {
            let (referenceRun, codeRun) = try runs.get()
            let reference = try #require(referenceRun.result), code = try #require(codeRun.result)
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
