import BackgroundSim
import Foundation
import Testing

@Suite("bgsim run")
struct RunCommandTests {
    /// Writes `text` to a fresh temporary file and returns its path.
    func temporaryFile(_ text: String, name: String = "scenario.json") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test("the JSON report has the contracted fields and repeats exactly")
    func jsonContract() throws {
        let arguments = ["run", "--preset", "device-only", "--days", "30", "--seed", "5", "--format", "json"]
        let first = try ToolRunner.run("bgsim", arguments)
        let second = try ToolRunner.run("bgsim", arguments)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput == second.standardOutput)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.standardOutput.utf8)) as? [String: Any])
        #expect(object["scenario"] as? String == "device-only")
        #expect(object["seed"] as? String == "5")
        #expect((object["days"] as? NSNumber)?.intValue == 30)
        #expect((object["digest"] as? String)?.count == 16)
        let device = try #require(object["device"] as? [String: Any])
        for field in ["screenOnHoursPerDay", "phoneSessionsPerDay", "chargingHoursPerDay", "wifiShare", "cellularShare",
                      "offlineShare", "lowPowerModeHoursPerDay", "batteryDrainPercentPerDay", "minimumBatteryPercent",
                      "hoursAtZeroBattery"] {
            #expect(device[field] is NSNumber, "device.\(field)")
        }
    }

    @Test("the table report gives each figure a label and a value in their columns, and the run's digest")
    func table() throws {
        let output = try ToolRunner.run("bgsim", ["run", "--preset", "device-only", "--days", "10"])
        #expect(output.status == 0)
        let lines = output.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        // Figures are indented rows: a label, at least two spaces, a value starting with a digit,
        // all values in one column.
        let rows = lines.filter { $0.hasPrefix("  ") }
        #expect(rows.count >= 15)
        var valueColumns = Set<Int>()
        for row in rows {
            let text = String(row.dropFirst(2))
            let gap = try #require(text.range(of: "  "), "no gap between label and value: \(row)")
            let value = text[gap.upperBound...].drop { $0 == " " }
            #expect(value.first?.isNumber == true, "\(row)")
            #expect(!text[..<gap.lowerBound].isEmpty && text[..<gap.lowerBound].last?.isNumber == false, "label glued to a number: \(row)")
            valueColumns.insert(row.count - value.count)
        }
        #expect(valueColumns.count == 1, "values in \(valueColumns.count) columns")
        let json = try ToolRunner.run("bgsim", ["run", "--preset", "device-only", "--days", "10", "--format", "json"])
        let digest = try ToolRunner.field("digest", in: json.standardOutput)
        #expect(lines.count > 1 && lines[1].hasPrefix("digest \(digest), "), "\(lines.prefix(2))")
    }

    @Test("--with lays fragments over the preset in order (the later wins), and a bad one exits 2 before anything runs")
    func withFragments() throws {
        let first = try temporaryFile(#"{"system": {"heuristic": {"refreshBasePerDay": 2}}}"#, name: "first.json")
        let directory = URL(fileURLWithPath: first).deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: directory) }
        let second = directory.appendingPathComponent("second.json").path
        try #"{"system": {"heuristic": {"refreshBasePerDay": 3, "refreshPerAppSession": 0.5}}}"#.write(toFile: second, atomically: true, encoding: .utf8)
        let printed = try ToolRunner.run("bgsim", ["scenario", "--preset", "coverdrop-shipped", "--with", first, "--with", second])
        #expect(printed.status == 0, "\(printed.standardError)")
        #expect(printed.standardOutput.contains("\"refreshBasePerDay\": 3,") && printed.standardOutput.contains("\"refreshPerAppSession\": 0.5,"))
        #expect(printed.standardOutput.contains("\"name\": \"coverdrop-shipped\""))
        let withFragment = try ToolRunner.run("bgsim", ["run", "--preset", "coverdrop-shipped", "--with", first, "--days", "20", "--format", "json"])
        let without = try ToolRunner.run("bgsim", ["run", "--preset", "coverdrop-shipped", "--days", "20", "--format", "json"])
        #expect(try ToolRunner.field("digest", in: withFragment.standardOutput) != ToolRunner.field("digest", in: without.standardOutput))
        let bad = directory.appendingPathComponent("bad.json").path
        try #"{"system": {"heuristic": {"refreshBasePerDa": 2}}}"#.write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try ToolRunner.run("bgsim", ["compare", "coverdrop-designed", "coverdrop-shipped", "--with", bad, "--seeds", "2", "--days", "5"])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("bad.json") && refused.standardError.contains("did you mean \"refreshBasePerDay\""), "\(refused.standardError)")
    }

    @Test("a scenario file of {} runs the defaults, and --output writes the report to a file")
    func scenarioFileAndOutput() throws {
        let scenario = try temporaryFile("{}")
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: scenario).deletingLastPathComponent().path) }
        let report = URL(fileURLWithPath: scenario).deletingLastPathComponent().appendingPathComponent("report.json").path
        let output = try ToolRunner.run("bgsim", ["run", "--scenario", scenario, "--days", "10", "--format", "json", "--output", report])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.isEmpty)
        let written = try String(contentsOfFile: report, encoding: .utf8)
        #expect(written.contains("\"digest\""))
    }

    @Test("a bad scenario file exits 2 naming the file, the field and the expectation", arguments: [
        (#"{"user": {"sesionsPerDay": 10}}"#, #"user.sesionsPerDay: unknown key; did you mean "sessionsPerDay"?"#),
        (#"{"power": {"topUpsPerDay": "two"}}"#, "power.topUpsPerDay: expected a number, got a string"),
        (#"{"device": {"capacityMilliampHours": 90000}}"#, "device.capacityMilliampHours: expected a number from 500 to 10000, got 90000"),
        (#"{"device": {"model": "iPhone 99"}}"#, "device.model: expected one of"),
        (#"{"power": {"optimizedChargingLearningDays": 2.5}}"#, "power.optimizedChargingLearningDays: expected a whole number"),
        (#"{"network": {"wifiShare": 0.2}}"#, "network.wifiShare: expected a share"),
        ("{\n  \"user\": {,\n}", "not valid JSON: line 2, column 12"),
        ("[1, 2]", "expected an object"),
    ])
    func badScenario(document: String, message: String) throws {
        let path = try temporaryFile(document)
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let output = try ToolRunner.run("bgsim", ["run", "--scenario", path, "--days", "5"])
        #expect(output.status == 2)
        #expect(output.standardError.contains("\(path): \(message)"), "stderr: \(output.standardError)")
        #expect(output.standardOutput.isEmpty)
    }

    @Test("bad run flags exit 2 with a message, suggesting the nearest name for a slip", arguments: [
        (["run"], "run needs --preset NAME or --scenario FILE"),
        (["run", "--preset", "nope"], "unknown preset 'nope'; expected one of device-only"),
        (["run", "--preset", "device-only", "--scenario", "x.json"], "not both"),
        (["run", "--scenario", "/nonexistent/s.json"], "/nonexistent/s.json: cannot read the file"),
        (["run", "--preset", "device-only", "--days", "0"], "--days expects a whole number from 1"),
        (["run", "--preset", "device-only", "--days", "106752"], "--days expects a whole number from 1 to 100000"),
        (["run", "--preset", "device-only", "--format", "xml"], "--format expects one of table, json"),
        (["run", "--preset", "device-only", "--dayz", "3"], "unknown flag '--dayz'; did you mean '--days'?"),
        (["run", "--preset", "device-only", "--dyas", "3"], "unknown flag '--dyas'; did you mean '--days'?"),
        (["run", "--preset", "coverdrop-shiped"], "unknown preset 'coverdrop-shiped'; did you mean 'coverdrop-shipped'? ('bgsim presets' lists them all)"),
        (["compare", "coverdrop-designed", "coverdrop-shiped"], "'coverdrop-shiped' is neither a preset or policy nor a scenario file; did you mean 'coverdrop-shipped'?"),
        (["run", "--preset", "device-only", "--frobnicate", "3"], "unknown flag '--frobnicate'; expected one of --preset"),
        (["run", "--preset", "device-only", "--days", "3", "--days", "4"], "--days is given twice"),
        (["run", "--preset", "device-only", "--jobs", "abc"], "--jobs applies only with --seeds"),
    ])
    func badFlags(arguments: [String], message: String) throws {
        let output = try ToolRunner.run("bgsim", arguments)
        #expect(output.status == 2)
        #expect(output.standardError.contains(message), "stderr: \(output.standardError)")
    }

    @Test("bgsim presets lists the built-in scenarios")
    func presets() throws {
        let output = try ToolRunner.run("bgsim", ["presets"])
        #expect(output.status == 0)
        #expect(output.standardOutput.hasPrefix("device-only"))
        #expect(output.standardOutput.contains("probe-refresh"))
        #expect(output.standardOutput.contains("probe-processing"))
    }

    @Test("a probe run reports the os and metricKit groups")
    func osGroups() throws {
        let output = try ToolRunner.run("bgsim", ["run", "--preset", "probe-refresh", "--days", "20", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let os = try #require(object["os"] as? [String: Any])
        #expect(((os["refreshLaunchesPerDay"] as? NSNumber)?.doubleValue ?? 0) > 0)
        #expect((os["launchHourHistogram"] as? [Any])?.count == 24)
        #expect(os["submitErrors"] is [String: Any])
        let metricKit = try #require(object["metricKit"] as? [String: Any])
        #expect(metricKit["cumulativeBackgroundTaskAssertionTimeoutExitCount"] is NSNumber)
        #expect(metricKit["cumulativeForegroundTime"] is NSNumber)
    }

    @Test("--trace writes valid JSON lines with events and iOS-model transitions")
    func trace() throws {
        let directory = URL(fileURLWithPath: try temporaryFile("{}")).deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("trace.jsonl").path
        let output = try ToolRunner.run("bgsim", ["run", "--preset", "probe-refresh", "--days", "14", "--trace", path])
        #expect(output.status == 0, "\(output.standardError)")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count > 100)
        var names: Set<String> = []
        var previous = -1.0
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let ns = try #require((object["ns"] as? NSNumber)?.doubleValue)
            #expect(ns >= previous, "in time order")
            previous = ns
            names.insert("\(object["source"] ?? "")/\(object["event"] ?? "")")
        }
        for expected in ["event/sessionStart", "event/appOpen", "system/launch", "system/didEnterBackground",
                         "system/suspend", "system/submit", "system/taskLaunch", "system/taskCompleted"] {
            #expect(names.contains(expected), "trace lacks \(expected)")
        }
    }

    @Test("--simulate-launch and --simulate-expiration run the same simulation as the scenario's debugger section, and differ from a run without them")
    func debuggerFlags() throws {
        let id = "com.theguardian.coverdrop.reference.refresh"
        func digest(_ arguments: [String]) throws -> String {
            let output = try ToolRunner.run("bgsim", ["run", "--preset", "coverdrop-shipped", "--days", "3", "--format", "json"] + arguments)
            #expect(output.status == 0, "\(output.standardError)")
            let object = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
            return try #require(object?["digest"] as? String)
        }
        let fragment = try temporaryFile(#"{"debugger": {"simulateLaunch": [{"atHours": 1.5, "identifier": "\#(id)"}, {"atHours": 30, "identifier": "\#(id)"}], "#
                                         + #""simulateExpiration": [{"atHours": 30.25, "identifier": "\#(id)"}]}}"#)
        let flags = try digest(["--simulate-launch", "\(id)@90m", "--simulate-launch", "\(id)@1.25d", "--simulate-expiration", "\(id)@30.25h"])
        #expect(flags == (try digest(["--with", fragment])))
        #expect(flags != (try digest([])))
    }

    @Test("a mistyped debugger identifier or time exits 2 with the nearest identifier or the expected form", arguments: [
        (["--simulate-launch", "com.theguardian.coverdrop.reference.refrsh@1h"], "did you mean 'com.theguardian.coverdrop.reference.refresh'?"),
        (["--simulate-expiration", "com.theguardian.coverdrop.reference.refresh@tomorrow"], "as 9.5h, 570m, 1d or 20h10s, got 'tomorrow'"),
        (["--simulate-launch", "com.theguardian.coverdrop.reference.refresh"], "expects IDENTIFIER@TIME"),
        (["--simulate-launch", "com.theguardian.coverdrop.reference.refresh@-1h"], "got '-1h'"),
    ])
    func debuggerFlagErrors(_ arguments: [String], _ message: String) throws {
        let output = try ToolRunner.run("bgsim", ["run", "--preset", "coverdrop-shipped", "--days", "3"] + arguments)
        #expect(output.status == 2)
        #expect(output.standardError.contains(message), "stderr: \(output.standardError)")
    }
}

@Suite("bgsim run --seeds")
struct RunReplicationsTests {
    @Test("replications summarise every field, identically for 1 and 2 jobs")
    func replications() throws {
        let arguments = ["run", "--preset", "coverdrop-designed", "--seeds", "3", "--days", "5", "--format", "csv"]
        let one = try ToolRunner.run("bgsim", arguments + ["--jobs", "1"])
        let two = try ToolRunner.run("bgsim", arguments + ["--jobs", "2"])
        #expect(one.status == 0, "\(one.standardError)")
        #expect(one.standardOutput == two.standardOutput)
        let lines = one.standardOutput.split(separator: "\n")
        #expect(lines.first == "field,unit,mean,sd,ci95_low,ci95_high,p10,median,p90,count")
        #expect(lines.contains { $0.hasPrefix("work.latencyMinutes.p90,min,") })
        #expect(lines.contains { $0.hasPrefix("os.refreshLaunchesPerDay,/day,") })
        #expect(lines.contains { $0.hasPrefix("os.submits,count in 5 days,") }, "a total says it is one")
        // Three seeds behind every field, except those null where they do not apply: the
        // correlation when a count never varies, energy per megabyte or item with none delivered.
        let nullable = ["work.uploadTraffic.realWorkCorrelation,", "energy.appJoulesPerMegabyteDelivered,", "energy.appJoulesPerCompletedItem,"]
        #expect(lines.dropFirst().filter { line in !nullable.contains { line.hasPrefix($0) } }.allSatisfy { $0.hasSuffix(",3") },
                "three seeds behind every field")
        #expect(nullable.allSatisfy { field in lines.contains { $0.hasPrefix(field) } })
    }

    @Test("bad replication flags exit 2", arguments: [
        (["run", "--preset", "coverdrop-designed", "--seeds", "1"], "--seeds expects a whole number from 2"),
        (["run", "--preset", "coverdrop-designed", "--seeds", "3", "--trace", "t.jsonl"], "--trace records one run"),
        (["run", "--preset", "coverdrop-designed", "--seeds", "3", "--format", "xml"], "--format expects one of"),
    ])
    func badFlags(arguments: [String], message: String) throws {
        let output = try ToolRunner.run("bgsim", arguments)
        #expect(output.status == 2)
        #expect(output.standardError.contains(message), "stderr: \(output.standardError)")
    }
}

@Suite("bgsim compare")
struct CompareCommandTests {
    @Test("compare prints verdicts, JSON that parses and an HTML report, identically for 1 and 2 jobs")
    func compare() throws {
        let arguments = ["compare", "proton-upload-designed", "coverdrop-designed", "--seeds", "3", "--days", "10", "--format", "json"]
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("compare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: reports) }
        let one = try ToolRunner.run("bgsim", arguments + ["--jobs", "1", "--report", reports.appendingPathComponent("1.html").path])
        let two = try ToolRunner.run("bgsim", arguments + ["--jobs", "2", "--report", reports.appendingPathComponent("2.html").path])
        #expect(one.status == 0, "\(one.standardError)")
        #expect(one.standardOutput == two.standardOutput)
        let report = try String(contentsOf: reports.appendingPathComponent("1.html"), encoding: .utf8)
        #expect(report == (try String(contentsOf: reports.appendingPathComponent("2.html"), encoding: .utf8)))
        #expect(report.contains("bgsim compare proton-upload-designed coverdrop-designed --seeds 3 --days 10<"), "the command, without --jobs and paths")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(one.standardOutput.utf8)) as? [String: Any])
        #expect((object["scenarios"] as? [String]) == ["proton-upload-designed", "coverdrop-designed"])
        let table = try ToolRunner.run("bgsim", ["compare", "proton-upload-designed", "coverdrop-designed", "--seeds", "3", "--days", "10", "--quiet"])
        #expect(table.standardOutput.contains("Verdicts"))
        // Standard error is not a terminal here, and the run takes under 10 s: no progress, only
        // results on standard output.
        #expect(one.standardError.isEmpty)
    }

    @Test("--precision adds seeds until the objective's verdicts are decided and says so first in every format")
    func precision() throws {
        let arguments = ["compare", "coverdrop-designed", "coverdrop-shipped", "--seeds", "4", "--days", "20", "--quiet",
                         "--minimize", "work.latencyMinutes.p90", "--subject-to", "energy.appBatteryPercentPerDay<=0.05",
                         "--precision", "objective", "--max-seeds", "32"]
        let table = try ToolRunner.run("bgsim", arguments)
        #expect(table.status == 0, "\(table.standardError)")
        let lines = table.standardOutput.split(separator: "\n")
        #expect(lines[0].hasPrefix("Recommendation: "))
        #expect(lines[1].hasPrefix("Precision: "))
        let json = try ToolRunner.run("bgsim", arguments + ["--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let precision = try #require(object["precision"] as? [String: Any])
        let seeds = try #require(precision["seeds"] as? Int)
        #expect([4, 8, 16, 32].contains(seeds))
        #expect((object["seeds"] as? [String])?.count == seeds)
    }

    @Test("a former preset name is refused with the name that replaced it (exit 2), on the command line and in compare")
    func renamedPreset() throws {
        let output = try ToolRunner.run("bgsim", ["run", "--preset", "coverdrop-send", "--days", "2"])
        #expect(output.status == 2)
        #expect(output.standardError.contains("'coverdrop-send' is now called 'coverdrop-designed'"), "\(output.standardError)")
        let compare = try ToolRunner.run("bgsim", ["compare", "zashi-sync", "zashi-shipped", "--seeds", "2", "--days", "2"])
        #expect(compare.status == 2)
        #expect(compare.standardError.contains("'zashi-sync' is now called 'zashi-designed'"), "\(compare.standardError)")
    }

    @Test("with no scenarios, compare runs the built-in default (the README's main command) and writes its report")
    func builtInDefault() throws {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("default-\(UUID().uuidString).html").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let output = try ToolRunner.run("bgsim", ["compare", "--seeds", "3", "--days", "20", "--report", report])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("coverdrop-shipped: app energy"))
        #expect(output.standardError.contains("comparing the built-in default, coverdrop-designed vs coverdrop-shipped, over 3 seeds × 20 days"))
        #expect(try String(contentsOfFile: report, encoding: .utf8).contains("BackgroundSim comparison: coverdrop-designed vs coverdrop-shipped"))
    }

    @Test("bad compare arguments exit 2", arguments: [
        (["compare", "proton-upload-designed"], "at least two scenarios (preset names or files), or none for the built-in default"),
        (["compare", "proton-upload-designed", "nonsense"], "neither a preset"),
        (["compare", "proton-upload-designed", "coverdrop-designed", "--seeds", "1"], "--seeds expects a whole number from 2"),
        (["compare", "proton-upload-designed", "coverdrop-designed", "--precision", "latency"], "precision: unknown metric \"latency\""),
        (["compare", "proton-upload-designed", "coverdrop-designed", "--max-seeds", "50"], "--max-seeds needs --precision"),
        (["compare", "proton-upload-designed", "coverdrop-designed", "--precision", "objective"], "--precision objective needs an objective"),
        (["compare", "proton-upload-designed", "coverdrop-designed", "--precision", ""], "--precision expects all, objective or metric keys"),
        (["compare", "proton-upload-designed", "coverdrop-designed", "--precision", ","], "--precision expects all, objective or metric keys"),
        (["compare", "proton-upload-designed", "coverdrop-designed", "--subject-to", "os.killsForOverruns<=0"], "--subject-to needs an objective"),
        (["compare", "proton-upload-designed", "coverdrop-designed", "--minimize", "a", "--maximize", "b"], "give --minimize or --maximize, not both"),
        (["compare", "proton-upload-designed", "coverdrop-designed", "--margins", "os.killsForOverruns=-1"], "margins.os.killsForOverruns: expected a finite number ≥ 0"),
        (["compare", "proton-upload-designed", "coverdrop-designed", "--margins", "/no/such/margins.json"], "/no/such/margins.json"),
        (["compare", "coverdrop-designed", "coverdrop-shipped", "--break-even", "system.heuristic.refreshBasePerDay"],
         "--break-even needs --model-uncertainty"),
        (["compare", "coverdrop-designed", "coverdrop-shipped", "--model-uncertainty", "--break-even", "system.heuristic.refreshBasePerDay"],
         "--break-even needs an objective"),
        (["compare", "coverdrop-designed", "coverdrop-shipped", "--model-uncertainty", "--minimize", "work.latencyMinutes.p90",
          "--break-even", "refreshBasePerDay"], "'refreshBasePerDay' is not one (did you mean system.heuristic.refreshBasePerDay?)"),
    ])
    func badArguments(arguments: [String], message: String) throws {
        let output = try ToolRunner.run("bgsim", arguments)
        #expect(output.status == 2)
        #expect(output.standardError.contains(message), "stderr: \(output.standardError)")
    }
}

@Suite("bgsim trace")
struct TraceCommandTests {
    @Test("the trace is valid trace-event JSON with a track for each part of the story")
    func perfettoTrace() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-trace-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try ToolRunner.run("bgsim", ["trace", "--preset", "proton-upload-designed", "--days", "3", "--out", path])
        #expect(output.status == 0, "\(output.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        var trackNames: [Int: String] = [:]
        var spansPerTrack: [Int: Int] = [:]
        for event in events {
            let phase = try #require(event["ph"] as? String)
            #expect(["X", "i", "C", "M"].contains(phase))
            #expect(event["name"] is String)
            #expect(event["pid"] is NSNumber)
            if phase == "M", event["name"] as? String == "thread_name",
               let tid = (event["tid"] as? NSNumber)?.intValue, let args = event["args"] as? [String: Any] {
                trackNames[tid] = args["name"] as? String
            }
            if phase == "X" {
                let ts = try #require((event["ts"] as? NSNumber)?.doubleValue)
                let duration = try #require((event["dur"] as? NSNumber)?.doubleValue)
                #expect(ts >= 0 && duration >= 0 && ts + duration <= 3 * 86_400e6 + 1)
                spansPerTrack[(event["tid"] as? NSNumber)?.intValue ?? 0, default: 0] += 1
            }
        }
        #expect(Set(trackNames.values) == ["Screen", "App state", "Background tasks", "Background-task assertions",
                                           "Work executor", "Network", "Charger", "Launch decisions",
                                           "URL sessions, pushes, continued processing"])
        for name in ["Screen", "App state", "Network", "Charger", "Work executor"] {
            let tid = try #require(trackNames.first { $0.value == name }?.key)
            #expect(spansPerTrack[tid, default: 0] > 0, "no spans on \(name)")
        }
        #expect(events.contains { $0["ph"] as? String == "C" }, "a battery counter")
    }

    @Test("every launch decision is an instant on the launch-decisions track, named by its outcome")
    func launchDecisionTrack() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-trace-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try ToolRunner.run("bgsim", ["trace", "--preset", "probe-refresh", "--days", "7", "--out", path])
        #expect(output.status == 0, "\(output.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        let track = try #require(events.first { ($0["args"] as? [String: Any])?["name"] as? String == "Launch decisions" }?["tid"] as? NSNumber)
        let decisions = events.filter { ($0["tid"] as? NSNumber) == track && $0["ph"] as? String == "i" }
        let names = decisions.compactMap { $0["name"] as? String }
        #expect(names.contains("launched") && names.contains { $0 != "launched" }, "\(Set(names))")
        #expect(Set(names).isSubset(of: Set(["launched"] + LaunchDenial.allCases.map(\.rawValue))), "\(Set(names))")
    }

    @Test("silent pushes appear as instants on the doors' track: received, delivered, deferred for the spacing or a budget")
    func doorsTrack() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-trace-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try ToolRunner.run("bgsim", ["trace", "--preset", "coverdrop-push", "--days", "3", "--out", path])
        #expect(output.status == 0, "\(output.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        let track = try #require(events.first { ($0["args"] as? [String: Any])?["name"] as? String == "URL sessions, pushes, continued processing" }?["tid"] as? NSNumber)
        let names = Set(events.filter { ($0["tid"] as? NSNumber) == track && $0["ph"] as? String == "i" }.compactMap { $0["name"] as? String })
        #expect(names.contains("pushReceived") && names.contains("pushDelivered"), "\(names)")
    }

    @Test("trace without --out is a usage error")
    func needsOut() throws {
        let output = try ToolRunner.run("bgsim", ["trace", "--preset", "proton-upload-designed"])
        #expect(output.status == 2)
        #expect(output.standardError.contains("trace needs --out FILE"))
    }
}

@Suite("bgsim whatif")
struct WhatIfCommandTests {
    @Test("whatif prints the grid as CSV, one line per scenario, cell and metric, and writes the report")
    func csvAndReport() throws {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("whatif-\(UUID().uuidString).html").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let output = try ToolRunner.run("bgsim", ["whatif", "coverdrop-designed", "--seeds", "2", "--days", "2", "--format", "csv", "--report", report])
        #expect(output.status == 0, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n")
        #expect(lines.first == "scenario,cell,network,charging,app_usage,device,metric,unit,mean,ci95_low,ci95_high,p10,median,p90,count")
        #expect(lines.count == 1 + 81 * 5)
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("bgsim whatif coverdrop-designed --seeds 2 --days 2<"))
    }

    @Test("bad whatif arguments exit 2", arguments: [
        (["whatif"], "at least one scenario"),
        (["whatif", "nonsense"], "neither a preset"),
        (["whatif", "coverdrop-designed", "--days", "0"], "--days expects a whole number from 1"),
        (["whatif", "coverdrop-designed", "--format", "pdf"], "--format expects one of"),
    ])
    func badArguments(arguments: [String], message: String) throws {
        let output = try ToolRunner.run("bgsim", arguments)
        #expect(output.status == 2)
        #expect(output.standardError.contains(message), "stderr: \(output.standardError)")
    }
}
