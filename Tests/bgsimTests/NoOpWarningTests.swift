import Foundation
import Testing

/// What would silently do nothing is said on standard error; the report itself is unchanged.
@Suite("Warnings for silent no-ops")
struct NoOpWarningTests {
    static let identifier = "com.theguardian.coverdrop.reference.refresh"

    @Test("--simulate-launch at a moment the app is not running says it did nothing, and why")
    func simulatedLaunchWhileNotRunning() throws {
        let output = try ToolRunner.run("bgsim", ["run", "--preset", "coverdrop-designed", "--days", "3",
                                                  "--simulate-launch", "\(Self.identifier)@1"])
        #expect(output.status == 0)
        #expect(output.standardError.contains("bgsim run: warning: --simulate-launch \(Self.identifier) at 0d 01:00:00.000 did nothing: the app was not running"),
                "\(output.standardError)")
    }

    @Test("a scenario whose Info.plist does not permit the policy's identifier says so before it runs; a run with a fragment is labelled with it")
    func identifierNotPermitted() throws {
        let directory = try ToolRunner.temporaryDirectory("noop")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fragment = directory.appendingPathComponent("no-plist.json")
        try Data(#"{"app": {"permittedIdentifiers": []}}"#.utf8).write(to: fragment)
        let output = try ToolRunner.run("bgsim", ["run", "--preset", "coverdrop-designed", "--days", "2", "--with", fragment.path])
        #expect(output.status == 0)
        #expect(output.standardError.contains("warning: coverdrop-designed: app.permittedIdentifiers does not list \"\(Self.identifier)\""),
                "\(output.standardError)")
        #expect(output.standardOutput.hasPrefix("BackgroundSim — coverdrop-designed with no-plist, seed 1"), "\(output.standardOutput.prefix(80))")
        let quiet = try ToolRunner.run("bgsim", ["run", "--preset", "coverdrop-designed", "--days", "2"])
        #expect(!quiet.standardError.contains("warning"), "\(quiet.standardError)")
    }
}
