import Foundation
import Testing

@Suite("Recipes from the command line")
struct RecipeCommandTests {
    @Test("a recipe scenario runs with bgsim run, a sweep over a recipe field runs, and a bad recipe exits 2 naming the field")
    func recipes() throws {
        let dir = try ToolRunner.temporaryDirectory("bgsim-recipes")
        defer { try? FileManager.default.removeItem(at: dir) }
        let recipe = dir.appendingPathComponent("recipe.json").path
        try #"{"app": {"policy": {"name": "recipe", "parameters": {"identifier": "x.refresh", "delayRule": "exponential", "delayMinutes": 10, "minimumDelayMinutes": 5, "maximumDelayMinutes": 120}}, "permittedIdentifiers": ["x.refresh"]}}"#
            .write(toFile: recipe, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run("bgsim", ["run", "--scenario", recipe, "--days", "20", "--format", "json"])
        #expect(run.status == 0, "\(run.standardError)")
        let os = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])["os"] as? [String: Any]
        #expect((os?["refreshLaunchesPerDay"] as? Double ?? 0) > 0.5)

        let sweep = dir.appendingPathComponent("sweep.json").path
        try #"{"name": "recipe-delays", "scenario": {"app": {"policy": {"name": "recipe", "parameters": {"identifier": "x.refresh"}}, "permittedIdentifiers": ["x.refresh"]}}, "axes": [{"path": "app.policy.parameters.delayMinutes", "values": [15, 240]}], "seeds": 2, "days": 10}"#
            .write(toFile: sweep, atomically: true, encoding: .utf8)
        let swept = try ToolRunner.run("bgsim", ["sweep", sweep, "--quiet"])
        #expect(swept.status == 0, "\(swept.standardError)")
        #expect(swept.standardOutput.contains("delayMinutes=15") && swept.standardOutput.contains("delayMinutes=240"))

        let bad = dir.appendingPathComponent("bad.json").path
        try #"{"app": {"policy": {"name": "recipe", "parameters": {"kind": "processing", "retryMinimumMinutes": 90, "retryMaximumMinutes": 30}}}}"#
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try ToolRunner.run("bgsim", ["run", "--scenario", bad])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("app.policy.parameters.retryMaximumMinutes: expected a number from 90 to 10080, got 30"), "\(refused.standardError)")
    }
}
