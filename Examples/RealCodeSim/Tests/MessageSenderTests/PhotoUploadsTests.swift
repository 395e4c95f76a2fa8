import BackgroundSimTesting
import PhotoUploads
import Testing

@Suite("Photo uploads in a background URL session, the app's own code")
struct PhotoUploadsTests {
    @Test("photos handed to the session as the user leaves go while the app is away: the system relaunches it for the session's events, and most complete")
    func photosGoWhileTheAppIsAway() throws {
        let result = try SimulationRunner.run(scenario: Presets.Preset.photoUploads.scenario, seed: 1, days: 14)
        #expect(result.os.metrics.sessionTransfersCreated >= 20)
        #expect(result.os.metrics.sessionRelaunches >= 3)
        #expect(result.work.metrics.completedBySession >= result.os.metrics.sessionTransfersCreated * 3 / 4)
        #expect(result.os.metrics.sessionCompletionHandlersNotCalled == 0)
    }

    @Test("the uploader keeps every invariant over 40 swarm seeds × 14 days")
    func theUploaderKeepsTheInvariants() throws {
        var checker = PolicyChecker(scenario: Presets.Preset.photoUploads.scenario, days: 14)
        checker.swarm = Swarm()
        try checker.expectNoViolations(seeds: Array(1...40))
    }
}
