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
}
