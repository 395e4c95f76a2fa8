import Foundation
import Testing

@Suite("bgsim sweep and merge")
struct SweepCommandTests {
    static let sweep = """
        {
          "name": "delays",
          "preset": "coverdrop-designed",
          "axes": [
            { "path": "app.policy.parameters.meanDelayMinutes", "values": [5, 30, 120] },
            { "path": "app.policy.parameters.messagesPerRun", "values": [1, 5] }
          ],
          "seeds": 3, "days": 15,
          "objectives": ["work.latencyMinutes.p90", "energy.appBatteryPercentPerDay"]
        }
        """

    func directory() throws -> URL { try ToolRunner.temporaryDirectory("bgsim-sweep") }

    @Test("shards run as separate processes and merged give the unsharded run's bytes")
    func shardsMergeToUnsharded() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("sweep.json").path
        try Self.sweep.write(toFile: file, atomically: true, encoding: .utf8)
        let whole = dir.appendingPathComponent("whole.jsonl").path
        let unsharded = try ToolRunner.run("bgsim", ["sweep", file, "--out", whole, "--jobs", "2"])
        #expect(unsharded.status == 0, "\(unsharded.standardError)")
        #expect(unsharded.standardOutput.contains("Pareto front"))
        // Objectives read with three significant figures ("30.4", not "30.368").
        for line in unsharded.standardOutput.split(separator: "\n") where line.first?.isNumber == true {
            let columns = line.split(separator: " ").filter { $0 != "*" }
            for number in columns.dropFirst().prefix(2) where number.contains(".") {
                #expect(number.filter(\.isNumber).drop { $0 == "0" }.count <= 3, "\(line)")
            }
        }
        var parts: [String] = []
        for shard in 0..<3 {
            let part = dir.appendingPathComponent("part\(shard).jsonl").path
            let output = try ToolRunner.run("bgsim", ["sweep", file, "--shard", "\(shard)/3", "--out", part, "--jobs", "1"])
            #expect(output.status == 0, "\(output.standardError)")
            parts.append(part)
        }
        let merged = dir.appendingPathComponent("merged.jsonl").path
        let merge = try ToolRunner.run("bgsim", ["merge"] + parts + ["--out", merged, "--sweep", file])
        #expect(merge.status == 0, "\(merge.standardError)")
        let wholeBytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        #expect(try Data(contentsOf: URL(fileURLWithPath: merged)) == wholeBytes)
        #expect(String(decoding: wholeBytes, as: UTF8.self).split(separator: "\n").count == 6)
    }

    @Test("--with lays fragments over the sweep's base before the axes: an axis's own parameter is the axis's, another changes every cell; a bad fragment is refused before any cell")
    func fragmentsOverTheBase() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("sweep.json").path
        try Self.sweep.write(toFile: file, atomically: true, encoding: .utf8)
        /// The cells' summary as CSV (the results files differ in the sweep's fingerprint, which covers the base).
        func lines(_ name: String, _ extra: [String]) throws -> String {
            let out = dir.appendingPathComponent(name).path
            let run = try ToolRunner.run("bgsim", ["sweep", file, "--out", out, "--quiet", "--format", "csv"] + extra)
            #expect(run.status == 0, "\(run.standardError)")
            return run.standardOutput
        }
        let axisOnly = dir.appendingPathComponent("axis.json").path
        try #"{"app": {"policy": {"parameters": {"meanDelayMinutes": 999}}}}"#.write(toFile: axisOnly, atomically: true, encoding: .utf8)
        let stingy = dir.appendingPathComponent("stingy.json").path
        try #"{"system": {"heuristic": {"refreshBasePerDay": 0.2, "refreshPerAppSession": 0.1}}}"#.write(toFile: stingy, atomically: true, encoding: .utf8)
        let plain = try lines("plain.jsonl", [])
        #expect(try lines("axis.jsonl", ["--with", axisOnly]) == plain)
        let changed = try lines("stingy.jsonl", ["--with", stingy])
        #expect(changed.split(separator: "\n").count == plain.split(separator: "\n").count && changed != plain)
        let bad = dir.appendingPathComponent("bad.json").path
        try #"{"system": {"heuristic": {"refreshBasePerDa": 2}}}"#.write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try ToolRunner.run("bgsim", ["sweep", file, "--out", dir.appendingPathComponent("bad.jsonl").path, "--with", bad])
        #expect(refused.status == 2 && refused.standardError.contains("bad.json"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("bad.jsonl").path))
        let tuning = dir.appendingPathComponent("t.json").path
        try TuneCommandTests.tuning.write(toFile: tuning, atomically: true, encoding: .utf8)
        let tuneRefused = try ToolRunner.run("bgsim", ["tune", tuning, "--with", bad])
        #expect(tuneRefused.status == 2 && tuneRefused.standardError.contains("bad.json"), "\(tuneRefused.standardError)")
        // A fragment valid on the base that a cell's values break is named with the cell.
        let budget = dir.appendingPathComponent("budget.json").path
        try #"{"name": "budget", "preset": "probe-refresh", "axes": [{"path": "system.extensionBudgetSeconds", "values": [10, 30]}], "seeds": 2, "days": 1}"#
            .write(toFile: budget, atomically: true, encoding: .utf8)
        let lead = dir.appendingPathComponent("lead.json").path
        try #"{"system": {"expirationLeadSeconds": 20}}"#.write(toFile: lead, atomically: true, encoding: .utf8)
        let clash = try ToolRunner.run("bgsim", ["sweep", budget, "--out", dir.appendingPathComponent("clash.jsonl").path, "--with", lead])
        #expect(clash.status == 2 && clash.standardError.contains("budget.json (cell 0 with \(lead)): system.expirationLeadSeconds"), "\(clash.standardError)")
    }

    @Test("an interrupted sweep resumes to the same result")
    func resumes() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("sweep.json").path
        try Self.sweep.write(toFile: file, atomically: true, encoding: .utf8)
        let whole = dir.appendingPathComponent("whole.jsonl").path
        _ = try ToolRunner.run("bgsim", ["sweep", file, "--out", whole])
        // Interrupt: keep only the first two finished cells, as a killed run would leave them.
        let resumed = dir.appendingPathComponent("resumed.jsonl").path
        let lines = try String(contentsOfFile: whole, encoding: .utf8).split(separator: "\n").prefix(2)
        try (lines.joined(separator: "\n") + "\n").write(toFile: resumed, atomically: true, encoding: .utf8)
        let output = try ToolRunner.run("bgsim", ["sweep", file, "--out", resumed])
        #expect(output.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: resumed)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    }

    @Test("bad sweep files and flags exit 2 naming the field", arguments: [
        (#"{"preset": "coverdrop-designed", "axes": [{"path": "app.policy.parameters.meanDelayMinute", "values": [1]}]}"#,
         [String](), "app.policy.parameters.meanDelayMinute: unknown key; did you mean \"meanDelayMinutes\"?"),
        (#"{"preset": "nope", "axes": [{"path": "user.sessionsPerDay", "values": [1]}]}"#, [], "preset: expected one of"),
        (#"{"axes": []}"#, [], "axes: expected a non-empty array"),
        (#"{"axes": [{"path": "user.sessionsPerDay", "values": ["many"]}]}"#, [], "user.sessionsPerDay: expected a number, got a string"),
        (#"{"axes": [{"path": "user.sessionsPerDay", "values": [1]}], "objectives": ["x"]}"#, [], "objectives[0]: expected one of"),
        (#"{"axes": [{"path": "user.sessionsPerDay", "values": [1]}], "seed": 3}"#, [], "seed: unknown key; did you mean \"seeds\"?"),
        (#"{"name": "../x", "axes": [{"path": "user.sessionsPerDay", "values": [1]}]}"#, [], "name: expected up to 100 letters"),
        (#"{"axes": [{"path": "user.sessionsPerDay", "values": [1]}], "seeds": 1e19}"#, [], "seeds: expected a whole number from 1 to 100000"),
        (#"{"axes": [{"path": "user.sessionsPerDay", "values": [1]}], "firstSeed": -1e30}"#, [], "firstSeed: expected a whole number from 0"),
        (#"{"axes": [{"path": "user.sessionsPerDay", "values": [1]}]}"#, ["--shard", "3/2"], "--shard expects I/N"),
        (#"{"axes": [{"path": "user.sessionsPerDay", "values": [1]}]}"#, ["--format", "xml"], "--format expects one of"),
    ])
    func badSweeps(document: String, flags: [String], message: String) throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("bad.json").path
        try document.write(toFile: file, atomically: true, encoding: .utf8)
        let output = try ToolRunner.run("bgsim", ["sweep", file] + flags)
        #expect(output.status == 2)
        #expect(output.standardError.contains(message), "stderr: \(output.standardError)")
    }

    @Test("the summary comes as Markdown, CSV or JSON, and --report writes the HTML report; merge needs the sweep for them")
    func formatsAndReport() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("sweep.json").path
        try Self.sweep.write(toFile: file, atomically: true, encoding: .utf8)
        let results = dir.appendingPathComponent("r.jsonl").path
        let report = dir.appendingPathComponent("report.html").path
        let csv = try ToolRunner.run("bgsim", ["sweep", file, "--out", results, "--format", "csv", "--report", report])
        #expect(csv.status == 0, "\(csv.standardError)")
        let lines = csv.standardOutput.split(separator: "\n")
        #expect(lines.count == 8, "the recommendation, a header and six cells")
        #expect(lines.first?.hasPrefix("# Recommendation: ") == true)
        #expect(lines[1].hasPrefix("cell,app.policy.parameters.meanDelayMinutes,app.policy.parameters.messagesPerRun,"))
        #expect(lines.dropFirst(2).allSatisfy { $0.hasSuffix(",true") || $0.hasSuffix(",false") })
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("id=\"pareto-chart\"") && html.contains("<svg "))

        let json = try ToolRunner.run("bgsim", ["merge", results, "--out", dir.appendingPathComponent("m.jsonl").path, "--sweep", file, "--format", "json"])
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect((object?["cells"] as? [Any])?.count == 6)
        #expect(((object?["paretoFront"] as? [Any])?.count ?? 0) >= 1)

        let markdown = try ToolRunner.run("bgsim", ["sweep", file, "--out", results, "--format", "markdown"])
        #expect(markdown.standardOutput.hasPrefix("# Sweep delays"))

        let noSweep = try ToolRunner.run("bgsim", ["merge", results, "--out", dir.appendingPathComponent("n.jsonl").path, "--format", "csv"])
        #expect(noSweep.status == 2)
        #expect(noSweep.standardError.contains("--sweep FILE"))
    }

    /// Writes the sweep file (with `days`) and runs it into `results`, returning the output.
    func sweep(_ dir: URL, days: Int = 15, into results: String, _ extra: [String] = []) throws -> ToolRunner.Output {
        let file = dir.appendingPathComponent("sweep.json").path
        try Self.sweep.replacingOccurrences(of: "\"days\": 15", with: "\"days\": \(days)").write(toFile: file, atomically: true, encoding: .utf8)
        return try ToolRunner.run("bgsim", ["sweep", file, "--out", results, "--jobs", "1"] + extra)
    }

    func lines(_ path: String) throws -> [Substring] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    }

    @Test("after the sweep changes (days 15 → 16), a rerun recomputes every cell instead of keeping the old ones")
    func editedSweepRecomputes() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let results = dir.appendingPathComponent("r.jsonl").path
        #expect(try sweep(dir, into: results).status == 0)
        let before = try lines(results)
        let rerun = try sweep(dir, days: 16, into: results)
        #expect(rerun.status == 0, "\(rerun.standardError)")
        #expect(rerun.standardError.contains("recomputing 6 cell(s)"), "\(rerun.standardError)")
        let after = try lines(results)
        #expect(after.count == 6)
        #expect(after.allSatisfy { $0.contains("\"days\":16") })
        #expect(Set(after).isDisjoint(with: Set(before)))
        // Unchanged, a rerun runs nothing and says nothing.
        let again = try sweep(dir, days: 16, into: results)
        #expect(again.status == 0 && !again.standardError.contains("recomputing"))
        #expect(try lines(results) == after)
    }

    @Test("a line cut short by a kill is dropped on resume, and merge refuses a file that ends in one")
    func cutLine() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = dir.appendingPathComponent("whole.jsonl").path
        #expect(try sweep(dir, into: whole).status == 0)
        let all = try lines(whole)
        let cut = dir.appendingPathComponent("cut.jsonl").path
        try (all.prefix(3).joined(separator: "\n") + "\n" + all[3].prefix(40)).write(toFile: cut, atomically: true, encoding: .utf8)
        let merge = try ToolRunner.run("bgsim", ["merge", cut, "--out", dir.appendingPathComponent("m.jsonl").path])
        #expect(merge.status == 2)
        #expect(merge.standardError.contains("\(cut):4: a line cut short"), "\(merge.standardError)")
        let resumed = try sweep(dir, into: cut)
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(resumed.standardError.contains("cut short"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: cut)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    }

    @Test("merge names missing files, missing cells and lines of another sweep, and exits 2 unless --allow-partial")
    func mergeRefusals() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("sweep.json").path
        let part0 = dir.appendingPathComponent("part0.jsonl").path
        let part1 = dir.appendingPathComponent("part1.jsonl").path
        #expect(try sweep(dir, into: part0, ["--shard", "0/2"]).status == 0)
        #expect(try sweep(dir, into: part1, ["--shard", "1/2"]).status == 0)
        let out = dir.appendingPathComponent("m.jsonl").path

        let absent = try ToolRunner.run("bgsim", ["merge", part0, dir.appendingPathComponent("nope.jsonl").path, "--out", out])
        #expect(absent.status == 2)
        #expect(absent.standardError.contains("nope.jsonl: no such results file"), "\(absent.standardError)")

        let partial = try ToolRunner.run("bgsim", ["merge", part0, "--out", out, "--sweep", file])
        #expect(partial.status == 2)
        #expect(partial.standardError.contains("3 of 6 cells missing: 1, 3, 5"), "\(partial.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out), "nothing written on refusal")
        let allowed = try ToolRunner.run("bgsim", ["merge", part0, "--out", out, "--allow-partial"])
        #expect(allowed.status == 0)
        #expect(allowed.standardError.contains("3 cells missing: 1, 3, 5"))
        #expect(try lines(out).count == 3)

        // part1 of a sweep with other days is foreign to part0's sweep.
        let other = dir.appendingPathComponent("other.jsonl").path
        #expect(try sweep(dir, days: 16, into: other, ["--shard", "1/2"]).status == 0)
        let foreign = try ToolRunner.run("bgsim", ["merge", part0, other, "--out", out])
        #expect(foreign.status == 2)
        #expect(foreign.standardError.contains("\(other):1: cell 1"), "\(foreign.standardError)")
        #expect(foreign.standardError.contains("3 of 6 cells missing"))

        let complete = try ToolRunner.run("bgsim", ["merge", part0, part1, "--out", out])
        #expect(complete.status == 0, "\(complete.standardError)")
        #expect(try lines(out).count == 6)
    }

    @Test("a results file with a repeated cell, or a cell edited beyond the sweep's or to a negative one, is refused with its line",
          arguments: [("repeat", "cell 0 again (first on line 1)"), ("99", "the line's content does not match its digest"),
                      ("-1", "the line's content does not match its digest")])
    func badResultLines(change: String, message: String) throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let results = dir.appendingPathComponent("r.jsonl").path
        #expect(try sweep(dir, into: results).status == 0)
        var all = try lines(results).map(String.init)
        if change == "repeat" {
            all.append(all[0])
        } else {
            all[1] = all[1].replacingOccurrences(of: "\"cell\":1,", with: "\"cell\":\(change),")
        }
        try (all.joined(separator: "\n") + "\n").write(toFile: results, atomically: true, encoding: .utf8)
        let line = change == "repeat" ? 7 : 2
        let rerun = try sweep(dir, into: results)
        #expect(rerun.status == 2)
        #expect(rerun.standardError.contains("\(results):\(line): \(message)"), "\(rerun.standardError)")
        let merge = try ToolRunner.run("bgsim", ["merge", results, "--out", dir.appendingPathComponent("m.jsonl").path])
        #expect(merge.status == 2, "\(merge.standardError)")
    }

    @Test("editing a number in a results line (a mean, a per-seed value, the digest) makes resume and merge exit 2 naming the line and how to recover; untouched, a resume is byte-identical",
          arguments: ["\"mean\":", "\"perSeed\":{\"work.allItemsLatencyMinutes.p50\":[", "\"digest\":\""])
    func editedLinesAreRefused(field: String) throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let results = dir.appendingPathComponent("r.jsonl").path
        #expect(try sweep(dir, into: results).status == 0)
        let original = try Data(contentsOf: URL(fileURLWithPath: results))
        #expect(try sweep(dir, into: results).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: results)) == original, "an untouched resume changes nothing")
        var all = try lines(results).map(String.init)
        // The first digit after the field, changed to another digit.
        let range = try #require(all[2].range(of: field))
        let digit = try #require(all[2][range.upperBound...].firstIndex { $0.isNumber || $0.isHexDigit })
        let replacement: Character = all[2][digit] == "1" ? "2" : "1"
        all[2].replaceSubrange(digit...digit, with: String(replacement))
        try (all.joined(separator: "\n") + "\n").write(toFile: results, atomically: true, encoding: .utf8)
        for arguments in [["sweep", dir.appendingPathComponent("sweep.json").path, "--out", results],
                          ["merge", results, "--out", dir.appendingPathComponent("m.jsonl").path]] {
            let output = try ToolRunner.run("bgsim", arguments)
            #expect(output.status == 2, "\(arguments[0]): \(output.standardError)")
            #expect(output.standardError.contains("\(results):3: the line's content does not match its digest"), "\(output.standardError)")
            #expect(output.standardError.contains("delete this line"), "the way back")
        }
    }

    @Test("a shard with no cells still writes its (empty) file; the same axis path twice is refused")
    func emptyShardAndDuplicateAxis() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let results = dir.appendingPathComponent("p7.jsonl").path
        let output = try sweep(dir, into: results, ["--shard", "7/8"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: results)).isEmpty)

        let file = dir.appendingPathComponent("twice.json").path
        try #"{"axes": [{"path": "user.sessionsPerDay", "values": [1]}, {"path": "user.sessionsPerDay", "values": [2]}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let twice = try ToolRunner.run("bgsim", ["sweep", file])
        #expect(twice.status == 2)
        #expect(twice.standardError.contains("axes[1].path: \"user.sessionsPerDay\" is already axes[0]'s path"), "\(twice.standardError)")
    }
}
