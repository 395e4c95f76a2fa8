import BackgroundSim
import Foundation
import SimKernel
@testable import BackgroundSimCalibration
import Testing

@Suite("Logs that start after install")
struct MidHistoryTests {
    @Test("the mixture of earlier use, known answer: devices whose likelihoods favour the 3rd amount and the 10th, 30 and 70 of them, get weights of 0.3 and 0.7 there, and each device's chances favour its own")
    func mixtureRecoversTheShares() {
        let count = RefreshTape.Prehistory.fractions.count
        func device(favouring favoured: Int) -> [LaunchReplay.Score] {
            (0..<count).map { k in
                var score = LaunchReplay.Score()
                // Log-likelihoods far below zero, as real ones are: 40 units below at every other amount.
                score.logLikelihood = -5_000 - (k == favoured ? 0 : 40)
                return score
            }
        }
        let devices = Array(repeating: device(favouring: 2), count: 30) + Array(repeating: device(favouring: 9), count: 70)
        let mixture = EarlierUseMixture(fitting: devices)
        #expect(abs(mixture.weights[2] - 0.3) < 1e-6 && abs(mixture.weights[9] - 0.7) < 1e-6, "\(mixture.weights)")
        #expect(abs(mixture.weights.reduce(0, +) - 1) < 1e-12)
        let chances = mixture.posterior(devices[0])!
        #expect(chances[2] > 0.999)
        // The mixture's score is log Σ πₖ Lₖ: here log(0.3) − 5000, give or take e^−40.
        #expect(abs(mixture.score(devices[0]).logLikelihood - (log(0.3) - 5_000)) < 1e-9)
        // A device from install has one score, kept as it is.
        #expect(mixture.score([devices[0][0]]).logLikelihood == devices[0][0].logLikelihood && mixture.posterior([devices[0][0]]) == nil)
    }

    @Test("60 CoverDrop phones × 28 days whose logs begin 7 days after install (base 0.5 a day, 1.2 per session, fade 5 days): every true value inside its interval", TestBuild.optimizedOnly)
    func sevenDaysLateRecoversTheTruth() throws {
        var scenario = SimulatedLogs.clean("coverdrop-shipped")
        scenario.system.heuristic.refreshBasePerDay = 0.5
        scenario.system.heuristic.refreshPerAppSession = 1.2
        scenario.system.heuristic.refreshFadeHalfLifeDays = 5
        let records = SimulatedLogs.records(scenario, devices: 60, days: 35)
        let firstDay = try #require(records.map(\.time.date.daysSinceEpoch).min())
        let late = records.filter { $0.time.date.daysSinceEpoch >= firstDay + 7 }
        let calibration = try LaunchCalibration.run(late, sources: ["late"], base: SimulatedLogs.clean("coverdrop-shipped"), jobs: 2)
        #expect(calibration.devicesStartingMidHistory == 60)
        let kind = try #require(calibration.kinds.first { $0.kind == .refresh })
        for parameter in kind.parameters {
            let generating = LaunchFit.Coordinates.value(parameter.key, of: scenario.system.heuristic)
            let low = try #require(parameter.low, "\(parameter)"), high = try #require(parameter.high, "\(parameter)")
            #expect(low <= generating && generating <= high, "\(parameter.key): \(generating) not in \(low)–\(high) (fit \(parameter.value))")
        }
    }
}
