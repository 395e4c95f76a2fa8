import BackgroundSimTesting
import Testing
import UploadPolicy

@Test func uploadsKeepTheirPromises() throws {
    let scenario = Presets.Preset.myUpload.scenario
    var checker = PolicyChecker(scenario: scenario, days: 7)
    checker.invariants.append(WorkStartsInTheForeground())   // the policy uploads while the user looks
    checker.swarm = Swarm()   // each seed: its own habits, network, launch model and faults
    try checker.expectNoViolations(seeds: Array(1...100))
}

@Test func theProcessingTaskRunsOnlyWithWorkLeft() throws {
    let result = try SimulationRunner.run(scenario: Presets.Preset.myUpload.scenario, seed: 1, days: 30)
    #expect(result.work.completed > 0)
    #expect(result.os.processingLaunchesPerDay < 2)
}
