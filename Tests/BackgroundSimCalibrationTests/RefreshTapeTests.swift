import BackgroundSim
import SimKernel
@testable import BackgroundSimCalibration
import Testing

@Suite("The refresh tape scores as the replay does")
struct RefreshTapeTests {
    /// Budgets from a tenth of the default to five times it, fades from half a day to three
    /// weeks: far enough that the bucket runs dry on some and launches become unexplained.
    static let candidates: [(base: Double, perSession: Double, fade: Double)] = [
        (1, 2, 3), (0.1, 0.2, 0.5), (5, 8, 21), (0.3, 6, 1), (4, 0.05, 10),
    ]

    @Test("every device's score from its tape equals its replay's: the same counts, the log-likelihood to 1e-9")
    func tapeMatchesReplay() {
        let base = HeuristicLaunchParameters()
        let histories = LaunchFitTests.coverdrop
        var unexplainedSomewhere = false
        for history in histories {
            let tape = LaunchReplay.refreshTape(history, parameters: base, phone: LaunchFitTests.zashiPhone)
            for candidate in Self.candidates {
                var parameters = base
                parameters.refreshBasePerDay = candidate.base
                parameters.refreshPerAppSession = candidate.perSession
                parameters.refreshFadeHalfLifeDays = candidate.fade
                let replayed = LaunchReplay.score(history, kind: .refresh, parameters: parameters, phone: LaunchFitTests.zashiPhone)
                let taped = tape.score(parameters)
                #expect(taped.launches == replayed.launches)
                #expect(taped.unexplained == replayed.unexplained)
                #expect(taped.evaluations == replayed.evaluations)
                #expect(abs(taped.logLikelihood - replayed.logLikelihood) <= 1e-9 * Swift.max(1, abs(replayed.logLikelihood)))
                unexplainedSomewhere = unexplainedSomewhere || replayed.unexplained > 0
            }
        }
        // The candidates reach the bucket's wall, where the two could most easily part.
        #expect(unexplainedSomewhere)
    }
}
