import SimKernel
import Testing

@Suite("Simulated time")
struct SimTimeTests {
    @Test("named constructors count nanoseconds")
    func namedConstructors() {
        #expect(SimDuration.nanoseconds(7).nanoseconds == 7)
        #expect(SimDuration.microseconds(3).nanoseconds == 3_000)
        #expect(SimDuration.milliseconds(3).nanoseconds == 3_000_000)
        #expect(SimDuration.seconds(2).nanoseconds == 2_000_000_000)
        #expect(SimDuration.minutes(2) == .seconds(120))
        #expect(SimDuration.hours(2) == .minutes(120))
        #expect(SimDuration.days(2) == .hours(48))
        #expect(SimDuration.seconds(1.5) == .milliseconds(1_500))
        #expect(SimDuration.minutes(0.5) == .seconds(30))
        #expect(SimDuration.hours(0.25) == .minutes(15))
    }

    @Test("seconds from Double round to the nearest nanosecond")
    func roundingFromDouble() {
        #expect(SimDuration.seconds(1e-9 * 0.4).nanoseconds == 0)
        #expect(SimDuration.seconds(1e-9 * 0.6).nanoseconds == 1)
        #expect(SimDuration.seconds(-2.5e-9).nanoseconds == -3)
        #expect(SimDuration.seconds(1e30) == .max)
        #expect(SimDuration.seconds(-Double.infinity) == .min)
    }

    @Test("arithmetic saturates instead of trapping")
    func saturation() {
        #expect(SimDuration.max + .seconds(1) == .max)
        #expect(SimDuration.min - .seconds(1) == .min)
        #expect(SimDuration.days(Int64.max) == .max)
        #expect(SimDuration.days(Int64.min) == .min)
        #expect(SimDuration.seconds(UInt64.max) == .max)
        #expect(SimDuration.max * 2 == .max)
        #expect(SimDuration.seconds(-1) * Int64.max == .min)
        #expect(SimDuration.min / -1 == .max)
        #expect(SimInstant.distantFuture + .days(1) == .distantFuture)
        #expect(SimInstant.start.duration(to: .distantFuture) == .max)
        #expect(-SimDuration.min == .max)
    }

    @Test("instants and durations combine as expected")
    func instantArithmetic() {
        let t = SimInstant.start + .hours(7)
        #expect(t.nanosecondsSinceStart == 7 * 3_600 * 1_000_000_000)
        #expect(t - .hours(2) == .start + .hours(5))
        #expect((SimInstant.start + .days(1)) - t == .hours(17))
        #expect(t.duration(to: .start) == .hours(-7))
        #expect(SimDuration.hours(1) / .minutes(15) == 4)
        #expect(SimDuration.hours(1) / 4 == .minutes(15))
        #expect(SimDuration.milliseconds(1_500).seconds == 1.5)
    }

    @Test("descriptions read as days and clock time", arguments: [
        (SimDuration.days(3) + .hours(4) + .minutes(5) + .seconds(6) + .milliseconds(7), "3d 04:05:06.007"),
        (SimDuration.zero, "0d 00:00:00.000"),
        (SimDuration.nanoseconds(250), "0d 00:00:00.000000250"),
        (SimDuration.milliseconds(-1_500), "-0d 00:00:01.500"),
        (SimDuration.days(400), "400d 00:00:00.000"),
        (SimDuration.max, "forever"),
    ])
    func durationDescription(duration: SimDuration, expected: String) {
        #expect(duration.description == expected)
    }

    @Test("instants describe their time since the start")
    func instantDescription() {
        #expect((SimInstant.start + .days(1) + .seconds(59)).description == "1d 00:00:59.000")
        #expect(SimInstant.distantFuture.description == "distant future")
    }
}
