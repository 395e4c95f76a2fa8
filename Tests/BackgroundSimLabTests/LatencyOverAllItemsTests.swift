import BackgroundSim
import SimKernel
@testable import BackgroundSimLab
import Testing

@Suite("Latency over all items: dropping work is not rewarded")
struct LatencyOverAllItemsTests {
    @Test("a CoverDrop whose messages fail after 2 h has the lower latency over completed items and the higher over all items; minimising the latency over all items recommends the one that keeps them")
    func droppingWorkIsNotRewarded() throws {
        let keeps = try #require(Presets.scenario(named: "coverdrop-shipped"))
        var drops = keeps
        drops.work.deadlineHours = 2
        let comparison = try Comparison.run([("keeps", keeps), ("drops", drops)], seeds: Array(1...8), days: 30, jobs: 2)
        func mean(_ key: String, _ arm: Int) throws -> Double {
            let row = try #require(comparison.rows.first { $0.metric.key == key })
            return row.summaries[arm].mean
        }
        // Messages left unsent for 2 h fail: the completed ones are the quick ones.
        #expect(try mean("work.completionPercent", 1) < mean("work.completionPercent", 0))
        #expect(try mean("work.latencyMinutes.p90", 1) < mean("work.latencyMinutes.p90", 0))
        #expect(try mean("work.allItemsLatencyMinutes.p90", 1) > mean("work.allItemsLatencyMinutes.p90", 0))
        let overAll = try Objective.parse(goal: "minimize", key: "work.allItemsLatencyMinutes.p90", bounds: "", source: "test")
        #expect(comparison.recommendation(overAll).choice == 0, "\(comparison.recommendation(overAll).line)")
        let completedOnly = try Objective.parse(goal: "minimize", key: "work.latencyMinutes.p90", bounds: "", source: "test")
        #expect(comparison.recommendation(completedOnly).choice == 1, "\(comparison.recommendation(completedOnly).line)")
    }
}
