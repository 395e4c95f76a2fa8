import BackgroundSimTesting
import MessageSender
import Testing

@Test func theSenderSendsInTheBackground() throws {
    let result = try SimulationRunner.run(scenario: Presets.Preset.realSender.scenario, seed: 1, days: 30)
    #expect(result.os.metrics.refreshLaunches > 10)
    #expect(result.os.metrics.submitErrors == 0)
    // Tasks that sent complete successfully; those inside the hour's limit, or with nothing to
    // send, unsuccessfully.
    #expect(result.os.metrics.tasksCompletedSuccessfully > 5)
    #expect(result.os.metrics.tasksCompletedUnsuccessfully > 0)
}

@Test func theSenderKeepsTheInvariants() throws {
    var checker = PolicyChecker(scenario: Presets.Preset.realSender.scenario, days: 7)
    checker.swarm = Swarm()
    try checker.expectNoViolations(seeds: Array(1...50))
}

@Test func sameSeedSameDigest() throws {
    let scenario = Presets.Preset.realSender.scenario
    let first = try SimulationRunner.run(scenario: scenario, seed: 7, days: 30).digest
    for _ in 0..<10 { #expect(try SimulationRunner.run(scenario: scenario, seed: 7, days: 30).digest == first) }
}
