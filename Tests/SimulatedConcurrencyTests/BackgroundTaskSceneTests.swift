import BackgroundSim
import SimKernel
import SimulatedBackgroundTasks
import Testing

@Suite("A SwiftUI scene's async background-task actions under simulated iOS")
struct BackgroundTaskSceneTests {
    /// One run of a SwiftUI app whose scene refreshes with `fetchSeconds` of fetching, and what
    /// its log and its refresher's journal hold.
    static func run(fetchSeconds: Int, seed: UInt64 = 1, days: Int = 14) throws
        -> (result: RunResult, log: [SystemLogEvent], journal: [String]) {
        let journal = SharedJournal()
        var policies = PolicyRegistry.builtIn
        try policies.register(.app(name: "scene-refresh", summary: "A SwiftUI app's refresh action.",
                                   taskIdentifiers: [SceneRefresher.identifier], isolation: .sharedProcess) {
            let refresher = SceneRefresher(fetchSeconds: fetchSeconds) { journal.lines.append($0) }
            refresher.scheduleAppRefresh()   // as the app's `App.init` would
            return BackgroundTaskScene()
                .backgroundTask(.appRefresh(SceneRefresher.identifier)) { await refresher.refresh() }
        })
        let scenario = try ScenarioLoader.decode(
            #"{"app": {"policy": "scene-refresh", "permittedIdentifiers": ["com.example.scene-refresh"]}}"#,
            source: "scene.json", policies: policies)
        var log: [SystemLogEvent] = []
        let result = try SimulationRunner.run(scenario: scenario, seed: seed, days: days, policies: policies,
                                              log: { log.append($0.event) })
        return (result, log, journal.lines)
    }

    @Test("an action that returns within the task's time completes the task successfully, and nothing is cancelled")
    func actionThatReturnsCompletesTheTask() throws {
        let (result, log, journal) = try Self.run(fetchSeconds: 2)
        let launches = log.filter { if case .taskLaunch = $0 { true } else { false } }.count
        #expect(launches >= 5, "\(result.os.metrics)")
        let completed = log.compactMap { if case .taskCompleted(_, _, let success) = $0 { success } else { nil } }
        #expect(completed.count == launches && completed.allSatisfy { $0 })
        #expect(!log.contains { $0.kind == .taskActionCancelled || $0.kind == .taskExpire || $0.kind == .kill })
        #expect(journal.filter { $0 == "fetched" }.count == launches, "\(journal)")
    }

    @Test("an action still running when its task expires is cancelled after the expiration: the log records taskActionCancelled, the action sees CancellationError, and the task completes unsuccessfully without a kill")
    func actionStillRunningAtExpirationIsCancelled() throws {
        let (_, log, journal) = try Self.run(fetchSeconds: 60)
        var expired: [UInt32] = []
        for (index, event) in log.enumerated() {
            guard case .taskExpire(let identifier, let serial, _) = event else { continue }
            expired.append(serial)
            #expect(log[index + 1] == .taskActionCancelled(identifier: identifier, serial: serial), "\(log[index + 1])")
            #expect(log[index + 2] == .taskCompleted(identifier: identifier, serial: serial, success: false), "\(log[index + 2])")
        }
        #expect(expired.count >= 5, "\(expired.count) expirations")
        #expect(log.filter { $0.kind == .taskActionCancelled }.count == expired.count)
        #expect(!log.contains { $0.kind == .kill })
        #expect(!journal.contains("fetched"), "\(journal)")
        #expect(journal.filter { $0 == "low on runtime" }.count == expired.count, "\(journal)")
        #expect(journal.filter { $0 == "cancelled: true" }.count == expired.count, "\(journal)")
    }

    @Test("the scene's identifier registered again by the app delegate crashes the app (duplicateRegistration), as a second registration does on iOS")
    func sceneAndDelegateRegisteringOneIdentifierCrash() throws {
        var policies = PolicyRegistry.builtIn
        try policies.register(.appDelegate(name: "both", summary: "Registers one identifier twice.", taskIdentifiers: [RefreshService.identifier],
                                           scene: { BackgroundTaskScene().backgroundTask(.appRefresh(RefreshService.identifier)) {} }) {
            RefreshAppDelegate { _ in }
        })
        let scenario = try ScenarioLoader.decode(#"{"app": {"policy": "both", "permittedIdentifiers": ["com.example.refresh"]}}"#,
                                                 source: "both.json", policies: policies)
        let result = try SimulationRunner.run(scenario: scenario, seed: 1, days: 2, policies: policies)
        #expect(result.os.metrics.crashes(.duplicateRegistration) >= 1)
    }
}
