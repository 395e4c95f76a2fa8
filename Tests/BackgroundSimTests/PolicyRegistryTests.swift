import BackgroundSim
import SimKernel
import Testing

/// A user's policy with parameters, as `docs/WRITING-A-POLICY.md` shows it.
private struct SyncParameters: PolicyParameters {
    /// Earliest begin of the next sync, in hours. Default 1; valid 0–168.
    var delayHours: Double = 1
    func validate(_ v: inout ParameterValidator) { v.check(delayHours, 0...168, "delayHours") }
}

extension SyncParameters {
    var promises: [PolicyPromise] {
        [.earliestBeginWithin(identifier: "com.example.sync", minutes: delayHours * 60...delayHours * 60 + 1)]
    }
}

private final class SyncPolicy: BackgroundPolicy {
    let parameters: SyncParameters
    init(parameters: SyncParameters) { self.parameters = parameters }

    func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: "com.example.sync") { task in task.setTaskCompleted(success: true) }
    }
    func didEnterBackground(_ app: AppContext) {
        var request = TaskRequest.processing(identifier: "com.example.sync")
        request.earliestBeginDate = app.date + .hours(parameters.delayHours)
        try? app.taskScheduler.submit(request)
    }
}

@Suite("Policies own their parameters")
struct PolicyRegistryTests {
    static var policies: PolicyRegistry {
        var policies = PolicyRegistry.builtIn
        try! policies.register(PolicyDefinition(name: "my-sync", summary: "Syncs on the charger.",
                                                parameters: SyncParameters.self) { SyncPolicy(parameters: $0) })
        return policies
    }

    static func file(_ parameters: String) -> String {
        #"{"app": {"policy": {"name": "my-sync", "parameters": \#(parameters)}, "permittedIdentifiers": ["com.example.sync"]}}"#
    }

    @Test("the guide's parameters declare their promise: a request within delayHours, to the minute")
    func parametersDeclarePromises() {
        var parameters = SyncParameters()
        parameters.delayHours = 2
        #expect(parameters.promises == [.earliestBeginWithin(identifier: "com.example.sync", minutes: 120...121)])
    }

    @Test("a registered policy is used by name, with its parameters decoded, filled with defaults and passed to it")
    func registeredPolicyRuns() throws {
        let scenario = try ScenarioLoader.decode(Self.file(#"{"delayHours": 6}"#), source: "my.json", policies: Self.policies)
        #expect(scenario.app.policy.parameters(as: SyncParameters.self)?.delayHours == 6)
        final class Sink { var delays: [SimDuration] = [] }
        let sink = Sink()
        _ = try SimulationRunner.run(scenario: scenario, seed: 1, days: 5, policies: Self.policies, log: { entry in
            if case .submit(_, _, let delay) = entry.event { sink.delays.append(delay) }
        })
        #expect(!sink.delays.isEmpty)
        #expect(sink.delays.allSatisfy { $0 == .hours(6) })
        let defaults = try ScenarioLoader.decode(Self.file("{}"), source: "my.json", policies: Self.policies)
        #expect(defaults.app.policy.parameters(as: SyncParameters.self) == SyncParameters())
    }

    @Test("a registered policy's parameters are checked like every other field: unknown keys, kinds and ranges")
    func parametersAreChecked() {
        func issues(_ parameters: String) -> [String] {
            do {
                _ = try ScenarioLoader.decode(Self.file(parameters), source: "my.json", policies: Self.policies)
                return []
            } catch {
                return error.issues.map(\.description)
            }
        }
        #expect(issues(#"{"delayHour": 6}"#) == [#"app.policy.parameters.delayHour: unknown key; did you mean "delayHours"?"#])
        #expect(issues(#"{"delayHours": "soon"}"#) == ["app.policy.parameters.delayHours: expected a number, got a string"])
        #expect(issues(#"{"delayHours": 200}"#) == ["app.policy.parameters.delayHours: expected a number from 0 to 168, got 200"])
    }

    @Test("a name the registry does not know is refused with the known names; a second registration of a name too")
    func unknownAndDuplicateNames() {
        #expect {
            _ = try ScenarioLoader.decode(Self.file("{}"), source: "my.json")   // the built-in registry only
        } throws: { error in
            (error as? ScenarioError)?.issues.first?.description.hasPrefix(#"app.policy.name: expected one of "none", "probe-refresh""#) == true
        }
        var policies = Self.policies
        #expect(throws: ScenarioIssue.self) {
            try policies.register(PolicyDefinition(name: "my-sync", summary: "again") { SyncPolicy(parameters: SyncParameters()) })
        }
    }

    @Test("parameters of another policy's type are refused at the door, naming the field")
    func wrongParameterType() {
        var scenario = Presets.scenario(named: ReferenceApp.CoverDropName.designed)!
        scenario.app.policy.parameters = ZashiDesignedParameters()
        #expect {
            _ = try SimulationRunner.run(scenario: scenario, seed: 1, days: 1)
        } throws: { error in
            (error as? ScenarioError)?.issues.map(\.path) == ["app.policy.parameters"]
        }
    }

    @Test("a bgsim 0.2 file with a policies section is refused with where its values now go")
    func oldFormat() {
        let text = #"{"app": {"policy": "coverdrop-designed"}, "policies": {"coverDrop": {"meanDelayMinutes": 10}}}"#
        #expect {
            _ = try ScenarioLoader.decode(text, source: "old.json")
        } throws: { error in
            guard let issues = (error as? ScenarioError)?.issues, issues.count == 1 else { return false }
            return issues[0].path == "policies.coverDrop" && issues[0].message.contains(#""app": {"policy": {"name": "coverdrop-designed", "parameters": {…}}}"#)
        }
        // A bare name still means the policy with its defaults; a former name is refused with its replacement.
        let bare = try? ScenarioLoader.decode(#"{"app": {"policy": "coverdrop-designed"}}"#, source: "bare.json")
        #expect(bare?.app.policy == PolicyConfiguration(name: ReferenceApp.CoverDropName.designed, parameters: CoverDropDesignedParameters()))
        #expect {
            _ = try ScenarioLoader.decode(#"{"app": {"policy": "coverdrop-send"}}"#, source: "former.json")
        } throws: { error in
            guard let issue = (error as? ScenarioError)?.issues.first else { return false }
            return issue.path == "app.policy.name" && issue.message.hasSuffix(#"; "coverdrop-send" is now called "coverdrop-designed""#)
        }
    }
}
