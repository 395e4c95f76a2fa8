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

    @Test("a field log of many phones, written through per-phone spools, is each phone's own log in seed order, for 1 or 3 jobs, JSON lines or CSV; no spool is left behind")
    func fieldLogOfManyPhonesIsEachPhonesLogInOrder() throws {
        let dir = try ToolRunner.temporaryDirectory("bgsim-fieldlog-spools")
        defer { try? FileManager.default.removeItem(at: dir) }
        for suffix in ["jsonl", "csv"] {
            var single = ""
            for seed in 11...15 {
                let run = try ToolRunner.run("bgsim", ["run", "--preset", "coverdrop-shipped", "--seed", "\(seed)", "--days", "3",
                                                       "--field-log", "one.\(suffix)"], in: dir)
                #expect(run.status == 0, "\(run.standardError)")
                let text = try String(contentsOf: dir.appendingPathComponent("one.\(suffix)"), encoding: .utf8)
                single += suffix == "csv" && seed > 11 ? String(text.drop { $0 != "\n" }.dropFirst()) : text
            }
            for jobs in ["1", "3"] {
                let run = try ToolRunner.run("bgsim", ["run", "--preset", "coverdrop-shipped", "--seed", "11", "--seeds", "5", "--days", "3",
                                                       "--jobs", jobs, "--field-log", "many.\(suffix)", "--quiet"], in: dir)
                #expect(run.status == 0, "\(run.standardError)")
                #expect(try String(contentsOf: dir.appendingPathComponent("many.\(suffix)"), encoding: .utf8) == single, "jobs \(jobs), \(suffix)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["many.csv", "many.jsonl", "one.csv", "one.jsonl"])
    }

    @Test("a field log written again over an earlier one replaces it whole, and leaves no temporary file behind")
    func fieldLogReplacesAnEarlierOne() throws {
        let dir = try ToolRunner.temporaryDirectory("bgsim-fieldlog-again")
        defer { try? FileManager.default.removeItem(at: dir) }
        var sizes: [Int] = []
        for seeds in ["4", "2"] {
            let run = try ToolRunner.run("bgsim", ["run", "--preset", "coverdrop-shipped", "--seeds", seeds, "--days", "3", "--field-log", "log.jsonl", "--quiet"], in: dir)
            #expect(run.status == 0, "\(run.standardError)")
            sizes.append(try Data(contentsOf: dir.appendingPathComponent("log.jsonl")).count)
        }
        #expect(sizes[0] > sizes[1] && sizes[1] > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["log.jsonl"])
    }

    @Test("calibrate writes the summary, a fragment that runs as a scenario and over its base (the command it prints), and a report; fieldlog --replay writes a replay scenario that runs")
    func calibrateAndReplay() throws {
        let dir = try ToolRunner.temporaryDirectory("bgsim-calibrate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try ToolRunner.run("bgsim", ["run", "--preset", "zashi-shipped", "--seeds", "5", "--days", "6", "--field-log", "logs.jsonl", "--quiet"], in: dir)
        #expect(log.status == 0, "\(log.standardError)")
        let calibrate = try ToolRunner.run("bgsim", ["calibrate", "logs.jsonl", "--preset", "zashi-shipped", "--fragment", "fitted.json",
                                                     "--report", "calibration.html", "--format", "json", "--quiet"], in: dir)
        #expect(calibrate.status == 0, "\(calibrate.standardError)")
        #expect(calibrate.standardError.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(calibrate.standardOutput.utf8)) as? [String: Any])
        let kinds = try #require(object["kinds"] as? [[String: Any]])
        #expect(kinds.map { $0["kind"] as? String } == ["processing"])
        #expect((kinds[0]["features"] as? [Any])?.count == 16)
        // Five phones are too few for intervals; the output says so and how to use the values.
        #expect((kinds[0]["tooSmall"] as? String)?.hasPrefix("5 devices") == true)
        #expect(object["use"] as? String == "bgsim run --preset zashi-shipped --with fitted.json")
        let use = try ToolRunner.run("bgsim", ["run", "--preset", "zashi-shipped", "--with", "fitted.json", "--days", "2"], in: dir)
        #expect(use.status == 0, "\(use.standardError)")
        let report = try String(contentsOf: dir.appendingPathComponent("calibration.html"), encoding: .utf8)
        #expect(report.contains("<svg") && report.contains("launches by hour of day") && report.contains("What the model cannot express"))
        for scenario in ["fitted.json", "replay.json"] {
            if scenario == "replay.json" {
                let replay = try ToolRunner.run("bgsim", ["fieldlog", "logs.jsonl", "--replay", "replay.json", "--device", "device-2"], in: dir)
                #expect(replay.status == 0, "\(replay.standardError)")
            }
            let run = try ToolRunner.run("bgsim", ["run", "--scenario", scenario, "--days", "2"], in: dir)
            #expect(run.status == 0, "\(scenario): \(run.standardError)")
        }
        let replay = try String(contentsOf: dir.appendingPathComponent("replay.json"), encoding: .utf8)
        #expect(replay.contains("\"device-2\"") && !replay.contains("\"device-3\"") && replay.contains("\"launchModel\": \"replay\""))
    }

    @Test("a bad field log or flag exits 2 with the file, line and field", arguments: [
        (["fieldlog", "bad.jsonl"], "bad.jsonl:2: event: expected one of"),
        (["fieldlog"], "fieldlog needs one or more field-log files"),
        (["fieldlog", "missing.jsonl"], "missing.jsonl"),
        (["fieldlog", "good.jsonl", "--device", "a"], "--device needs --replay FILE"),
        (["fieldlog", "good.jsonl", "--replay", "r.json", "--device", "nope"], "no device 'nope'"),
        (["fieldlog", "empty.jsonl", "--replay", "r.json"], "--replay: the logs hold no device to replay"),
        (["fieldlog", "header.csv", "--replay", "r.json"], "--replay: the logs hold no device to replay"),
        (["fieldlog", "far.jsonl"], "far.jsonl:2: time: expected a time within 100,000 days of this device's first record"),
        (["calibrate", "far.jsonl"], "far.jsonl:2: time: expected a time within 100,000 days"),
        (["calibrate"], "calibrate needs one or more field-log files"),
        (["calibrate", "bad.jsonl"], "bad.jsonl:2: event: expected one of"),
        (["calibrate", "good.jsonl", "--metrickit", "good.jsonl"], "good.jsonl"),
        (["calibrate", "good.jsonl", "--preset", "nope"], "unknown preset 'nope'"),
        (["calibrate", "good.jsonl", "--format", "csv"], "--format"),
        (["run", "--preset", "device-only", "--days", "2", "--trace", "t.jsonl", "--field-log", "f.jsonl"], "--trace and --field-log both record"),
    ])
    func bad(arguments: [String], message: String) throws {
        let dir = try ToolRunner.temporaryDirectory("bgsim-fieldlog-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            {"device": "a", "time": "2026-01-05T07:00:00", "event": "appForeground"}
            {"device": "a", "time": "2026-01-05T08:00:00", "event": "opened"}
            """.write(to: dir.appendingPathComponent("bad.jsonl"), atomically: true, encoding: .utf8)
        try """
            {"device": "a", "time": "2026-01-05T07:00:00", "event": "appForeground"}
            """.write(to: dir.appendingPathComponent("good.jsonl"), atomically: true, encoding: .utf8)
        try "".write(to: dir.appendingPathComponent("empty.jsonl"), atomically: true, encoding: .utf8)
        try "device,time,event\n".write(to: dir.appendingPathComponent("header.csv"), atomically: true, encoding: .utf8)
        try """
            {"device": "a", "time": "2026-01-05T07:00:00", "event": "appForeground"}
            {"device": "a", "time": "2526-01-05T07:00:00", "event": "appBackground"}
            """.write(to: dir.appendingPathComponent("far.jsonl"), atomically: true, encoding: .utf8)
        let output = try ToolRunner.run("bgsim", arguments, in: dir)
        #expect(output.status == 2)
        #expect(output.standardError.contains(message), "stderr: \(output.standardError)")
    }
}
