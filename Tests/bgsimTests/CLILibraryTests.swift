import BackgroundSim
import BackgroundSimCLI
import Foundation
import SimKernel
import Testing

/// The CLI as a library, with a policy of the test's own, run in this process.
@Suite("BackgroundSimCLI with a team's policy")
struct CLILibraryTests {
    struct Parameters: PolicyParameters {
        /// Minutes between refresh requests. Default 30; valid 15–1,440.
        var intervalMinutes: Double = 30
        func validate(_ v: inout ParameterValidator) { v.check(intervalMinutes, 15...1_440, "intervalMinutes") }
    }

    final class Refresher: BackgroundPolicy {
        let parameters: Parameters
        init(parameters: Parameters) { self.parameters = parameters }
        func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
            app.taskScheduler.register(forTaskWithIdentifier: "team.refresh") { task in
                self.submit(app)
                task.setTaskCompleted(success: true)
            }
        }
        func didEnterBackground(_ app: AppContext) { submit(app) }
        func submit(_ app: AppContext) {
            var request = TaskRequest.appRefresh(identifier: "team.refresh")
            request.earliestBeginDate = app.date + .minutes(parameters.intervalMinutes)
            try? app.taskScheduler.submit(request)
        }
    }

    static var tool: BackgroundSimCLI {
        var policies = PolicyRegistry.builtIn
        try! policies.register(PolicyDefinition(name: "team-refresh", summary: "The team's refresh.", parameters: Parameters.self,
                                                taskIdentifiers: ["team.refresh"]) { Refresher(parameters: $0) })
        return BackgroundSimCLI(policies: policies, toolName: "teamsim")
    }

    func report(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test("the policy's name works as a preset, in a scenario file with its parameters (its task identifiers permitted unless the file says otherwise), and in a sweep over them; bad parameters exit 2")
    func policyEverywhere() throws {
        let dir = try ToolRunner.temporaryDirectory("bgsim-cli-library")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("r.json").path
        #expect(Self.tool.run(["run", "--preset", "team-refresh", "--days", "10", "--format", "json", "--output", out]) == 0)
        let byName = try report(out)
        #expect(byName["scenario"] as? String == "team-refresh")
        #expect(((byName["os"] as? [String: Any])?["refreshLaunchesPerDay"] as? Double ?? 0) > 0.5)

        let file = dir.appendingPathComponent("s.json").path
        try #"{"app": {"policy": {"name": "team-refresh", "parameters": {"intervalMinutes": 240}}, "permittedIdentifiers": ["team.refresh"]}}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(Self.tool.run(["run", "--scenario", file, "--days", "10", "--format", "json", "--output", out]) == 0)
        #expect(((try report(out)["os"] as? [String: Any])?["refreshLaunchesPerDay"] as? Double ?? 0) > 0)

        // Without permittedIdentifiers, the policy's declared identifiers are permitted, as its
        // Info.plist would list them; `[]` still models a missing entry.
        let undeclared = dir.appendingPathComponent("undeclared.json").path
        try #"{"app": {"policy": {"name": "team-refresh", "parameters": {"intervalMinutes": 240}}}}"#
            .write(toFile: undeclared, atomically: true, encoding: .utf8)
        #expect(Self.tool.run(["run", "--scenario", undeclared, "--days", "10", "--format", "json", "--output", out]) == 0)
        #expect(((try report(out)["os"] as? [String: Any])?["refreshLaunchesPerDay"] as? Double ?? 0) > 0)
        let missing = dir.appendingPathComponent("missing.json").path
        try #"{"app": {"policy": {"name": "team-refresh"}, "permittedIdentifiers": []}}"#.write(toFile: missing, atomically: true, encoding: .utf8)
        #expect(Self.tool.run(["run", "--scenario", missing, "--days", "10", "--format", "json", "--output", out]) == 0)
        #expect(((try report(out)["os"] as? [String: Any])?["refreshLaunchesPerDay"] as? Double) == 0)

        let bad = dir.appendingPathComponent("bad.json").path
        try #"{"app": {"policy": {"name": "team-refresh", "parameters": {"intervalMinutes": 5}}}}"#.write(toFile: bad, atomically: true, encoding: .utf8)
        #expect(Self.tool.run(["run", "--scenario", bad, "--days", "1"]) == 2)
        // bgsim itself does not know the policy.
        #expect(BackgroundSimCLI().run(["run", "--scenario", file, "--days", "1"]) == 2)

        let sweep = dir.appendingPathComponent("sweep.json").path
        try #"{"name": "intervals", "scenario": {"app": {"policy": "team-refresh", "permittedIdentifiers": ["team.refresh"]}}, "axes": [{"path": "app.policy.parameters.intervalMinutes", "values": [30, 240]}], "seeds": 2, "days": 5}"#
            .write(toFile: sweep, atomically: true, encoding: .utf8)
        let results = dir.appendingPathComponent("intervals.jsonl").path
        #expect(Self.tool.run(["sweep", sweep, "--out", results, "--quiet", "--format", "csv"]) == 0)
        #expect(try String(contentsOfFile: results, encoding: .utf8).split(separator: "\n").count == 2)

        let html = dir.appendingPathComponent("cmp.html").path
        #expect(Self.tool.run(["compare", "coverdrop-designed", "team-refresh", "--seeds", "2", "--days", "5", "--report", html]) == 0)
        #expect(FileManager.default.fileExists(atPath: html))
    }
}
