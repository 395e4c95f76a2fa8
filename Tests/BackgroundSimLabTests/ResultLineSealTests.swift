import BackgroundSim
@testable import BackgroundSimLab
import Testing

/// Result lines carry a digest of their own content, and their summaries are recomputed from
/// their per-seed values when read.
@Suite("Result line seals")
struct ResultLineSealTests {
    /// A real cell line of a small sweep: 3 seeds × 4 days of the designed CoverDrop.
    static func cellLine() throws -> String {
        let definition = try SweepDefinition.decode("""
            {"name": "s", "preset": "coverdrop-designed", "seeds": 3, "days": 4,
             "axes": [{"path": "app.policy.parameters.meanDelayMinutes", "values": [5, 30]}]}
            """, source: "s.json")
        let runs = try Replications.run(try definition.scenario(ofCell: 1, source: "s.json"), seeds: definition.seeds, days: 4, jobs: 1)
        return SweepRunner.line(definition, index: 1, fingerprint: "0123456789abcdef", runs: runs)
    }

    @Test("a sealed line opens to the object it sealed; any changed character, or a missing seal, does not")
    func sealAndOpen() throws {
        let object = #"{"cell":1,"mean":2.5}"#
        let sealed = ResultLineSeal.sealed(object)
        #expect(sealed.hasPrefix(#"{"cell":1,"mean":2.5,"content":""#) && sealed.hasSuffix("\"}"))
        #expect(ResultLineSeal.open(sealed) == .intact(object))
        #expect(ResultLineSeal.open(sealed.replacingOccurrences(of: "2.5", with: "2.6")) == .altered)
        #expect(ResultLineSeal.open(sealed.replacingOccurrences(of: "\"cell\":1", with: "\"cell\":2")) == .altered)
        #expect(ResultLineSeal.open(object) == .unsealed)
        // A digest changed by one hex digit.
        let digit = sealed.index(sealed.endIndex, offsetBy: -3)
        var forged = sealed
        forged.replaceSubrange(digit...digit, with: sealed[digit] == "0" ? "1" : "0")
        #expect(ResultLineSeal.open(forged) == .altered)
    }

    @Test("a sweep's line reads back; resealed after an edit to a mean or a per-seed value, its summaries disagree and it is refused")
    func summariesAreRecomputed() throws {
        let line = try Self.cellLine()
        let read = try SweepResultsFile.parse(line, number: 1, path: "r.jsonl")
        #expect(read.cell == 1 && read.text == line)
        guard case .intact(let object) = ResultLineSeal.open(line) else {
            Issue.record("the written line does not open")
            return
        }
        // Someone who edits a mean and recomputes the seal: the summary check still catches it.
        let edits = [
            object.replacingOccurrences(of: #""work.completionPercent":{"mean":"#, with: #""work.completionPercent":{"mean":0.5,"x":"#),
            object.replacingOccurrences(of: #""perSeed":{"work.allItemsLatencyMinutes.p50":["#, with: #""perSeed":{"work.allItemsLatencyMinutes.p50":[1e9,"#),
        ]
        for edited in edits {
            #expect(edited != object)
            #expect(throws: SweepFileError.self) { try SweepResultsFile.parse(ResultLineSeal.sealed(edited), number: 7, path: "r.jsonl") }
            do {
                _ = try SweepResultsFile.parse(ResultLineSeal.sealed(edited), number: 7, path: "r.jsonl")
            } catch {
                #expect(error.message.hasPrefix("r.jsonl:7: "), "\(error.message)")
                #expect(error.message.contains("does not agree with its per-seed values") || error.message.contains("per-seed"), "\(error.message)")
            }
        }
    }
}

@Suite("Run estimates")
struct RunEstimateTests {
    @Test("counts and durations read as people write them")
    func formatting() {
        #expect(RunEstimate.count(52_000) == "52,000")
        #expect(RunEstimate.count(999_999) == "999,999")
        #expect(RunEstimate.count(7e7) == "7 × 10⁷")
        #expect(RunEstimate.count(1.23e9) == "1.2 × 10⁹")
        #expect(RunEstimate.duration(45) == "45 s")
        #expect(RunEstimate.duration(720) == "12 min")
        #expect(RunEstimate.duration(14 * 3_600) == "14 h")
        #expect(RunEstimate.duration(6.3 * 86_400) == "6.3 days")
    }

    @Test("a week of one device costs no note; a billion device-days do")
    func threshold() throws {
        let scenario = try #require(Presets.scenario(named: "probe-refresh"))
        #expect(RunEstimate.note(scenario, deviceDays: 7, jobs: 1, days: 7) == nil)
        let note = try #require(RunEstimate.note(scenario, deviceDays: 1e9, jobs: 2, days: 7))
        #expect(note.hasPrefix("about 1 × 10⁹ device-days, ~"), "\(note)")
        // The probe doubles from a day up to the runs' 7 days, or stops once a run takes 0.1 s.
        #expect(note.range(of: #" on 2 jobs here \(from a [1247]-day probe\)$"#, options: .regularExpression) != nil, "\(note)")
    }
}
