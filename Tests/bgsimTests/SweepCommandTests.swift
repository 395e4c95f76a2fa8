import Foundation
import Testing

@Suite("bgsim sweep and merge")
struct SweepCommandTests {
    static let sweep = """
        {
          "name": "delays",
          "preset": "coverdrop-send",
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
        (#"{"preset": "coverdrop-send", "axes": [{"path": "app.policy.parameters.meanDelayMinute", "values": [1]}]}"#,
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
        #expect(lines.count == 7, "a header and six cells")
        #expect(lines.first?.hasPrefix("cell,app.policy.parameters.meanDelayMinutes,app.policy.parameters.messagesPerRun,") == true)
        #expect(lines.dropFirst().allSatisfy { $0.hasSuffix(",true") || $0.hasSuffix(",false") })
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
}
