import BackgroundSim
import Foundation
import SimKernel

/// Dates on the simulated phone: its clock, as `Date`.
///
/// In the app's code, `Date()`, `Date.now`, `Date(timeIntervalSinceNow:)` and a date's
/// `timeIntervalSinceNow` read the simulated device's clock (``SimulatedDate``): the start of
/// the simulation is the scenario's start date and time, and local time is shown as GMT
/// (`TimeZone.current` and `Calendar.current` are GMT in the app's code, so that the local
/// midnight they compute is the simulated user's). The device clock jumps when the scenario's
/// clock does.
///
/// A simulated instant becomes a date on a grid of 2⁻²⁰ s (about a microsecond), whose values
/// a `Double` holds exactly for dates before the year 2242: the interval between two such dates
/// is then exact, so code that checks "at least an hour since the last run" an hour to the
/// nanosecond later finds exactly an hour, as the simulation's integer time does. A request's
/// `earliestBeginDate` is read as its interval from now (`Date(timeIntervalSinceNow: 900)` is
/// 900 s exactly); a stored `Date` is kept as the first instant on its grid step, so a date read
/// back and compared is the date stored.
enum WallClock {
    /// The farthest a date is taken from the simulation's start, or a delay from now: 200 years
    /// (of 365.25 days), in seconds.
    static let farthestSeconds: Double = 200 * 365.25 * 86_400

    /// Grid steps a second: 2²⁰.
    static let stepsPerSecond: Int64 = 1 << 20
    private static let nanosecondsPerSecond: Int64 = 1_000_000_000

    /// The date of the device-clock instant `instant` on a phone whose clock started
    /// `startSeconds` after 1970 (``startSeconds(of:)``).
    static func date(of instant: SimInstant, startSeconds: Int64) -> Date {
        var (seconds, nanoseconds) = instant.nanosecondsSinceStart.quotientAndRemainder(dividingBy: nanosecondsPerSecond)
        if nanoseconds < 0 {
            seconds -= 1
            nanoseconds += nanosecondsPerSecond
        }
        let steps = (nanoseconds * stepsPerSecond) / nanosecondsPerSecond
        return Date(timeIntervalSince1970: Double(startSeconds + seconds) + Double(steps) / Double(stepsPerSecond))
    }

    /// The device-clock instant of `date` on a phone whose clock started `startSeconds` after
    /// 1970: the first instant whose date is `date`'s grid step. Dates more than
    /// ``farthestSeconds`` from the start (`Date.distantPast` and `.distantFuture` among them) are
    /// clamped to it: a simulated instant spans ±292 years.
    static func instant(of date: Date, startSeconds: Int64) -> SimInstant {
        let sinceStart = date.timeIntervalSince1970 - Double(startSeconds)
        let clamped = Swift.max(-farthestSeconds, Swift.min(farthestSeconds, sinceStart.isNaN ? 0 : sinceStart))
        let steps = Int64((clamped * Double(stepsPerSecond)).rounded())
        var (seconds, step) = steps.quotientAndRemainder(dividingBy: stepsPerSecond)
        if step < 0 {
            seconds -= 1
            step += stepsPerSecond
        }
        let nanoseconds = (step * nanosecondsPerSecond + stepsPerSecond - 1) / stepsPerSecond
        return SimInstant(nanosecondsSinceStart: seconds * nanosecondsPerSecond + nanoseconds)
    }

    /// The delay from the device clock's reading `now` until `date` (zero for a date in the past,
    /// and at most ``farthestSeconds``): the interval between the two dates, so that
    /// `Date(timeIntervalSinceNow: 900)` is 900 s to the nanosecond (to the nearest nanosecond for
    /// intervals off the grid).
    static func delay(until date: Date, from now: SimInstant, startSeconds: Int64) -> SimDuration {
        let seconds = date.timeIntervalSince(self.date(of: now, startSeconds: startSeconds))
        guard seconds > 0 else { return .zero }
        let steps = Int64((Swift.min(farthestSeconds, seconds) * Double(stepsPerSecond)).rounded())
        let (whole, step) = steps.quotientAndRemainder(dividingBy: stepsPerSecond)
        return .nanoseconds(whole * nanosecondsPerSecond + (step * nanosecondsPerSecond + stepsPerSecond / 2) / stepsPerSecond)
    }

    /// The machine's clock: what `Date()` means outside the simulated app's code.
    static var realNow: Date {
        Date(timeIntervalSinceReferenceDate: Date.timeIntervalSinceReferenceDate)
    }

    /// The start of a simulation on `calendar` as seconds since 1970, the start's local time
    /// read as GMT.
    static func startSeconds(of calendar: SimCalendar) -> Int64 {
        Int64(calendar.startDate.daysSinceEpoch) * 86_400 + calendar.startTime.sinceMidnight.nanoseconds / nanosecondsPerSecond
    }
}
