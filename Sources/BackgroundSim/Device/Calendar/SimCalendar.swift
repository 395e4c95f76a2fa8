import SimKernel

/// Maps the simulation's true time onto the user's local calendar: which day it is, what time of
/// day, which weekday.
///
/// The simulation starts at ``startDate`` ``startTime`` local time. The user's routine (sleep,
/// charging, commuting) follows this local calendar. The device's *displayed* clock, which can
/// jump or change time zone, is separate: see ``DeviceClock``.
public struct SimCalendar: Sendable, Hashable {
    /// The local date on which the simulation starts.
    public var startDate: CivilDate
    /// The local time at which the simulation starts.
    public var startTime: TimeOfDay

    public init(startDate: CivilDate, startTime: TimeOfDay) {
        self.startDate = startDate
        self.startTime = startTime
    }

    /// The instant at which local day `day` begins (midnight); day 0 is ``startDate``.
    ///
    /// Before the start time on day 0, this is before ``SimInstant/start``.
    public func midnight(ofDay day: Int) -> SimInstant {
        SimInstant.start + .days(day) - startTime.sinceMidnight
    }

    /// The local day index of `instant` (0 = ``startDate``).
    public func day(of instant: SimInstant) -> Int {
        let sinceFirstMidnight = instant.nanosecondsSinceStart + startTime.sinceMidnight.nanoseconds
        let dayLength = SimDuration.days(1).nanoseconds
        return Int(sinceFirstMidnight >= 0 ? sinceFirstMidnight / dayLength : (sinceFirstMidnight - dayLength + 1) / dayLength)
    }

    /// The time since local midnight at `instant`.
    public func timeOfDay(at instant: SimInstant) -> SimDuration {
        midnight(ofDay: day(of: instant)).duration(to: instant)
    }

    /// The local date of day `day`.
    public func date(ofDay day: Int) -> CivilDate { startDate.adding(days: day) }

    /// The weekday of day `day`.
    public func weekday(ofDay day: Int) -> Weekday { date(ofDay: day).weekday }
}
