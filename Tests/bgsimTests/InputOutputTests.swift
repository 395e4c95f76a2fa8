import Foundation
import Testing

/// Where bgsim reads scenarios from and writes its outputs to.
@Suite("bgsim inputs and outputs")
struct InputOutputTests {
    @Test("outputs never replace a directory, a device or a symbolic link, and a missing folder is refused before anything runs")
    func outputDestinations() throws {
        let dir = try ToolRunner.temporaryDirectory("bgsim-outputs")
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("target.txt").path
        try "keep".write(toFile: target, atomically: true, encoding: .utf8)
        let link = dir.appendingPathComponent("link.txt").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        for (path, message) in [(dir.path, "is a directory"), ("/dev/null", "is a device"), (link, "is a symbolic link"),
                                (dir.appendingPathComponent("missing/report.json").path, "the folder")] {
            for flag in ["--output", "--trace"] {
                let output = try ToolRunner.run("bgsim", ["run", "--preset", "device-only", "--days", "100000", flag, path])
                #expect(output.status == 2, "\(flag) \(path)")
                #expect(output.standardError.contains("\(flag) \(path): \(message)"), "\(output.standardError)")
            }
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    }

    @Test("a scenario can come from standard input; a directory given as a scenario is named as such")
    func scenarioSources() throws {
        let piped = try ToolRunner.run("bgsim", ["run", "--scenario", "-", "--days", "2", "--format", "json"],
                                       input: #"{"name": "piped", "user": {"sessionsPerDay": 30}}"#)
        #expect(piped.status == 0, "\(piped.standardError)")
        #expect(try ToolRunner.field("scenario", in: piped.standardOutput.replacingOccurrences(of: "\n", with: " ")) == "piped")
        let dir = try ToolRunner.temporaryDirectory("bgsim-scenario-dir")
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = try ToolRunner.run("bgsim", ["run", "--scenario", dir.path])
        #expect(output.status == 2)
        #expect(output.standardError.contains("\(dir.path): cannot read the file: it is a directory"))
    }

    @Test("--output's extension chooses the format when --format is not given")
    func formatFromOutputExtension() throws {
        let dir = try ToolRunner.temporaryDirectory("bgsim-format")
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("report.json").path
        let run = try ToolRunner.run("bgsim", ["run", "--preset", "device-only", "--days", "3", "--output", json])
        #expect(run.status == 0, "\(run.standardError)")
        let text = try String(contentsOfFile: json, encoding: .utf8)
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "JSON, not the table")
        let table = dir.appendingPathComponent("report.txt").path
        _ = try ToolRunner.run("bgsim", ["run", "--preset", "device-only", "--days", "3", "--output", table])
        #expect(try String(contentsOfFile: table, encoding: .utf8).hasPrefix("BackgroundSim — device-only"), "other extensions keep the table")
    }

    @Test("help texts: 'bgsim help run' and 'bgsim presets --help' print their own; presets takes no flags")
    func helpTexts() throws {
        let help = try ToolRunner.run("bgsim", ["help", "run"])
        #expect(help.status == 0)
        #expect(help.standardOutput.hasPrefix("USAGE: bgsim run"))
        let presets = try ToolRunner.run("bgsim", ["presets", "--help"])
        #expect(presets.standardOutput.hasPrefix("USAGE: bgsim presets"))
        let stray = try ToolRunner.run("bgsim", ["presets", "--x"])
        #expect(stray.status == 2)
        #expect(stray.standardError.contains("unknown flag '--x'; this command takes none"))
    }

    @Test("a field log interrupted by SIGTERM leaves no hidden file beside it; the hidden files of a process that no longer runs are removed by the next run writing there")
    func interruptedRunsCleanUp() throws {
        let dir = try ToolRunner.temporaryDirectory("bgsim-interrupted")
        defer { try? FileManager.default.removeItem(at: dir) }
        func hidden() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasPrefix(".f.jsonl.") }.sorted() }
        let process = Process()
        process.executableURL = ToolRunner.productsDirectory.appendingPathComponent("bgsim")
        process.arguments = ["run", "--preset", "coverdrop-shipped", "--seeds", "2000", "--days", "365", "--field-log", "f.jsonl", "--quiet", "--jobs", "1"]
        process.currentDirectoryURL = dir
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let start = Date()
        while hidden().count < 2 && Date().timeIntervalSince(start) < 60 { usleep(20_000) }
        #expect(hidden().contains { $0.hasSuffix(".partial") } && hidden().contains { $0.hasSuffix(".spool") }, "\(hidden())")
        kill(process.processIdentifier, SIGTERM)
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { [process] in if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        process.waitUntilExit()
        // Ended by the signal, or, where the test's thread passed on a mask that blocks it, with 128 + 15.
        let bySignal = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM
        #expect(bySignal || process.terminationStatus == 128 + SIGTERM, "\(process.terminationReason) \(process.terminationStatus)")
        #expect(hidden().isEmpty, "\(hidden())")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("f.jsonl").path))

        // A process that ran and ended: its identifier names no running process now.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        for name in [".f.jsonl.\(ended.processIdentifier).partial", ".f.jsonl.\(ended.processIdentifier).seed-3.spool"] {
            try "left over".write(to: dir.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        #expect(hidden().count == 2)
        let next = try ToolRunner.run("bgsim", ["run", "--preset", "device-only", "--seeds", "2", "--days", "1", "--field-log", "f.jsonl", "--quiet"], in: dir)
        #expect(next.status == 0, "\(next.standardError)")
        #expect(hidden().isEmpty, "\(hidden())")
    }
}
