@testable import BackgroundSim
@testable import BackgroundSimLab
import Testing

@Suite("Sweep and tuning seeds")
struct FirstSeedTests {
    static func sweep(_ firstSeed: String, seeds: Int = 3) -> String {
        #"{"preset": "probe-refresh", "axes": [{"path": "system.heuristic.refreshBasePerDay", "values": [1, 2]}], "seeds": \#(seeds), "firstSeed": \#(firstSeed), "days": 1}"#
    }

    static func tuning(_ firstSeed: String) -> String {
        #"{"preset": "probe-refresh", "parameters": [{"path": "system.heuristic.refreshBasePerDay", "values": [1, 2]}], "objective": {"minimize": "energy.appBatteryPercentPerDay"}, "firstStageSeeds": 5, "maximumSeeds": 10, "firstSeed": \#(firstSeed), "days": 1}"#
    }

    @Test("a sweep's or tuning's first seed may be any the command line takes: a number up to 2^53, or digits up to 2^64 - 1 less the seeds after it")
    func anySeedTheCommandLineTakes() throws {
        #expect(try SweepDefinition.decode(Self.sweep("9007199254740992"), source: "s.json").seeds.first == 9_007_199_254_740_992)
        #expect(try SweepDefinition.decode(Self.sweep(#""18446744073709551613""#), source: "s.json").seeds == [.max - 2, .max - 1, .max])
        #expect(try TuneDefinition.decode(Self.tuning(#""18446744073709551606""#), source: "t.json").firstSeed == .max - 9)
        for (text, source) in [(Self.sweep(#""18446744073709551614""#), "s.json"), (Self.sweep("9007199254740994"), "s.json"),
                               (Self.sweep(#""-1""#), "s.json"), (Self.sweep(#""1e3""#), "s.json"), (Self.tuning(#""18446744073709551607""#), "t.json")] {
            do {
                if source == "s.json" { _ = try SweepDefinition.decode(text, source: source) } else { _ = try TuneDefinition.decode(text, source: source) }
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.issues.first?.path == "firstSeed", "\(error)")
            }
        }
    }
}
