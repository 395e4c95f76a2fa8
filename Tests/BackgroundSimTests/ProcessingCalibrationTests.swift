@testable import BackgroundSim
import SimKernel
import Testing

/// Processing tasks against their calibration bands (docs/MODEL.md, "Calibration targets").
@Suite("Launch model calibration: processing", TestBuild.optimizedOnly)
struct ProcessingCalibrationTests {
    struct Launches {
        var perDay: Double
        var nightShare: Double
        var daytimeChargingShare: Double
        var medianSpacingHours: Double
        var allotments: [Double]
    }

    /// The processing probe (power and network required) on the default user with `profile`.
    static func measure(_ profile: AppUsageProfile, seeds: ClosedRange<UInt64> = 1...3, days: Int = 120) throws -> Launches {
        var scenario = Presets.scenario(named: "probe-processing")!
        scenario.user.app.profile = profile
        let calendar = scenario.calendar.calendar
        var launches: [SimInstant] = [], allotments: [Double] = [], spacings: [Double] = []
        for seed in seeds {
            final class Sink { var launches: [(SimInstant, Double)] = [] }
            let sink = Sink()
            _ = try SimulationRunner.run(scenario: scenario, seed: seed, days: days, log: { entry in
                if case .taskLaunch(_, _, _, let allotment) = entry.event { sink.launches.append((entry.time, allotment.seconds)) }
            })
            launches += sink.launches.map(\.0)
            allotments += sink.launches.map(\.1)
            spacings += zip(sink.launches.dropFirst(), sink.launches).map { $0.0.0.duration(to: $0.1.0).seconds / -3_600 }
        }
        let hours = launches.map { Int(calendar.timeOfDay(at: $0) / .hours(1)) }
        let night = hours.count { $0 >= 21 || $0 < 6 }
        let daytime = hours.count { $0 >= 9 && $0 < 19 }   // every processing launch here is on the charger
        let sorted = spacings.map(abs).sorted()
        return Launches(perDay: Double(launches.count) / Double(seeds.count * days),
                        nightShare: Double(night) / Double(Swift.max(1, launches.count)),
                        daytimeChargingShare: Double(daytime) / Double(Swift.max(1, launches.count)),
                        medianSpacingHours: sorted.isEmpty ? 0 : sorted[sorted.count / 2], allotments: allotments)
    }

    @Test("processing a day by usage: 0.8–1.6 several times a day, 0.5–1.5 daily, 0.2–0.8 weekly; mostly at night; spaced 10–30 h")
    func launchesByUsage() throws {
        let several = try Self.measure(.severalTimesADay), daily = try Self.measure(.daily), weekly = try Self.measure(.weekly)
        // Apple: attempted "within the next two days" (at least one every two days) [A]; observed
        // runs spaced 10–20 h apart (at most about two a day) [O].
        #expect((0.8...1.6).contains(several.perDay), "several times a day: \(several.perDay)")
        #expect((0.5...1.5).contains(daily.perDay), "daily: \(daily.perDay)")
        #expect((0.2...0.8).contains(weekly.perDay), "weekly: \(weekly.perDay)")
        #expect(several.perDay > daily.perDay && daily.perDay > weekly.perDay)
        for (name, launches) in [("several", several), ("daily", daily), ("weekly", weekly)] {
            // "Mostly overnight on the charger" [O]: most at 21:00–06:00, under 30 % on daytime top-ups [Inf].
            #expect(launches.nightShare >= 0.6, "\(name): \(launches.nightShare) at night")
            #expect(launches.daytimeChargingShare <= 0.3, "\(name): \(launches.daytimeChargingShare) 09:00–19:00")
            #expect((10...30).contains(launches.medianSpacingHours), "\(name): median spacing \(launches.medianSpacingHours) h")
        }
    }

    @Test("about half the processing tasks are expired early, after 5 s to 10 min (median about a minute)")
    func earlyExpiry() throws {
        let allotments = try Self.measure(.daily).allotments
        let cap = SystemParameters().processingMaxRuntimeMinutes * 60
        let early = allotments.filter { $0 < cap - 1e-6 }.sorted()
        let share = Double(early.count) / Double(allotments.count)
        // 393 launches: a binomial standard error of 0.025 about 0.5; four of them.
        #expect(abs(share - SystemParameters().processingEarlyExpiryProbability) < 0.1, "\(share) expired early")
        #expect(early.allSatisfy { $0 >= SystemParameters().processingEarlyExpiryMinimumSeconds - 1e-6 })
        // Log-uniform on 5–600 s: median √3000 ≈ 55 s.
        #expect((35...85).contains(early[early.count / 2]), "median early allotment \(early[early.count / 2]) s")
        #expect(allotments.allSatisfy { $0 <= cap + 1e-6 })
    }
}
