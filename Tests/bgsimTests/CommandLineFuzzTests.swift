import BackgroundSim
import Foundation
import SimKernel
import Testing

/// A seeded fuzzer over `bgsim` command lines: 300 of them, each a subcommand (or none, or a
/// bogus one) with flags drawn from every subcommand's, values from pools that mix valid,
/// malformed, out-of-range and dangerous ones (a directory, a device, a FIFO, a missing folder, a
/// file that is not a scenario, a scenario with 300 unknown keys, an edited sweep results file, a
/// field log with its records twice, replay fragments with a device twice or under the heuristic
/// model, the largest seed), flags repeated or left without a value, and positional arguments.
/// Each must exit 0, or 2 with a message on standard error that starts with the tool's name and
/// lists at most 20 problems — `check` may exit 1 for a violation it reports — within 60 s, never
/// on a signal, and never with a raw Foundation error. Values that would be valid stay small (at
/// most 3 seeds, 2 days), so the valid lines run quickly.
@Suite("Command-line fuzzer")
struct CommandLineFuzzTests {
    static let lines = 300

    static let subcommands = ["run", "compare", "sweep", "merge", "tune", "fieldlog", "calibrate", "whatif", "check", "trace", "presets", "scenario", "help",
                              "version", "bogus", ""]

    /// Flags and the pool each draws its value from (`nil`: a switch).
    static func pools(_ dir: String) -> [(flag: String, values: [String]?)] {
        let outputs = ["\(dir)/out.json", "\(dir)/out.csv", "\(dir)/out.md", "\(dir)/out.txt", "/dev/null", dir,
                       "\(dir)/no/such/folder/out.json", "\(dir)/scenario.json", ""]
        return [
            ("--preset", ["device-only", "probe-refresh", "coverdrop-designed", "zashi-designed", "nope", ""]),
            ("--scenario", ["\(dir)/scenario.json", "\(dir)/bad.json", "\(dir)/missing.json", dir, "-", "/dev/null", "\(dir)/fifo",
                            "\(dir)/flood.json", "\(dir)/replay-twice.json", "\(dir)/replay-heuristic.json"]),
            ("--with", ["\(dir)/scenario.json", "\(dir)/bad.json", "\(dir)/replay.json", "\(dir)/replay-twice.json", "\(dir)/replay-heuristic.json",
                        "\(dir)/flood.json", "\(dir)/fifo"]),
            ("--simulate-launch", ["com.example.refresh@9.5h", "com.example.refresh@-1h", "nope@1d", "x", ""]),
            ("--simulate-expiration", ["com.example.refresh@20h10s", "com.example.refresh@1y", "@"]),
            ("--days", ["1", "2", "0", "-1", "x", "1e3", "2.5", "100001", "1000000", "99999999999999999999", ""]),
            ("--seed", ["1", "7", "-1", "abc", "18446744073709551616", "18446744073709551615", ""]),
            ("--seeds", ["2", "3", "1", "0", "-5", "abc", "100001", "10000001"]),
            ("--first-seed", ["1", "0", "-1", "x", "9223372036854775807"]),
            ("--jobs", ["1", "2", "0", "x", "2000"]),
            ("--format", ["json", "csv", "markdown", "table", "xml", ""]),
            ("--output", outputs), ("--report", outputs), ("--trace", outputs), ("--out", outputs + ["\(dir)/results"]),
            ("--shard", ["0/2", "1/1", "3/2", "a/b", "0/0", "-1/2"]),
            ("--sweep", ["\(dir)/sweep.json", "\(dir)/scenario.json", "\(dir)/missing.json"]),
            ("--within-hours", ["1", "0", "-2", "x"]),
            ("--minimize", ["work.latencyMinutes.p90", "energy.appJoulesPerDay", "latency", ""]),
            ("--maximize", ["work.completionPercent", "x"]),
            ("--subject-to", ["energy.appBatteryPercentPerDay<=0.05", "work.completionPercent>=90,os.killsForOverruns<=0", "x<1", "a<=b", ""]),
            ("--margins", ["work.latencyMinutes.p90=5", "x=1", "os.killsForOverruns=-1", "\(dir)/missing.json", "\(dir)/scenario.json"]),
            ("--precision", ["all", "objective", "work.latencyMinutes.p90", "nope"]),
            ("--max-seeds", ["4", "8", "1", "x"]),
            ("--field-log", outputs), ("--fragment", outputs), ("--replay", outputs),
            ("--metrickit", ["\(dir)/scenario.json", "\(dir)/missing.json", "\(dir)/bad.json,\(dir)/scenario.json", dir, ""]),
            ("--device", ["device-1", ""]),
            ("--quiet", nil), ("--allow-partial", nil), ("--bogus", nil), ("-h", nil), ("--", nil),
        ]
    }

    static func positionals(_ dir: String) -> [String] {
        ["\(dir)/sweep.json", "\(dir)/scenario.json", "\(dir)/bad.json", "\(dir)/results/a.jsonl", "\(dir)/missing.json",
         dir, "-", "device-only", "coverdrop-designed", "run", "extra", "\(dir)/fifo", "\(dir)/results/edited.jsonl",
         "\(dir)/results/sealed.jsonl", "\(dir)/log.jsonl", "\(dir)/twice.jsonl", "\(dir)/flood.json"]
    }

    @Test("300 fuzzed command lines exit 0, or 2 with a message (check: 1 for a violation), never on a signal or a timeout")
    func fuzz() throws {
        let directory = try ToolRunner.temporaryDirectory("bgsim-cli-fuzz")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dir = directory.path
        try #"{"app": {"policy": "coverdrop-designed"}}"#.write(toFile: "\(dir)/scenario.json", atomically: true, encoding: .utf8)
        try #"{"user": {"sessionsPerDay": "many"}, "power": {"topUpMinimumMinutes": 601}}"#
            .write(toFile: "\(dir)/bad.json", atomically: true, encoding: .utf8)
        try #"{"name": "s", "preset": "probe-refresh", "axes": [{"path": "user.sessionsPerDay", "values": [30, 60]}], "seeds": 2, "days": 2}"#
            .write(toFile: "\(dir)/sweep.json", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: "\(dir)/results", withIntermediateDirectories: true)
        try "{\"cell\":0}\n{\"cell\":".write(toFile: "\(dir)/results/a.jsonl", atomically: true, encoding: .utf8)
        try Self.writeTrickyFiles(in: directory)

        var random = RandomStream(seed: FuzzSettings.seed, label: StreamLabel("fuzz.commandLines"))
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        let pools = Self.pools(dir)
        var byStatus: [Int32: Int] = [:]
        let lines = FuzzSettings.inputs(Self.lines)
        for number in 0..<lines {
            let subcommand = pick(Self.subcommands)
            var arguments = subcommand.isEmpty ? [] : [subcommand]
            for _ in 0..<Int(random.next() % 5) {
                if random.chance(0.2) {
                    arguments.append(pick(Self.positionals(dir)))
                    continue
                }
                let (flag, values) = pick(pools)
                arguments.append(flag)
                // Sometimes the value is left out (the flag last, or followed by another flag).
                if let values, random.chance(0.9) { arguments.append(pick(values)) }
            }
            // Commands whose defaults run for long get small bounds (which may themselves be
            // repeated, and so refused).
            if ["compare", "whatif", "check", "run", "trace"].contains(subcommand) {
                arguments += ["--days", pick(["1", "2"]), "--seeds", pick(["2", "3"])]
            }
            FuzzSettings.trying("command-line", number, "bgsim " + arguments.joined(separator: " "))
            // check writes failures to its working directory
            let output = try ToolRunner.run("bgsim", arguments, timeout: 60, memoryBytes: FuzzSettings.memoryBytes, in: directory)
            let line = "bgsim " + arguments.joined(separator: " ")
            byStatus[output.status, default: 0] += 1
            #expect(!output.timedOut, "\(line): still running after 60 s")
            #expect(!output.signalled, "\(line): ended on signal \(output.status)\n\(output.standardError)")
            let allowed: Set<Int32> = subcommand == "check" ? [0, 1, 2] : [0, 2]
            #expect(allowed.contains(output.status), "\(line): exit \(output.status)\n\(output.standardError)")
            if output.status == 2 {
                #expect(!output.standardError.isEmpty, "\(line): exit 2 without a message")
            }
            if output.status == 2 {
                #expect(output.standardError.hasPrefix("bgsim"), "\(line): the message does not start with the tool's name\n\(output.standardError)")
                #expect(output.standardError.split(separator: "\n").count <= 24, "\(line): more than 20 problems listed")
            }
            for raw in ["NSCocoaErrorDomain", "Error Domain=", "Fatal error"] {
                #expect(!output.standardError.contains(raw), "\(line): \(output.standardError)")
            }
        }
        let counts = byStatus.keys.sorted().map { "exit \($0): \(byStatus[$0]!)" }.joined(separator: ", ")
        print(FuzzSettings.summary("command-line", inputs: lines, counts))
        #expect(byStatus[0, default: 0] >= 20 && byStatus[2, default: 0] >= 100, "both outcomes exercised: \(counts)")
    }

    /// The files the pools name that take a run to make, or a system call: a FIFO, a scenario
    /// with 300 unknown keys, a sweep's results sealed and edited, a field log and the same log
    /// with every record twice, and its replay fragment as written, with its devices twice, and
    /// under the heuristic launch model.
    static func writeTrickyFiles(in directory: URL) throws {
        let dir = directory.path
        #expect(mkfifo("\(dir)/fifo", 0o600) == 0)
        let keys = (0..<300).map { "\"unknown\($0)\": 1" }.joined(separator: ", ")
        try "{\(keys)}".write(toFile: "\(dir)/flood.json", atomically: true, encoding: .utf8)
        let sweep = try ToolRunner.run("bgsim", ["sweep", "\(dir)/sweep.json", "--out", "\(dir)/results/sealed.jsonl", "--quiet"], in: directory)
        #expect(sweep.status == 0, "\(sweep.standardError)")
        let sealed = try String(contentsOfFile: "\(dir)/results/sealed.jsonl", encoding: .utf8)
        try sealed.replacingOccurrences(of: "\"mean\":", with: "\"mean\":1").write(toFile: "\(dir)/results/edited.jsonl", atomically: true, encoding: .utf8)
        let log = try ToolRunner.run("bgsim", ["run", "--preset", "coverdrop-shipped", "--seeds", "2", "--days", "2", "--field-log", "\(dir)/log.jsonl", "--quiet"],
                                     in: directory)
        #expect(log.status == 0, "\(log.standardError)")
        let records = try String(contentsOfFile: "\(dir)/log.jsonl", encoding: .utf8)
        try (records + records).write(toFile: "\(dir)/twice.jsonl", atomically: true, encoding: .utf8)
        let replay = try ToolRunner.run("bgsim", ["fieldlog", "\(dir)/log.jsonl", "--replay", "\(dir)/replay.json"], in: directory)
        #expect(replay.status == 0, "\(replay.standardError)")
        let fragment = try String(contentsOfFile: "\(dir)/replay.json", encoding: .utf8)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(fragment.utf8)) as? [String: Any])
        var system = try #require(object["system"] as? [String: Any])
        var replayed = try #require(system["replay"] as? [String: Any])
        let devices = try #require(replayed["devices"] as? [Any])
        replayed["devices"] = devices + devices
        system["replay"] = replayed
        object["system"] = system
        try JSONSerialization.data(withJSONObject: object).write(to: directory.appendingPathComponent("replay-twice.json"))
        system["replay"] = ["devices": devices]
        system["launchModel"] = "heuristic"
        object["system"] = system
        try JSONSerialization.data(withJSONObject: object).write(to: directory.appendingPathComponent("replay-heuristic.json"))
    }
}
