import Foundation
import Testing

/// A long command says what it will cost before it starts, on standard error, even when that
/// is not a terminal (as in these tests).
@Suite("Cost notes")
struct CostNoteTests {
    @Test("check over ten million seeds says within seconds how many device-days it will simulate and about how long that takes here; --quiet says nothing")
    func checkAnnouncesItsCost() throws {
        let arguments = ["check", "--preset", "probe-refresh", "--seeds", "10000000", "--days", "7", "--jobs", "1"]
        let started = Date()
        let output = try ToolRunner.run("bgsim", arguments, timeout: 5)
        #expect(Date().timeIntervalSince(started) < 20)
        let line = try #require(output.standardError.split(separator: "\n").first, "no line on stderr")
        #expect(line.hasPrefix("bgsim check: about 7 × 10⁷ device-days, ~"), "\(line)")
        #expect(line.range(of: #" on 1 job here \(from a \d+-day probe\)$"#, options: .regularExpression) != nil, "\(line)")
        let quiet = try ToolRunner.run("bgsim", arguments + ["--quiet"], timeout: 3)
        #expect(!quiet.standardError.contains("device-days"), "\(quiet.standardError)")
    }

    @Test("a bare compare, which the user did not size, says at once what it will run and about how long that takes here")
    func bareCompareAnnouncesItsCost() throws {
        let started = Date()
        let output = try ToolRunner.run("bgsim", ["compare", "--jobs", "1"], timeout: 3)
        #expect(Date().timeIntervalSince(started) < 20)
        let lines = output.standardError.split(separator: "\n")
        #expect(lines.first?.hasPrefix("bgsim compare: no scenarios given; comparing the built-in default") == true, "\(output.standardError)")
        #expect(lines.count > 1 && lines[1].hasPrefix("bgsim compare: about 73,000 device-days, ~"), "\(output.standardError)")
        #expect(lines.count > 1 && lines[1].range(of: #" on 1 job here \(from a \d+-day probe\)$"#, options: .regularExpression) != nil,
                "\(output.standardError)")
    }

    @Test("a short command says nothing of its cost")
    func shortCommandsAreSilent() throws {
        let output = try ToolRunner.run("bgsim", ["run", "--preset", "probe-refresh", "--seeds", "2", "--days", "3"])
        #expect(output.status == 0)
        #expect(!output.standardError.contains("device-days, ~"), "\(output.standardError)")
    }
}
