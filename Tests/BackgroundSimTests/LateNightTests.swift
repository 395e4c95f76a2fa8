@testable import BackgroundSim
import SimKernel
import Testing

@Suite("Nights that start after midnight")
struct LateNightTests {
    /// Shares of hourly samples over 4 phones × 28 days: plugged in at 05:00 and at 15:00, the
    /// screen on at 05:00 and at 15:00.
    static func shares(_ scenario: Scenario) throws -> (pluggedAt5: Double, pluggedAt15: Double, screenAt5: Double, screenAt15: Double) {
        final class Counter { var counts = [Int](repeating: 0, count: 4); var samples = 0; var nextHour: Int64 = 0 }
        let counter = Counter()
        let calendar = scenario.calendar.calendar
        for seed in 1...4 {
            counter.nextHour = 0
            _ = try SimulationRunner.run(scenario: scenario, seed: UInt64(seed), days: 28, configure: { _ in }, observer: { _, now, device, _ in
                while counter.nextHour < now.nanosecondsSinceStart {
                    let tick = SimInstant(nanosecondsSinceStart: counter.nextHour)
                    let hour = Int(calendar.timeOfDay(at: tick) / .hours(1))
                    if hour == 5 {
                        counter.samples += 1
                        if device.isPluggedIn { counter.counts[0] += 1 }
                        if device.isScreenOn { counter.counts[2] += 1 }
                    } else if hour == 15 {
                        if device.isPluggedIn { counter.counts[1] += 1 }
                        if device.isScreenOn { counter.counts[3] += 1 }
                    }
                    counter.nextHour += SimDuration.hours(1).nanoseconds
                }
            })
        }
        let n = Double(counter.samples)
        return (Double(counter.counts[0]) / n, Double(counter.counts[1]) / n, Double(counter.counts[2]) / n, Double(counter.counts[3]) / n)
    }

    @Test("asleep 02:30–10:00 and charging 02:00–10:00: on the charger at 05:00 most nights and not at 15:00, the screen on at 15:00 more than at 05:00")
    func nightOwl() throws {
        var scenario = Scenario()
        scenario.user.sleepStart = TimeOfDay(hour: 2, minute: 30)
        scenario.user.wakeTime = TimeOfDay(hour: 10)
        scenario.power.overnightPlugIn = TimeOfDay(hour: 2)
        scenario.power.overnightUnplug = TimeOfDay(hour: 10)
        scenario.power.topUpsPerDay = 0
        let owl = try Self.shares(scenario)
        // Read as the morning of the same day, these nights ran 31.5 h and overlapped: the phone
        // was on the charger at 15:00 on 1 day in 8, and its screen on at 05:00 on 87 % of
        // days against 58 % at 15:00.
        #expect(owl.pluggedAt5 > 0.7, "\(owl)")
        #expect(owl.pluggedAt15 < 0.05, "\(owl)")
        #expect(owl.screenAt15 > 2 * owl.screenAt5, "\(owl)")
    }
}
