import Foundation

// In a file that imports this module (and not Foundation), these shadow Foundation's: the
// app's code reads the simulated phone's clock (``WallClock``). Outside the simulated app's code
// — a test's own setup, say — they read the machine's clock, as Foundation's do.

extension Date {
    /// The simulated device clock's now, in the app's code.
    public init() {
        self = SimulatedDate.now
    }

    /// The date `timeIntervalSinceNow` seconds from the simulated device clock's now.
    public init(timeIntervalSinceNow: TimeInterval) {
        self = SimulatedDate.now.addingTimeInterval(timeIntervalSinceNow)
    }

    /// The simulated device clock's now, in the app's code.
    public static var now: Date { SimulatedDate.now }

    /// Seconds from the simulated device clock's now to this date (negative for a past date).
    public var timeIntervalSinceNow: TimeInterval { timeIntervalSince(SimulatedDate.now) }
}

extension TimeZone {
    /// GMT in the app's code: the simulated phone's local time is shown as GMT.
    public static var current: TimeZone { SimulatedDate.isSimulated ? SimulatedDate.gmt : NSTimeZone.local }
    /// As ``current``.
    public static var autoupdatingCurrent: TimeZone { current }
}

extension Calendar {
    /// A Gregorian calendar in GMT in the app's code, so that its days are the simulated
    /// user's local days.
    public static var current: Calendar {
        guard SimulatedDate.isSimulated else { return NSCalendar.current }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = SimulatedDate.gmt
        return calendar
    }
    /// As ``current``.
    public static var autoupdatingCurrent: Calendar { current }
}

/// The clock behind the `Date` shadows.
enum SimulatedDate {
    static let gmt = TimeZone(secondsFromGMT: 0)!

    /// Whether the calling code is the simulated app's.
    static var isSimulated: Bool { SimulatedProcess.current != nil }

    /// The simulated device clock's now in the app's code; the machine's elsewhere.
    static var now: Date {
        guard let process = SimulatedProcess.current else { return WallClock.realNow }
        return process.now
    }
}
