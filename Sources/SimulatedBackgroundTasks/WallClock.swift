import Foundation
import SimKernel

/// How dates the app's code makes from the real clock become simulated times, and back.
///
/// Code that calls `Date()` or `Date(timeIntervalSinceNow:)` reads the machine's clock, which
/// the simulation does not move. A date handed to the simulated system is therefore read as
/// a delay from the real now at that moment, rounded to the millisecond (the real time that
/// passes between making the date and handing it over is microseconds), and applied from the
/// simulated device's clock; a simulated time handed back is a date that far from the real now.
enum WallClock {
    /// The delay from now until `date`, to the millisecond (zero for a date in the past).
    static func delay(until date: Date) -> SimDuration {
        Swift.max(.zero, offset(of: date))
    }

    /// How far `date` is from now, either way, to the millisecond: a stored date's place on the
    /// simulated device's clock.
    static func offset(of date: Date) -> SimDuration {
        // The machine's clock, read on purpose: the app's date was made from it a few
        // microseconds ago. Rounded to the millisecond, that gap does not reach the simulation;
        // a thread held up for more than half of one would (docs/RUN-YOUR-OWN-CODE.md, "Dates").
        return .milliseconds(Int64(Swift.max(-1e15, Swift.min(1e15, (date.timeIntervalSinceNow * 1_000).rounded()))))
    }

    /// The date `duration` from now.
    static func date(in duration: SimDuration) -> Date {
        Date(timeIntervalSinceNow: Double(duration.nanoseconds) / 1e9)
    }
}
