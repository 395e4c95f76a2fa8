@testable import BackgroundSim
import SimKernel
import Testing

@Suite("Launch decision counts")
struct LaunchDecisionCountTests {
    @Test("the report counts every logged decision by kind and reason, and its launches are the run's launches",
          arguments: ["probe-refresh", "zashi-shipped", "coverdrop-processing-2025-07"])
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
