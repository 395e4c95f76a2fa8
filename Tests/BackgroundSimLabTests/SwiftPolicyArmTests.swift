@testable import BackgroundSim
@testable import BackgroundSimLab
import SimKernel
import Testing

/// A policy written in Swift as an arm of every experiment that takes scenarios.
@Suite("Swift policies in experiments")
struct SwiftPolicyArmTests {
    /// Keeps one refresh request pending, 30 min after each submit.
    final class Refresher: BackgroundPolicy {
        let minutes: Int64
        init(minutes: Int64 = 30) { self.minutes = minutes }
        func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
            app.taskScheduler.register(forTaskWithIdentifier: "mine") { task in
                self.submit(app)
                task.setTaskCompleted(success: true)
            }
        }
        func didEnterBackground(_ app: AppContext) { submit(app) }
        func submit(_ app: AppContext) {
            var request = TaskRequest.appRefresh(identifier: "mine")
            request.earliestBeginDate = app.date + .minutes(minutes)
            try? app.taskScheduler.submit(request)
        }
    }

    static var mine: Scenario {
        var scenario = Presets.scenario(named: "device-only")!.running("mine") { Refresher() }
        scenario.app.permittedIdentifiers = ["mine"]
        return scenario
    }

    @Test("a comparison's arm runs the Swift policy: refresh launches where the preset has none")
    func comparison() throws {
        let comparison = try Comparison.run([("device-only", Presets.scenario(named: "device-only")!), ("mine", Self.mine)],
                                            seeds: [1, 2, 3], days: 20, jobs: 2)
        let refresh = try #require(comparison.rows.first { $0.metric.key == "os.refreshLaunchesPerDay" })
        #expect(refresh.summaries[0].mean == 0)
        #expect(refresh.summaries[1].mean > 0.5)
    }

    @Test("a what-if cell of a Swift policy's scenario still runs that policy")
    func whatIfCell() throws {
        let cell = try WhatIfGrid.standard.scenario(Self.mine, cell: 40)
        #expect(cell.app.policy.name == "mine")
        let result = try SimulationRunner.run(scenario: cell, seed: 1, days: 20)
        #expect(result.os.refreshLaunchesPerDay > 0.5)
    }

    @Test("replications of the same Swift-policy scenario are reproducible")
    func replications() throws {
        let first = try Replications.run(Self.mine, seeds: [4, 5], days: 10, jobs: 2)
        let second = try Replications.run(Self.mine, seeds: [4, 5], days: 10, jobs: 1)
        #expect(first.map(\.digest) == second.map(\.digest))
        #expect(first.allSatisfy { $0.os.metrics.refreshLaunches > 0 })
    }

    @Test("a sweep composed in Swift makes a policy per cell: longer intervals, fewer refresh launches; its front by hand")
    func sweep() throws {
        let cells = [Int64(15), 240, 1_440].map { minutes -> (name: String, scenario: Scenario) in
            var scenario = Presets.scenario(named: "device-only")!.running("every \(minutes)") { Refresher(minutes: minutes) }
            scenario.app.permittedIdentifiers = ["mine"]
            return ("every \(minutes) min", scenario)
        }
        let sweep = try ScenarioSweep.run(cells, objectives: ["os.refreshLaunchesPerDay", "energy.appJoulesPerDay"],
                                          seeds: [1, 2], days: 20, jobs: 2)
        let launches = sweep.cells.map { $0.objectives[0].mean }
        #expect(launches[0] > launches[1] && launches[1] > launches[2], "\(launches)")
        // Under noise the front can only grow; per-seed values back the paired rankings.
        #expect(Set(sweep.paretoFront).isSubset(of: Set(sweep.possibleFront)))
        #expect(sweep.cells.allSatisfy { $0.perSeed.count == 2 && $0.perSeed[0].count == 2 })
        #expect(throws: ScenarioError.self) { try ScenarioSweep.run(cells, objectives: ["nope"], seeds: [1], days: 1, jobs: 1) }
        // By hand: (1, 5) and (2, 2) and (5, 1) trade off; (3, 3) is beaten by (2, 2); nil is on no front.
        #expect(ParetoFront.indices([[1, 5], [3, 3], [2, 2], nil, [5, 1], [2, 2]]) == [0, 2, 4, 5])
    }
}
