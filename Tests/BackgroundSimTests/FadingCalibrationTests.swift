@testable import BackgroundSim
import SimKernel
import Testing

/// Fading: launches after the user stops opening the app, against the bands in docs/MODEL.md ("Calibration targets").
@Suite("Launch model calibration: fading", TestBuild.optimizedOnly)
struct FadingCalibrationTests {
    /// Launches per day in the day centred `k` days after the last use, averaged over `seeds`,
    /// for a probe on the default user who stops opening the app on day 30.
    static func launchesPerDay(after offsets: [Int], preset: String, seeds: ClosedRange<UInt64>) throws -> [Double] {
        var scenario = Presets.scenario(named: preset)!
        scenario.user.app.absences = [AppAbsence(startDay: 30, days: 1_000)]
        var totals = [Double](repeating: 0, count: offsets.count)
        for seed in seeds {
            final class Sink { var launches: [SimInstant] = []; var opens: [SimInstant] = [] }
            let sink = Sink()
            _ = try SimulationRunner.run(scenario: scenario, seed: seed, days: 50,
                                         tracer: { if $0.kind == DeviceEvent.appOpen.traceKind { sink.opens.append($0.time) } },
                                         log: { if $0.event.kind == .taskLaunch { sink.launches.append($0.time) } })
            let lastUse = try #require(sink.opens.last)
            for (index, k) in offsets.enumerated() {
                let from = lastUse + .hours(Double(k) * 24 - 12), to = lastUse + .hours(Double(k) * 24 + 12)
                totals[index] += Double(sink.launches.count { $0 >= from && $0 < to })
            }
        }
        return totals.map { $0 / Double(seeds.count) }
    }

    @Test("refresh fades after the last use: 1.8–3.5 a day at +1 day, 0.8–2 at +3, 0.3–1 at +7, at most 0.2 at +14, none at +22")
    func refreshFades() throws {
        let rates = try Self.launchesPerDay(after: [1, 3, 7, 14, 22], preset: "probe-refresh", seeds: 1...16)
        #expect((1.8...3.5).contains(rates[0]), "+1 day: \(rates[0])")
        #expect((0.8...2.0).contains(rates[1]), "+3 days: \(rates[1])")
        #expect((0.3...1.0).contains(rates[2]), "+7 days: \(rates[2])")
        #expect(rates[3] <= 0.2, "+14 days: \(rates[3])")
        #expect(rates[4] == 0, "+22 days, past refreshRecencyDays: \(rates[4])")
        #expect(rates == rates.sorted(by: >), "falling: \(rates)")
    }

    @Test("processing fades too, and stops after a week: 0.8–1.5 a day at +1 day, 0.5–1.2 at +3, 0.2–0.8 at +6, none at +8")
    func processingFades() throws {
        let rates = try Self.launchesPerDay(after: [1, 3, 6, 8], preset: "probe-processing", seeds: 1...16)
        #expect((0.8...1.5).contains(rates[0]), "+1 day: \(rates[0])")
        #expect((0.5...1.2).contains(rates[1]), "+3 days: \(rates[1])")
        #expect((0.2...0.8).contains(rates[2]), "+6 days: \(rates[2])")
        #expect(rates[3] == 0, "+8 days, past the week: \(rates[3])")
    }
}
