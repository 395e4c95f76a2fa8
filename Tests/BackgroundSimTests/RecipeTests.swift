import Foundation
@testable import BackgroundSim
import SimKernel
import Testing

/// Policies described as data (`app.policy.name = "recipe"`).
@Suite("Recipes")
struct RecipeTests {
    /// `scenario`'s digests over `days` on ``TestBuild/digestSeeds`` (one seed in a debug build).
    static func digests(_ scenario: Scenario, days: Int = 60) throws -> [String] {
        try TestBuild.digestSeeds.map { try SimulationRunner.run(scenario: scenario, seed: $0, days: days).digest.description }
    }

    @Test("the refresh probe as a recipe gives the probe's digests, event for event")
    func probeAsRecipe() throws {
        let probe = Presets.scenario(named: "probe-refresh")!
        var recipe = RecipeParameters()
        recipe.identifier = ProbePolicy.refreshIdentifier
        recipe.delayMinutes = 15
        var scenario = probe
        scenario.app.policy = PolicyConfiguration(name: "recipe", parameters: recipe)
        #expect(try Self.digests(scenario) == Self.digests(probe))
    }

    @Test("Zashi's designed sync as a recipe gives the Swift policy's digests")
    func zashiAsRecipe() throws {
        let zashi = Presets.scenario(named: "zashi-designed")!
        var recipe = RecipeParameters()
        recipe.identifier = ZashiDesignedParameters().identifier
        recipe.kind = .processing
        recipe.requiresExternalPower = true
        recipe.requiresNetworkConnectivity = true
        recipe.delayMinutes = 60
        recipe.requiresWifi = true
        recipe.workInForeground = true
        var scenario = zashi
        scenario.app.policy = PolicyConfiguration(name: "recipe", parameters: recipe)
        #expect(try Self.digests(scenario, days: 90) == Self.digests(zashi, days: 90))
    }

    /// The scenario in docs/RECIPES.md whose `name` is `name`.
    static func documented(_ name: String) throws -> Scenario {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/RECIPES.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        var rest = text[...]
        while let open = rest.range(of: "```json\n"), let close = rest[open.upperBound...].range(of: "\n```") {
            let block = String(rest[open.upperBound..<close.lowerBound])
            if block.contains("\"name\": \"\(name)\"") { return try ScenarioLoader.decode(block, source: "docs/RECIPES.md \(name)") }
            rest = rest[close.upperBound...]
        }
        throw ScenarioIssue(path: "", message: "docs/RECIPES.md has no example named \(name)")
    }

    /// `preset` with CoverDrop's library start and overlapping jobs turned off, which a recipe
    /// cannot express.
    static func serialised(_ preset: String) throws -> Scenario {
        var scenario = try #require(Presets.scenario(named: preset))
        var parameters = try #require(scenario.app.policy.parameters(as: CoverDropShippedParameters.self))
        parameters.jobsOverlap = false
        parameters.libraryStartSeconds = 0
        scenario.app.policy.parameters = parameters
        return scenario
    }

    @Test("CoverDrop as shipped, as the recipe in docs/RECIPES.md, gives the Swift policy's digests with its jobs one after the other and no library start; so does its July 2025 build")
    func coverDropShippedAsRecipe() throws {
        let recipe = try Self.documented("coverdrop-shipped-recipe")
        let recipeDigests = try Self.digests(recipe, days: 120)
        #expect(try recipeDigests == Self.digests(Self.serialised("coverdrop-shipped"), days: 120))
        #expect(try recipeDigests != Self.digests(Presets.scenario(named: "coverdrop-shipped")!, days: 120),
                "the code's overlapping jobs change the outcome")
        var july = recipe
        var parameters = try #require(july.app.policy.parameters(as: RecipeParameters.self))
        parameters.kind = .processing
        parameters.requiresNetworkConnectivity = true
        parameters.submitInHandler = false
        july.app.policy.parameters = parameters
        july.app.backgroundModes = [.fetch]
        #expect(try Self.digests(july, days: 120) == Self.digests(Self.serialised("coverdrop-processing-2025-07"), days: 120))
    }

    @Test("Zashi as shipped, as the recipe in docs/RECIPES.md, gives the Swift policy's digests")
    func zashiShippedAsRecipe() throws {
        let recipe = try Self.documented("zashi-shipped-recipe")
        #expect(try Self.digests(recipe, days: 90) == Self.digests(Presets.scenario(named: "zashi-shipped")!, days: 90))
    }

    @Test("each door as a recipe in docs/RECIPES.md gives its Swift policy's digests: the background URL session, the silent push, the continued-processing request", arguments: [
        ("proton-upload-urlsession-recipe", "proton-upload-urlsession"),
        ("coverdrop-push-recipe", "coverdrop-push"),
        ("proton-upload-continued-recipe", "proton-upload-continued"),
    ])
    func doorAsRecipe(recipe: String, preset: String) throws {
        let documented = try Self.documented(recipe)
        let swift = try #require(Presets.scenario(named: preset))
        #expect(try Self.digests(documented, days: 120) == Self.digests(swift, days: 120))
        // The recipe is not a copy of the preset: its own policy runs.
        #expect(documented.app.policy.name == "recipe")
    }

    @Test("a recipe file without app.permittedIdentifiers declares the recipe's own identifiers, its scheduler's too, and none for kind none")
    func recipeDeclaresItsIdentifiers() throws {
        func permitted(_ parameters: String) throws -> [String] {
            try ScenarioLoader.decode(#"{"app": {"policy": {"name": "recipe", "parameters": "# + parameters + "}}}", source: "r.json").app.permittedIdentifiers
        }
        #expect(try permitted(#"{"identifier": "com.example.sync"}"#) == ["com.example.sync"])
        #expect(try permitted(#"{"identifier": "a.sync", "kind": "processing", "schedulerIdentifier": "a.scheduler"}"#) == ["a.sync", "a.scheduler"])
        #expect(try permitted(#"{"kind": "none", "onPush": "run"}"#) == [])
        let given = try ScenarioLoader.decode(#"{"app": {"permittedIdentifiers": [], "policy": {"name": "recipe", "parameters": {"identifier": "x.y"}}}}"#,
                                              source: "r.json")
        #expect(given.app.permittedIdentifiers == [], "an explicit list, even empty, is kept")
    }

    /// A quiet phone whose app uses `recipe`, opened at 0 s for a minute.
    func harness(_ recipe: RecipeParameters, _ configure: (inout Scenario) -> Void = { _ in }) throws -> SystemHarness {
        var scenario = SystemHarness.quietScenario
        scenario.app.permittedIdentifiers = [recipe.identifier]
        configure(&scenario)
        let harness = try SystemHarness(scenario) { RecipePolicy(parameters: recipe) }
        harness.useApp(at: SimInstant.start, for: .minutes(1))
        return harness
    }

    func delays(_ harness: SystemHarness) -> [Double] {
        harness.entries(.submit).compactMap { if case .submit(_, _, let delay) = $0.event { delay.seconds / 60 } else { nil } }
    }

    @Test("the exponential rule draws delays clamped to its bounds, with about its mean")
    func exponentialDelays() throws {
        var recipe = RecipeParameters()
        recipe.delayRule = .exponential
        recipe.delayMinutes = 10
        recipe.minimumDelayMinutes = 5
        recipe.maximumDelayMinutes = 120
        let harness = try harness(recipe)
        try harness.run(until: .start + .days(20))
        let drawn = delays(harness)
        #expect(drawn.count > 200)
        #expect(drawn.allSatisfy { $0 >= 5 - 1e-9 && $0 <= 120 + 1e-9 })
        #expect(drawn.contains { abs($0 - 5) < 1e-9 }, "draws below 5 are clamped to 5")
        // Clamped mean of Exp(10) to [5, 120]: 5 + 10·e^(−0.5) − 10·e^(−12) ≈ 11.07.
        let mean = drawn.reduce(0, +) / Double(drawn.count)
        #expect(abs(mean - 11.07) < 1.5, "mean \(mean)")
    }

    @Test("the next-window rule asks for the next local day at the window's time plus up to the jitter")
    func nextWindow() throws {
        var recipe = RecipeParameters()
        recipe.kind = .processing
        recipe.delayRule = .nextWindow
        recipe.windowTime = TimeOfDay(hour: 3)
        recipe.windowJitterMinutes = 60
        let harness = try harness(recipe)
        try harness.run(until: .start + .days(10))
        let calendar = Scenario().calendar.calendar
        let submits = harness.entries(.submit)
        #expect(!submits.isEmpty)
        for submit in submits {
            guard case .submit(_, _, let delay) = submit.event else { continue }
            let begin = submit.time + delay
            #expect(calendar.day(of: begin) == calendar.day(of: submit.time) + 1)
            let time = calendar.timeOfDay(at: begin)
            #expect(time >= .hours(3) && time <= .hours(4), "begin at \(begin)")
        }
    }

    @Test("failures retry with doubling delays between the bounds; a run too soon after a success is skipped")
    func retriesAndInterval() throws {
        var recipe = RecipeParameters()
        recipe.requiresWifi = true                 // never on Wi-Fi here: every run fails
        recipe.submitInHandler = false
        recipe.submitAfterFailure = true
        recipe.retryRule = .doubling
        recipe.retryMinimumMinutes = 5
        recipe.retryMaximumMinutes = 40
        let harness = try harness(recipe) {
            $0.network.wifiShare = 0
            $0.network.homeWifiProbability = 0
        }
        try harness.run(until: .start + .days(1))
        // The first request on leaving (15 min), then 5, 10, 20, 40, 40, … after each failure.
        #expect(Array(delays(harness).prefix(6)) == [15, 5, 10, 20, 40, 40])
    }

    @Test("bad recipes are refused naming the field", arguments: [
        (#"{"delayRule": "sometimes"}"#, "app.policy.parameters.delayRule", "expected one of"),
        (#"{"minimumDelayMinutes": 30, "maximumDelayMinutes": 10}"#, "app.policy.parameters.maximumDelayMinutes", "from 30 to 10080"),
        (#"{"requiresExternalPower": true}"#, "app.policy.parameters.requiresExternalPower", "use kind \"processing\""),
        (#"{"enqueuePerRun": 2}"#, "app.policy.parameters.enqueuePerRun", "need some work"),
        (#"{"submitOnEnterBackground": false}"#, "app.policy.parameters.submitOnEnterBackground", "nothing would ever be submitted"),
        (#"{"windowTime": "25:00"}"#, "app.policy.parameters.windowTime", "HH:MM"),
        (#"{"delayMinuts": 3}"#, "app.policy.parameters.delayMinuts", "did you mean \"delayMinutes\""),
        (#"{"kind": "continuedProcessing", "identifier": "com.example.upload"}"#, "app.policy.parameters.identifier", "ending in \".*\""),
        (#"{"kind": "none", "submitOnLaunch": true}"#, "app.policy.parameters.submitOnLaunch", "does not apply to kind none"),
        (#"{"kind": "none", "requiresNetworkConnectivity": true}"#, "app.policy.parameters.requiresNetworkConnectivity", "kind \"processing\" only"),
        (#"{"sessionIdentifier": "s", "itemsPerRun": 2}"#, "app.policy.parameters.itemsPerRun", "hands off the whole queue"),
        (#"{"onPush": "run", "pushDeadlineSeconds": 31}"#, "app.policy.parameters.pushDeadlineSeconds", "from 1 to 29"),
        (#"{"onPush": "rnu"}"#, "app.policy.parameters.onPush", "did you mean \"run\"?"),
    ])
    func refusals(parameters: String, path: String, message: String) {
        let text = #"{"app": {"policy": {"name": "recipe", "parameters": "# + parameters + "}}}"
        do {
            _ = try ScenarioLoader.decode(text, source: "r.json")
            Issue.record("accepted")
        } catch {
            #expect(error.issues.contains { $0.path == path && $0.message.contains(message) }, "\(error)")
        }
    }
}
