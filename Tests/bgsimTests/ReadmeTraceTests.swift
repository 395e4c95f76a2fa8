import Foundation
import Testing

@Suite("The README's trace example")
struct ReadmeTraceTests {
    @Test("the README's bgsim trace line writes a timeline that shows what the tool is about: launch decisions, a task launch and its span, the extension's background running")
    func traceShowsLaunches() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let line = try #require(readme.split(separator: "\n").first { $0.hasPrefix("bgsim trace ") })
        let arguments = line.prefix { $0 != "#" }.split(separator: " ").dropFirst().map(String.init)
        let directory = try ToolRunner.temporaryDirectory("bgsim-readme-trace")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try ToolRunner.run("bgsim", arguments, in: directory)
        #expect(output.status == 0, "\(output.standardError)")
        let data = try Data(contentsOf: directory.appendingPathComponent("trace.json"))
        let object = try JSONSerialization.jsonObject(with: data)
        let events = (object as? [String: Any])?["traceEvents"] as? [[String: Any]] ?? object as? [[String: Any]] ?? []
        let names = Set(events.compactMap { $0["name"] as? String })
        #expect(names.contains("launched") && names.contains("notChosen"), "launch decisions: \(names.sorted())")
        #expect(names.contains { $0.hasSuffix(".refresh") }, "a refresh task's span: \(names.sorted())")
        #expect(names.contains("background running"), "the extension after a visit: \(names.sorted())")
    }

    @Test("run --trace on the push preset for 3 days: every fired event has a name, none 'kind N' (push sends and deliveries included)")
    func everyTracedEventHasAName() throws {
        let directory = try ToolRunner.temporaryDirectory("bgsim-trace-names")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try ToolRunner.run("bgsim", ["run", "--preset", "coverdrop-push", "--days", "3", "--trace", "t.jsonl"], in: directory)
        #expect(output.status == 0, "\(output.standardError)")
        let lines = try String(contentsOf: directory.appendingPathComponent("t.jsonl"), encoding: .utf8).split(separator: "\n")
        var names: Set<String> = []
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let name = object?["event"] as? String { names.insert(name) }
        }
        #expect(!names.isEmpty && !names.contains { $0.hasPrefix("kind ") }, "\(names.sorted())")
        #expect(names.contains("pushSend") && names.contains("pushDeliveryAttempt"), "\(names.sorted())")
    }

    @Test("SCENARIOS.md's debugger example launches the backup task at 20:00 and expires it 10 s later, and the trace shows both commands done")
    func debuggerExampleDoesWhatItSays() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let document = try String(contentsOf: root.appendingPathComponent("docs/SCENARIOS.md"), encoding: .utf8)
        // The example: from its "bgsim trace" line to the end of its code block, continuations joined.
        let start = try #require(document.range(of: "bgsim trace --preset proton-photos-backup"))
        let block = document[start.lowerBound...].prefix { $0 != "`" }
        let arguments = block.replacingOccurrences(of: "\\\n", with: " ").split(whereSeparator: \.isWhitespace).dropFirst().map(String.init)
        let directory = try ToolRunner.temporaryDirectory("bgsim-debugger-example")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try ToolRunner.run("bgsim", arguments, in: directory)
        #expect(output.status == 0, "\(output.standardError)")
        let data = try Data(contentsOf: directory.appendingPathComponent("debug.json"))
        let events = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["traceEvents"] as? [[String: Any]] ?? []
        func outcome(_ name: String) -> String? { (events.first { $0["name"] as? String == name }?["args"] as? [String: Any])?["outcome"] as? String }
        #expect(outcome("simulatedLaunch") == "done")
        #expect(outcome("simulatedExpiration") == "done")
        let task = try #require(events.first { $0["name"] as? String == "ch.protonmail.protondrive.photosProcessing" && $0["ph"] as? String == "X" })
        // 20:00 on the first day, for 10 s, in microseconds.
        #expect((task["ts"] as? NSNumber)?.doubleValue == 72_000e6)
        #expect((task["dur"] as? NSNumber)?.doubleValue == 10e6)
        // Without the expiration the same launch runs its 22 s.
        let launchOnly = arguments.filter { !$0.contains("--simulate-expiration") && !$0.hasSuffix("@20h10s") }
        #expect(try ToolRunner.run("bgsim", launchOnly, in: directory).status == 0)
        let whole = (try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("debug.json"))) as? [String: Any])?["traceEvents"]
            as? [[String: Any]] ?? []
        let full = try #require(whole.first { $0["name"] as? String == "ch.protonmail.protondrive.photosProcessing" && $0["ph"] as? String == "X" })
        #expect(((full["dur"] as? NSNumber)?.doubleValue ?? 0).rounded(.down) / 1e6 >= 22, "\(full)")
    }
}
