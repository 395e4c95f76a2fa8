import BackgroundSim
import Foundation
import SimKernel
@testable import BackgroundSimCalibration
import Testing

@Suite("Tapes score as the replay does")
struct LaunchTapeTests {
    /// Budgets from a tenth of the default to five times it, fades from half a day to three
    /// weeks: far enough that the bucket runs dry on some and launches become unexplained.
    static let candidates: [(base: Double, perSession: Double, fade: Double)] = [
        (1, 2, 3), (0.1, 0.2, 0.5), (5, 8, 21), (0.3, 6, 1), (4, 0.05, 10),
    ]

    @Test("a tape's compact points read back as written: uses exactly, no use, counts of a byte and counts beyond one (kept aside); 35 bytes a point")
    func compactPointsRoundTrip() {
        let use = HeuristicLaunchModel.RefreshUse(elapsedDays: 1.0 / 96, sessionsPerDay: 2.718281828459045, shareAhead: 0.1 + 0.2, daysSinceUse: 3e-17)
        let written: [RefreshTape.Point] = [
            RefreshTape.Point(use: use, eligible: 1, matched: 0, logged: 0),
            RefreshTape.Point(use: nil, eligible: 0, matched: 0, logged: 2),
            RefreshTape.Point(use: use, eligible: 254, matched: 254, logged: 254),
            RefreshTape.Point(use: use, eligible: 300, matched: 255, logged: 70_000),
            RefreshTape.Point(use: nil, eligible: 2, matched: 1, logged: 1),
        ]
        var points = RefreshTape.Points()
        for point in written { points.append(point) }
        points.trim()
        #expect(points.count == written.count)
        for (read, point) in zip(points, written) {
            #expect(read.use == point.use && read.eligible == point.eligible && read.matched == point.matched && read.logged == point.logged,
                    "\(read) != \(point)")
        }
        #expect(points.bytes == 5 * 35 + 20)
    }

    @Test("every device's refresh score from its tape equals its replay's: the same counts, the log-likelihood to 1e-9")
    func refreshTapeMatchesReplay() {
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

    @Test("a log that began after install: its tape with each fraction of the earlier use scores as the replay with as much learnt, to 1e-9", TestBuild.optimizedOnly)
    func midHistoryTapeMatchesReplay() throws {
        let base = HeuristicLaunchParameters()
        let firstDay = try #require(SimulatedLogs.coverdrop.map(\.time.date.daysSinceEpoch).min())
        let histories = DeviceHistory.histories(SimulatedLogs.coverdrop.filter { $0.time.date.daysSinceEpoch >= firstDay + 3 }).prefix(8)
        var parts = 0
        for history in histories {
            let tape = LaunchReplay.refreshTape(history, parameters: base, phone: LaunchFitTests.zashiPhone)
            #expect(tape.prehistory != nil && tape.prehistory?.decay.count == tape.points.count)
            for candidate in Self.candidates.prefix(3) {
                var parameters = base
                parameters.refreshBasePerDay = candidate.base
                parameters.refreshPerAppSession = candidate.perSession
                parameters.refreshFadeHalfLifeDays = candidate.fade
                let components = tape.scores(parameters, earlierUses: RefreshTape.Prehistory.fractions)
                #expect(components.count == RefreshTape.Prehistory.fractions.count)
                for (fraction, taped) in zip(RefreshTape.Prehistory.fractions, components) {
                    let replayed = LaunchReplay.score(history, kind: .refresh, parameters: parameters, phone: LaunchFitTests.zashiPhone,
                                                      earlierUse: fraction)
                    #expect(taped.launches == replayed.launches && taped.unexplained == replayed.unexplained)
                    #expect(abs(taped.logLikelihood - replayed.logLikelihood) <= 1e-9 * Swift.max(1, abs(replayed.logLikelihood)),
                            "\(history.device) at \(fraction): \(taped.logLikelihood) vs \(replayed.logLikelihood)")
                    parts += 1
                }
            }
        }
        #expect(parts == 8 * 3 * RefreshTape.Prehistory.fractions.count)
    }

    /// Chances on the charger from 0.02 to 0.95, on battery from 0.001 to 0.3 (above the
    /// charger's in one), fades from a third of a day to three weeks.
    static let processingCandidates: [(charger: Double, battery: Double, fade: Double)] = [
        (0.5, 0.01, 1), (0.02, 0.001, 0.3), (0.95, 0.3, 21), (0.1, 0.2, 5),
    ]

    @Test("every device's processing score from its tape equals its replay's: the same counts, the log-likelihood and the evidence weights to 1e-9")
    func processingTapeMatchesReplay() {
        let base = HeuristicLaunchParameters()
        let phone = LaunchFitTests.zashiPhone
        func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * Swift.max(1, abs(b)) }
        var launches = 0
        for history in LaunchFitTests.zashi {
            let tape = LaunchReplay.processingTape(history, parameters: base, phone: phone)
            for candidate in Self.processingCandidates {
                var parameters = base
                parameters.processingChargingChancePerEvaluation = candidate.charger
                parameters.processingBatteryChancePerEvaluation = candidate.battery
                parameters.processingFadeHalfLifeDays = candidate.fade
                let replayed = LaunchReplay.score(history, kind: .processing, parameters: parameters, phone: phone)
                let taped = tape.score(parameters, phone: phone)
                #expect(taped.launches == replayed.launches)
                #expect(taped.unexplained == replayed.unexplained)
                #expect(taped.evaluations == replayed.evaluations)
                #expect(close(taped.logLikelihood, replayed.logLikelihood))
                #expect(close(taped.chargerWeight, replayed.chargerWeight) && close(taped.batteryWeight, replayed.batteryWeight))
                launches += replayed.launches
            }
        }
        #expect(launches > 0)
    }
}
