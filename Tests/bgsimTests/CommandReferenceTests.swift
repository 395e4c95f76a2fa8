import Foundation
import Testing

/// docs/COMMANDS.md is the tool's own help, generated; these tests keep it so.
@Suite("The command-line reference")
struct CommandReferenceTests {
    static var committedReference: String {
        get throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            return try String(contentsOf: root.appendingPathComponent("docs/COMMANDS.md"), encoding: .utf8)
        }
    }

    @Test("docs/COMMANDS.md is exactly what 'bgsim help --markdown' prints (regenerate it with that command)")
    func referenceIsCurrent() throws {
        let generated = try ToolRunner.run("bgsim", ["help", "--markdown"])
        #expect(generated.status == 0)
        #expect(generated.standardOutput == (try Self.committedReference))
    }

    @Test("the reference has a section holding each subcommand's own help, for every subcommand the overview lists")
    func everySubcommandHasItsHelp() throws {
        let overview = try ToolRunner.run("bgsim", ["--help"]).standardOutput
        let lines = overview.components(separatedBy: "SUBCOMMANDS:")[1].split(separator: "\n")
        let words: [String] = lines.compactMap { line in line.split(separator: " ").first.map(String.init) }
        let listed = words.filter { word in word.allSatisfy(\.isLetter) && !["help", "version", "Run"].contains(word) }
        #expect(listed.count == 12)
        let reference = try Self.committedReference
        for name in listed {
            #expect(reference.contains("## bgsim \(name)") || reference.contains(", bgsim \(name)"), "no section for \(name)")
            let help = try ToolRunner.run("bgsim", ["help", name])
            #expect(help.status == 0)
            #expect(reference.contains(help.standardOutput), "\(name)'s help is not in the reference as printed")
        }
    }
}
