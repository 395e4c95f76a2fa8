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

    /// A log begun after install with `opensPerDay` over 28 days whose days' counts vary by
    /// `variance`, and nothing else.
    static func loggedUse(opensPerDay: Double, variance: Double, days: Double = 28) -> DeviceHistory {
        var history = DeviceHistory(ArraySlice<FieldLogRecord>())
        history.loggedUse = DeviceHistory.LoggedUse(opensPerDay: opensPerDay, hourlyShares: Array(repeating: 1.0 / 24, count: 24),
                                                    ownOpensPerDay: opensPerDay, dailyOpensVariance: variance, days: days)
        return history
    }

    @Test("the rate earlier use is measured in, known answers: 20 logs at 1.4 and 1.6 opens a day whose days vary by 1.5 (noise 1.5 ÷ 28 above the spread 0.0105) all take the mean 1.5; at 1 and 3 with days varying by 2.8, each keeps (20/19 − 0.1) ÷ (20/19) of its distance from 2; 9 logs keep their own; logs from install are left out")
    func earlierUseRatesShrinkByTheNoise() throws {
        let alike = (0..<20).map { Self.loggedUse(opensPerDay: $0.isMultiple(of: 2) ? 1.4 : 1.6, variance: 1.5) }
        let pooled = DeviceHistory.withEarlierUseRates(alike)
        #expect(pooled.allSatisfy { abs($0.loggedUse!.opensPerDay - 1.5) < 1e-12 }, "\(pooled.map { $0.loggedUse!.opensPerDay })")
        #expect(pooled.allSatisfy { $0.loggedUse!.ownOpensPerDay == 1.4 || $0.loggedUse!.ownOpensPerDay == 1.6 })

        let unlike = (0..<20).map { Self.loggedUse(opensPerDay: $0.isMultiple(of: 2) ? 1 : 3, variance: 2.8) } + [DeviceHistory(ArraySlice<FieldLogRecord>())]
        let kept = (20.0 / 19 - 2.8 / 28) / (20.0 / 19)
        let drawn = DeviceHistory.withEarlierUseRates(unlike)
        #expect(abs(drawn[0].loggedUse!.opensPerDay - (2 - kept)) < 1e-12 && abs(drawn[1].loggedUse!.opensPerDay - (2 + kept)) < 1e-12,
                "\(drawn[0].loggedUse!.opensPerDay), \(drawn[1].loggedUse!.opensPerDay)")
        #expect(drawn[20].loggedUse == nil)

        let few = DeviceHistory.withEarlierUseRates(Array(alike.prefix(DeviceHistory.minimumDevicesToPool - 1)))
        #expect(few.map { $0.loggedUse!.opensPerDay } == alike.prefix(DeviceHistory.minimumDevicesToPool - 1).map { $0.loggedUse!.opensPerDay })
    }

    @Test("a log's days' counts of opens: 3 opens on its first day, none on the second, 1 on the third give 4 ÷ 3 a day and a sample variance of 7 ÷ 3")
    func dailyOpensVariance() throws {
        let day = 86_400.0
        func record(_ seconds: Double, _ event: FieldLogRecord.Event) -> FieldLogRecord {
            FieldLogRecord(device: "d", time: LocalTimestamp(milliseconds: Int64((20_000 * day + seconds) * 1_000)), event: event)
        }
        let records = [record(3_600, .appForeground), record(3_700, .appBackground), record(7_200, .appForeground),
                       record(10_800, .appForeground), record(2 * day + 3_600, .appForeground), record(2 * day + 7_200, .appBackground)]
        let use = try #require(DeviceHistory(records[...]).loggedUse)
        #expect(use.days == 3 && abs(use.ownOpensPerDay - 4.0 / 3) < 1e-12)
        // Counts 3, 0, 1 about 4/3: (25/9 + 16/9 + 1/9) ÷ 2 = 7/3.
        #expect(abs(use.dailyOpensVariance - 7.0 / 3) < 1e-12, "\(use.dailyOpensVariance)")
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
