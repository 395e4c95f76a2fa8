import Foundation
import Testing

/// Bad input at the command line: every message names the tool, a long list is capped, and
/// the odd cases the fuzzers found are refused with exit 2 before anything runs.
@Suite("Bad input")
struct BadInputTests {
    @Test("a file with 30 mistakes lists the first 20, each line prefixed with the tool's name, then counts the other 10")
    func errorListsAreCapped() throws {
        let directory = try ToolRunner.temporaryDirectory("bgsim-bad-input")
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = (0..<30).map { "\"k\($0)\": 1" }.joined(separator: ", ")
        try "{\(keys)}".write(to: directory.appendingPathComponent("many.json"), atomically: true, encoding: .utf8)
        let output = try ToolRunner.run("bgsim", ["run", "--scenario", "many.json"], in: directory)
        #expect(output.status == 2)
        let lines = output.standardError.split(separator: "\n")
        #expect(lines.count == 21, "\(output.standardError)")
        #expect(lines.allSatisfy { $0.hasPrefix("bgsim: ") })
        #expect(lines.last == "bgsim: … and 10 more problems (fix these and run again to see them)")
    }

    @Test("the odd cases are refused with exit 2 and a message that says why", arguments: [
        (["run", "--preset", "device-only", "--seed", "18446744073709551615", "--seeds", "3"], "runs past the last seed"),
        (["compare", "--first-seed", "18446744073709551614", "--seeds", "3"], "runs past the last seed"),
        (["help", "merge", "-x", "5"], "help takes one subcommand's name"),
        (["tune", "nonexistent.json"], "bgsim: nonexistent.json"),
        (["compare", "--minimize", "all"], "bgsim: "),
    ])
    func oddCases(_ arguments: [String], _ message: String) throws {
        let output = try ToolRunner.run("bgsim", arguments)
        #expect(output.status == 2)
        #expect(output.standardError.hasPrefix("bgsim: "), "\(output.standardError)")
        #expect(output.standardError.contains(message), "\(output.standardError)")
    }

    @Test("a FIFO given as a scenario is refused as not a regular file, without blocking on it")
    func fifoScenario() throws {
        let directory = try ToolRunner.temporaryDirectory("bgsim-fifo")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("scenario.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let output = try ToolRunner.run("bgsim", ["run", "--scenario", fifo], timeout: 30)
        #expect(output.status == 2)
        #expect(output.standardError.contains("not a regular file"), "\(output.standardError)")
    }

    @Test("a scenario over 16 MiB is refused by its size, before it is read")
    func oversizedScenario() throws {
        let directory = try ToolRunner.temporaryDirectory("bgsim-large")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("large.json")
        // A sparse file: 20 MiB of size without 20 MiB of writing.
        #expect(FileManager.default.createFile(atPath: path.path, contents: Data("{".utf8)))
        let handle = try FileHandle(forWritingTo: path)
        try handle.truncate(atOffset: 20 << 20)
        try handle.close()
        let output = try ToolRunner.run("bgsim", ["run", "--scenario", path.path])
        #expect(output.status == 2)
        #expect(output.standardError.contains("larger than 16 MiB (20971520 bytes)"), "\(output.standardError)")
    }
}
