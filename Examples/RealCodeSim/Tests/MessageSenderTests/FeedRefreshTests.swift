import BackgroundSim
import BackgroundSimLab
import BackgroundSimTesting
import FeedRefresh
import Foundation
import SimKernel
import Testing

/// The feed app's own code: its refresh interval from the scenario's launch environment, and
/// what the team cares about — how stale the feed is when the user opens the app.
@Suite("The feed app: content age at open, the refresh interval from the environment", .serialized)
struct FeedRefreshTests {
    static func scenario(refreshMinutes: String) -> Scenario {
        var scenario = Presets.Preset.feedRefresh.scenario
        scenario.app.launch.environment["FEED_REFRESH_MINUTES"] = refreshMinutes
        scenario.name = "every \(refreshMinutes) min"
        return scenario
    }

    @Test("FEED_REFRESH_MINUTES reaches the app's code: every request it submits after a refresh asks for the interval after it")
    func environmentReachesTheCode() throws {
        for minutes in [15.0, 240] {
            var submits: [SimDuration] = []
            var refreshed = false
            _ = try SimulationRunner.run(scenario: Self.scenario(refreshMinutes: "\(Int(minutes))"), seed: 3, days: 14, log: { entry in
                switch entry.event {
                case .signpost(let signpost) where signpost.name == "contentUpdated": refreshed = true
                case .submit(_, _, let earliestBeginIn) where refreshed: submits.append(earliestBeginIn)
                default: break
                }
            })
            #expect(submits.count >= 5)
            // Asked for at most the interval after the last success; never more.
            #expect(submits.allSatisfy { $0 <= .minutes(minutes) }, "\(minutes) min: \(submits.map(\.seconds))")
            #expect(submits.contains { $0 > .minutes(minutes * 0.5) }, "\(minutes) min: \(submits.map(\.seconds))")
        }
    }

    @Test("refreshing every 15 min rather than every 12 h makes the content younger at open by more than the 15-min margin (p90 per user, 20 users × 28 days)")
    func freshnessVerdict() throws {
        let scenarios = [("every 720 min", Self.scenario(refreshMinutes: "720")), ("every 15 min", Self.scenario(refreshMinutes: "15"))]
        let comparison = try Comparison.run(scenarios, seeds: Array(1...20), days: 28, jobs: 2,
                                            metrics: ComparedMetric.standard(including: scenarios.map(\.1)))
        let age = try #require(comparison.rows.first { $0.metric.key == "app.contentAgeAtOpenMinutes.p90" })
        #expect(age.metric.margin == 15)
        #expect(age.tests[0].judgement == .better, "\(age.summaries.map(\.mean)) \(age.tests[0].judgement)")
        // And it costs energy: more refresh launches, more of the battery.
        let battery = try #require(comparison.rows.first { $0.metric.key == "energy.appBatteryPercentPerDay" })
        #expect(battery.summaries[1].mean > battery.summaries[0].mean)
    }
}
