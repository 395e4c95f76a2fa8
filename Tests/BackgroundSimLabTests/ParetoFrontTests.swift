@testable import BackgroundSim
@testable import BackgroundSimLab
import Testing

@Suite("Pareto front by hand")
struct ParetoFrontTests {
    /// A summary of hand-made cells: p90 latency (lower is better) against the completion ratio
    /// (higher is better); `nil` for a cell whose objective does not apply.
    static func summary(_ cells: [(latency: Double, completion: Double?)]) throws -> SweepSummary {
        let values = (1...cells.count).map(String.init).joined(separator: ",")
        let definition = try SweepDefinition.decode("""
            {"axes": [{"path": "user.sessionsPerDay", "values": [\(values)]}],
             "objectives": ["work.latencyMinutes.p90", "work.completionPercent"]}
            """, source: "hand.json")
        let results = cells.enumerated().map { index, cell in
            let completion = cell.completion.map { #"{"mean":\#($0),"ci95":[\#($0),\#($0)],"count":3}"# } ?? #"{"mean":0,"ci95":[0,0],"count":0}"#
            return SweepRunner.CellResult(index: index, line: """
                {"cell":\(index),"values":{"user.sessionsPerDay":\(index + 1)},"metrics":{"work.latencyMinutes.p90":{"mean":\(cell.latency),"ci95":[\(cell.latency),\(cell.latency)],"count":3},"work.completionPercent":\(completion)}}
                """)
        }
        return try SweepSummary(definition: definition, results: results)
    }

    @Test("the front keeps exactly the cells no other beats on both objectives, ties included, ordered by the first; best cells break ties by index")
    func handMadeFront() throws {
        let summary = try Self.summary([
            (10, 0.90),   // 0: front (better completion than 4)
            (5, 0.80),    // 1: front (fastest)
            (5, 0.80),    // 2: front (the same as 1: neither beats the other)
            (12, 0.95),   // 3: front (best completion)
            (6, 0.85),    // 4: front
            (11, 0.90),   // 5: beaten by 0 (slower, the same completion)
            (3, nil),     // 6: completion does not apply: on no front, best at nothing
            (20, 0.95),   // 7: beaten by 3
        ])
        #expect(summary.paretoFront.map(\.index) == [1, 2, 4, 0, 3])
        #expect(summary.best(for: 0)?.index == 6, "the fastest cell, whatever its other objective")
        #expect(summary.best(for: 1)?.index == 3, "0.95 twice: the lower index")
    }

    @Test("the recommendation without an objective names one cell on the front in the singular, several in the plural, and none when no cell has both values")
    func frontInWords() throws {
        let one = try Self.summary([(5, 0.95), (10, 0.90)])
        #expect(one.recommendation.hasPrefix("Recommendation: none without an objective — cell 0 is on the Pareto front of "), "\(one.recommendation)")
        let two = try Self.summary([(5, 0.90), (10, 0.95)])
        #expect(two.recommendation.hasPrefix("Recommendation: none without an objective — cells 0 and 1 are on the Pareto front of "), "\(two.recommendation)")
        let none = try Self.summary([(5, nil)])
        #expect(none.recommendation.hasPrefix("Recommendation: none — no cell has values of both "), "\(none.recommendation)")
    }
}
