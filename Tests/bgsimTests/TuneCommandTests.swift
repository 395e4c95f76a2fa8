import Foundation
import Testing

@Suite("bgsim tune")
struct TuneCommandTests {
    static let tuning = """
        {
          "name": "delays",
          "preset": "coverdrop-shipped",
          "parameters": [
            { "path": "app.policy.parameters.meanDelayMinutes", "from": 10, "to": 120, "count": 3 },
            { "path": "app.policy.parameters.minimumRunIntervalMinutes", "values": [30, 120] }
          ],
          "objective": { "minimize": "work.latencyMinutes.p90", "subjectTo": ["energy.appBatteryPercentPerDay<=0.05"] },
          "indifferenceZone": 60, "days": 20, "firstStageSeeds": 5, "maximumSeeds": 12
        }
        """

    func directory() throws -> URL { try ToolRunner.temporaryDirectory("bgsim-tune") }

    @Test("shards in separate processes, run stage by stage, give the unsharded outcome byte for byte; a rerun resumes")
    func shardsMatchUnsharded() throws {
        let whole = try directory(), split = try directory()
        defer { try? FileManager.default.removeItem(at: whole); try? FileManager.default.removeItem(at: split) }
        for dir in [whole, split] { try Self.tuning.write(to: dir.appendingPathComponent("t.json"), atomically: true, encoding: .utf8) }
        let unsharded = try ToolRunner.run("bgsim", ["tune", "t.json", "--format", "json", "--quiet"], in: whole)
        #expect(unsharded.status == 0, "\(unsharded.standardError)")
        #expect(unsharded.standardOutput.contains("\"line\" : \"Recommendation: ") || unsharded.standardOutput.contains("\"line\": \"Recommendation: "))
        // Stage 1 on both shards, then each later stage on both (looks after 5, 10 and 12 seeds:
        // at most three stages), then the outcome.
        for _ in 0..<3 {
            for shard in 0..<2 {
                let output = try ToolRunner.run("bgsim", ["tune", "t.json", "--shard", "\(shard)/2", "--quiet", "--jobs", "1"], in: split)
                #expect(output.status == 0, "\(output.standardError)")
            }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: split.path).sorted()
        #expect(files.contains("delays.stage1.shard-0-of-2.jsonl") && files.contains("delays.stage1.shard-1-of-2.jsonl"))
        let merged = try ToolRunner.run("bgsim", ["tune", "t.json", "--format", "json", "--quiet"], in: split)
        #expect(merged.status == 0, "\(merged.standardError)")
        #expect(merged.standardOutput == unsharded.standardOutput)
        // A rerun finds every line and runs nothing.
        let rerun = try ToolRunner.run("bgsim", ["tune", "t.json", "--format", "json"], in: whole)
        #expect(rerun.standardOutput == unsharded.standardOutput)
        #expect(!rerun.standardError.contains("stage 1:"), "\(rerun.standardError)")
    }

    @Test("a stage line edited by hand (configuration 5's p90 set to 1) makes tune exit 2 naming the file and line")
    func editedStageLineIsRefused() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.tuning.write(to: dir.appendingPathComponent("t.json"), atomically: true, encoding: .utf8)
        #expect(try ToolRunner.run("bgsim", ["tune", "t.json", "--quiet"], in: dir).status == 0)
        let stage = dir.appendingPathComponent("delays.stage1.jsonl")
        var lines = try String(contentsOf: stage, encoding: .utf8).split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("{\"cell\":5,") })
        let edited = lines[index].replacingOccurrences(
            of: #""work.latencyMinutes.p90":\{"mean":[0-9.e+-]+"#, with: #""work.latencyMinutes.p90":{"mean":1.0"#, options: .regularExpression)
        #expect(edited != lines[index])
        lines[index] = edited
        try (lines.joined(separator: "\n") + "\n").write(to: stage, atomically: true, encoding: .utf8)
        let output = try ToolRunner.run("bgsim", ["tune", "t.json", "--quiet"], in: dir)
        #expect(output.status == 2)
        #expect(output.standardError.contains("delays.stage1.jsonl:\(index + 1): the line's content does not match its digest"), "\(output.standardError)")
    }

    @Test("a shard file holding a different sealed line for a configuration than the stage file (as two builds of the model would write) makes tune exit 2 naming both, as merge does")
    func conflictingLinesAreRefused() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.tuning.write(to: dir.appendingPathComponent("t.json"), atomically: true, encoding: .utf8)
        #expect(try ToolRunner.run("bgsim", ["tune", "t.json", "--quiet"], in: dir).status == 0)
        let lines = try String(contentsOf: dir.appendingPathComponent("delays.stage1.jsonl"), encoding: .utf8).split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("{\"cell\":0,") })
        // Another digest of the runs, sealed as SWEEPS.md says: the 64-bit FNV-1a hash of the
        // object's text without the content member (closed by its `}`), then a zero byte.
        let marker = try #require(lines[index].range(of: ",\"content\":\"", options: .backwards))
        var object = String(lines[index][..<marker.lowerBound]) + "}"
        object = object.replacingOccurrences(of: #""digest":"[0-9a-f]{16}""#, with: #""digest":"0123456789abcdef""#, options: .regularExpression)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array(object.utf8) + [0] { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let digits = String(hash, radix: 16)
        let sealed = String(object.dropLast()) + ",\"content\":\"" + String(repeating: "0", count: 16 - digits.count) + digits + "\"}"
        try (sealed + "\n").write(to: dir.appendingPathComponent("delays.stage1.shard-0-of-2.jsonl"), atomically: true, encoding: .utf8)
        let output = try ToolRunner.run("bgsim", ["tune", "t.json", "--quiet"], in: dir)
        #expect(output.status == 2, "\(output.standardError)")
        #expect(output.standardError.contains("delays.stage1.shard-0-of-2.jsonl:1: configuration 0 differs from ")
                && output.standardError.contains("delays.stage1.jsonl:\(index + 1)"), "\(output.standardError)")
    }

    @Test("the outcome comes as a table, Markdown or CSV, each starting with the recommendation, and as an HTML report")
    func formats() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.tuning.write(to: dir.appendingPathComponent("t.json"), atomically: true, encoding: .utf8)
        let table = try ToolRunner.run("bgsim", ["tune", "t.json", "--quiet", "--report", "r.html"], in: dir)
        #expect(table.status == 0, "\(table.standardError)")
        #expect(table.standardOutput.hasPrefix("Recommendation: "))
        #expect(table.standardOutput.contains("meanDelayMinutes=65 minimumRunIntervalMinutes=120"))
        let markdown = try ToolRunner.run("bgsim", ["tune", "t.json", "--quiet", "--format", "markdown"], in: dir)
        #expect(markdown.standardOutput.hasPrefix("# Tuning delays\n\n**Recommendation: "))
        let csv = try ToolRunner.run("bgsim", ["tune", "t.json", "--quiet", "--format", "csv"], in: dir)
        let lines = csv.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasPrefix("# Recommendation: ") == true)
        #expect(lines.count == 2 + 6)
        let html = try String(contentsOf: dir.appendingPathComponent("r.html"), encoding: .utf8)
        #expect(html.contains("class=\"recommendation") && html.contains("<svg"))
    }

    @Test("bad tuning files and flags exit 2 naming the field", arguments: [
        (#""parameters": [{"path": "app.policy.parameters.meanDelayMinutes", "from": 10, "to": 5, "count": 3}]"#, "parameters[0].to: expected a number above from"),
        (#""parameters": [{"path": "app.policy.parameters.meanDelayMinutes", "from": 1, "to": 5, "count": 1}]"#, "parameters[0].count: expected a whole number"),
        (#""parameters": [{"path": "app.policy.parameters.meanDelayMinute", "values": [1]}]"#, "meanDelayMinute: unknown key; did you mean \"meanDelayMinutes\"?"),
        (#""parameters": [{"path": "app.policy.parameters.meanDelayMinutes", "values": [1]}], "objective": {"minimize": "latency"}"#, "objective.metric: unknown metric \"latency\""),
        (#""parameters": [{"path": "app.policy.parameters.meanDelayMinutes", "values": [1]}], "objective": {"minimize": "work.latencyMinutes.p90", "subjectTo": ["x<0"]}"#, "objective.subjectTo[0]: expected KEY<=VALUE"),
        (#""parameters": [{"path": "app.policy.parameters.meanDelayMinutes", "values": [1]}], "objective": {"minimize": "work.latencyMinutes.p90"}, "confidence": 2"#, "confidence: expected 0.5–0.999"),
        (#""parameters": [{"path": "app.policy.parameters.meanDelayMinutes", "values": [1]}], "objective": {"minimize": "work.latencyMinutes.p90"}, "tolerances": {"energy.appJoulesPerDay": 1}"#, "tolerances.energy.appJoulesPerDay: expected a metric with a bound"),
        (#""parameters": [{"path": "app.policy.parameters.meanDelayMinutes", "values": [1]}], "objective": {"minimize": "work.latencyMinutes.p90"}, "firstStageSeeds": 3"#, "firstStageSeeds: expected a whole number from 5"),
    ])
    func badFiles(fields: String, message: String) throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "{\"preset\": \"coverdrop-designed\", \(fields)}".write(to: dir.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let output = try ToolRunner.run("bgsim", ["tune", "bad.json"], in: dir)
        #expect(output.status == 2)
        #expect(output.standardError.contains(message), "stderr: \(output.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["bad.json"])
    }
}
