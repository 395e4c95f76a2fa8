import Foundation
import Testing

@Suite("bgsim fieldlog and run --field-log")
struct FieldLogCommandTests {
    @Test("simulated phones' field logs, JSON lines or CSV, summarise to the same features for 1 and 2 jobs")
    func writeAndSummarise() throws {
        let dir = try ToolRunner.temporaryDirectory("bgsim-fieldlog")
        defer { try? FileManager.default.removeItem(at: dir) }
        var summaries: [String] = []
        for (file, jobs) in [("a.jsonl", "1"), ("b.csv", "2")] {
            let run = try ToolRunner.run("bgsim", ["run", "--preset", "coverdrop-shipped", "--seeds", "6", "--days", "5", "--jobs", jobs,
                                                   "--field-log", file, "--quiet"], in: dir)
            #expect(run.status == 0, "\(run.standardError)")
            let summary = try ToolRunner.run("bgsim", ["fieldlog", file], in: dir)
            #expect(summary.status == 0, "\(summary.standardError)")
            summaries.append(summary.standardOutput)
        }
        #expect(summaries[0] == summaries[1])
        #expect(summaries[0].contains("refresh: 6 devices, "), "\(summaries[0])")
        let json = try ToolRunner.run("bgsim", ["fieldlog", "a.jsonl", "--format", "json"], in: dir)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect((object["kinds"] as? [[String: Any]])?.first?["kind"] as? String == "refresh")
    }

    @Test("a bad field log or flag exits 2 with the file, line and field", arguments: [
        (["fieldlog", "bad.jsonl"], "bad.jsonl:2: event: expected one of"),
        (["fieldlog"], "fieldlog needs one or more field-log files"),
        (["fieldlog", "missing.jsonl"], "missing.jsonl"),
        (["run", "--preset", "device-only", "--days", "2", "--trace", "t.jsonl", "--field-log", "f.jsonl"], "--trace and --field-log both record"),
    ])
    func bad(arguments: [String], message: String) throws {
        let dir = try ToolRunner.temporaryDirectory("bgsim-fieldlog-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            {"device": "a", "time": "2026-01-05T07:00:00", "event": "appForeground"}
            {"device": "a", "time": "2026-01-05T08:00:00", "event": "opened"}
            """.write(to: dir.appendingPathComponent("bad.jsonl"), atomically: true, encoding: .utf8)
        let output = try ToolRunner.run("bgsim", arguments, in: dir)
        #expect(output.status == 2)
        #expect(output.standardError.contains(message), "stderr: \(output.standardError)")
    }
}
