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

    /// Points of earlier use at the bins' midpoints, with log-likelihood `f` and no
    /// unexplained launch.
    static func midpoints(_ f: (Double) -> Double) -> [RefreshTape.EarlierUsePoint] {
        RefreshTape.Prehistory.fractions.map { RefreshTape.EarlierUsePoint(fraction: $0, logLikelihood: f($0), unexplained: 0) }
    }

    @Test("bin averages, known answers: a flat log-likelihood keeps its value; a linear one averages to log((e^f(b) − e^f(a)) ÷ (slope · width)) in every bin between the first midpoint and the last")
    func binAveragesOfSmoothLikelihoods() {
        let flat = RefreshTape.binAverages(Self.midpoints { _ in -1_234.5 })
        #expect(flat.count == RefreshTape.Prehistory.bins)
        #expect(flat.allSatisfy { abs($0 + 1_234.5) < 1e-9 }, "\(flat)")
        let slope = -37.0
        func f(_ u: Double) -> Double { -800 + slope * u }
        let linear = RefreshTape.binAverages(Self.midpoints(f))
        let width = RefreshTape.Prehistory.largestFraction / Double(RefreshTape.Prehistory.bins)
        // The first and last bins' outer halves lie beyond the midpoints: there the value is the
        // nearest midpoint's, so only the bins in between are linear throughout.
        for bin in 1..<(RefreshTape.Prehistory.bins - 1) {
            let a = Double(bin) * width, b = a + width
            let exact = f(a) + log((exp(f(b) - f(a)) - 1) / (slope * width))
            #expect(abs(linear[bin] - exact) < 1e-9, "bin \(bin): \(linear[bin]) vs \(exact)")
        }
    }

    @Test("bin averages, known answer with a step: a log-likelihood of −100 with one unexplained launch below u = 0.3 and 0 with none from 0.35 steps halfway, at 0.325; the bin [0.25, 0.375] averages to log(0.4 + 0.6 e^−100)")
    func binAveragesOfAStep() throws {
        var points = [(0.0625, -100.0, 1), (0.1875, -100, 1), (0.3, -100, 1), (0.35, 0, 0), (0.4375, 0, 0)]
            .map { RefreshTape.EarlierUsePoint(fraction: $0.0, logLikelihood: $0.1, unexplained: $0.2) }
        points += RefreshTape.Prehistory.fractions.dropFirst(4).map { RefreshTape.EarlierUsePoint(fraction: $0, logLikelihood: 0, unexplained: 0) }
        let averages = RefreshTape.binAverages(points)
        #expect(abs(averages[2] - log(0.4 + 0.6 * exp(-100))) < 1e-12, "\(averages[2])")
        #expect(abs(averages[1] + 100) < 1e-9 && abs(averages[3]) < 1e-12)
        // Scored at the midpoints alone, the step would fall at 0.3125 and the bin average be log(0.5).
        #expect(abs(averages[2] - log(0.5)) > 0.2)
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

extension RefreshTape.EarlierUsePoint {
    /// A point with only the log-likelihood and the unexplained launches set.
    init(fraction: Double, logLikelihood: Double, unexplained: Int) {
        var score = LaunchReplay.Score()
        score.logLikelihood = logLikelihood
        score.unexplained = unexplained
        self.init(fraction: fraction, score: score)
    }
}
