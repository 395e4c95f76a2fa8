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
}
