@testable import BackgroundSim
import SimKernel
import Testing

@Suite("Launch decision counts")
struct LaunchDecisionCountTests {
    @Test("the report counts every logged decision by kind and reason, and its launches are the run's launches",
          arguments: ["probe-refresh", "zashi-shipped", "coverdrop-shipped"])
    func countsMatchTheLog(preset: String) throws {
        final class Sink { var log: [SystemLogEntry] = [] }
        let sink = Sink()
        let result = try SimulationRunner.run(scenario: Presets.scenario(named: preset)!, seed: 2, days: 30, log: { sink.log.append($0) })
        var expected = LaunchDecisionCounts()
        for entry in sink.log {
            if case .launchDecision(_, let kind, let decision) = entry.event { expected.record(decision, kind: kind) }
        }
        let counts = result.os.metrics.launchDecisions
        #expect(counts == expected)
        #expect(counts.launched(.appRefresh) == result.os.metrics.refreshLaunches)
        #expect(counts.launched(.processing) == result.os.metrics.processingLaunches)
        #expect(counts.decisions(.appRefresh) + counts.decisions(.processing) > 100)
        // The most frequent reasons come first.
        for kind in [TaskRequest.Kind.appRefresh, .processing] {
            let denials = counts.denials(kind).map(\.count)
            #expect(denials == denials.sorted(by: >))
        }
    }
}

@Suite("Launch decisions explained")
struct LaunchDeferralTests {
    @Test("every 15-minute evaluation while a refresh request is due is logged, or passed over by a launchDeferred that says why",
          arguments: [UInt64(1), 2, 3])
    func everyEvaluationExplained(seed: UInt64) throws {
        final class Sink { var log: [SystemLogEntry] = [] }
        let sink = Sink()
        let days = 3
        _ = try SimulationRunner.run(scenario: Presets.scenario(named: "probe-refresh")!, seed: seed, days: days, log: { sink.log.append($0) })
        let tick = SimDuration.minutes(15)
        var decided: Set<Int64> = []
        var covered: [(from: SimInstant, to: SimInstant)] = []
        var dueFrom: SimInstant?
        var dueSpans: [(from: SimInstant, to: SimInstant)] = []
        var deferrals = 0
        for entry in sink.log {
            switch entry.event {
            case .launchDecision: decided.insert(entry.time.nanosecondsSinceStart)
            case .launchDeferred(_, _, let next, _):
                deferrals += 1
                covered.append((entry.time, next.map { entry.time + $0 } ?? .start + .days(days)))
            case .submit(_, _, let earliestBeginIn):
                if let from = dueFrom { dueSpans.append((from, entry.time)) }
                dueFrom = entry.time + earliestBeginIn
            case .taskLaunch, .forceQuit(pendingRequestsCleared: true), .cancel, .cancelAll:
                if let from = dueFrom { dueSpans.append((from, entry.time)) }
                dueFrom = nil
            default: break
            }
        }
        if let from = dueFrom { dueSpans.append((from, .start + .days(days))) }
        #expect(deferrals > 0)
        var unexplained: [SimInstant] = []
        for span in dueSpans {
            var at = SimInstant(nanosecondsSinceStart: (span.from.nanosecondsSinceStart + tick.nanoseconds - 1) / tick.nanoseconds * tick.nanoseconds)
            while at < span.to {
                let explained = decided.contains(at.nanosecondsSinceStart) || covered.contains { $0.from < at && at < $0.to }
                if !explained { unexplained.append(at) }
                at = at + tick
            }
        }
        #expect(unexplained.isEmpty, "\(unexplained.count) evaluations neither logged nor passed over with a reason, first \(unexplained.first.map { "\($0)" } ?? "")")
    }
}
