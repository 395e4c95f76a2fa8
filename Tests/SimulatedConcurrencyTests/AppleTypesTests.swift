import BackgroundSim
import SimKernel
import SimulatedBackgroundTasks
import Testing

@Suite("The simulated frameworks' types behave as Apple's")
struct AppleTypesTests {
    @Test("an app delegate descending from UIResponder, a reducer holding its tasks, a publisher of the lifecycle, a Logger and a path monitor refusing cellular run as app code")
    func modernAppRuns() throws {
        let run = try runAppCodeTimed("modern", taskIdentifiers: [AppDelegate.identifier], days: 7, isolation: .processPerLaunch) { AppDelegate() }
        let lines = run.log.compactMap { if case .appOutput(let line) = $0.event { line } else { nil } }
        let left = run.log.filter { if case .didEnterBackground = $0.event { true } else { false } }
        #expect(lines.filter { $0.hasPrefix("com.example.modern sync info: left; Wi-Fi only path ") }.count == left.count, "\(lines.prefix(5))")
        #expect(lines.contains { $0.hasSuffix("path down") } && lines.contains { $0.hasSuffix("path up") }, "cellular and Wi-Fi both seen")
        #expect(lines.contains("com.example.modern sync debug: scheduled com.example.modern.refresh"))
        let refreshes = lines.filter { $0.hasPrefix("com.example.modern sync default: refresh;") }
        #expect(refreshes.count == run.result.os.metrics.refreshLaunches && !refreshes.isEmpty)
        #expect(refreshes.allSatisfy { $0.hasSuffix("seen before: false") }, "each task equals itself only")
    }

    @Test("tasks and requests compare and hash by identity, as NSObjects do")
    func identity() {
        let first = BGAppRefreshTaskRequest(identifier: "a")
        let second = BGAppRefreshTaskRequest(identifier: "a")
        #expect(first == first && first != second)
        #expect(Set([first, second, first]).count == 2)
        let configuration = URLSessionConfiguration.background(withIdentifier: "b")
        configuration.requiresDNSSECValidation = true
        #expect(configuration == configuration)
    }

    @Test("a SwiftUI scene hears its phase: a launch by the user goes inactive then active, leaving inactive then background, each after the delegate; a refresh launch in the background connects no scene")
    func scenePhase() throws {
        var policies = PolicyRegistry.builtIn
        try policies.register(.app(name: "phases", summary: "A scene that schedules from its phase.",
                                   taskIdentifiers: ["com.example.phase.refresh"]) { PhaseScene().body })
        let scenario = try ScenarioLoader.decode(#"{"app": {"policy": "phases", "permittedIdentifiers": ["com.example.phase.refresh"]}}"#,
                                                 source: "phases.json", policies: policies)
        var log: [SystemLogEntry] = []
        _ = try SimulationRunner.run(scenario: scenario, seed: 1, days: 7, policies: policies, log: { log.append($0) })
        var phases: [String] = []
        var refreshes: [String] = []
        for entry in log {
            switch entry.event {
            case .launch(.user): phases.append("launch")
            case .launch: phases.append("background launch")
            case .willEnterForeground: phases.append("foreground")
            case .didEnterBackground: phases.append("background")
            case .appOutput(let line) where line.hasPrefix("phase "): phases.append(line)
            case .appOutput(let line) where line.hasPrefix("refreshing "): refreshes.append(line)
            default: break
            }
        }
        var expected: [String] = []
        for event in phases where !event.hasPrefix("phase ") {
            switch event {
            case "launch", "foreground": expected += [event, "phase inactive", "phase active"]
            case "background": expected += [event, "phase inactive", "phase background"]
            default: expected.append(event)
            }
        }
        #expect(phases == expected)
        #expect(!refreshes.isEmpty && refreshes.allSatisfy { $0 == "refreshing in phase background" }, "\(refreshes)")
    }
}
