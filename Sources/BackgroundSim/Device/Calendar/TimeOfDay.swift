import SimKernel

/// A local clock time, written `"HH:MM"` in scenarios (`"23:30"`).
public struct TimeOfDay: Sendable, Hashable, Comparable, FormattedString {
    /// Minutes since midnight, 0 ..< 1440.
    public var minutesSinceMidnight: Int

    /// Creates a time from hours and minutes.
    ///
    /// - Precondition: `0 <= hour < 24`, `0 <= minute < 60`.
    public init(hour: Int, minute: Int = 0) {
        precondition((0..<24).contains(hour) && (0..<60).contains(minute), "TimeOfDay: \(hour):\(minute) is not a time")
        minutesSinceMidnight = hour * 60 + minute
    }

    /// Parses `"HH:MM"` (or `"H:MM"`); `nil` if it is not a valid time.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        // Digits only: Int("+7") would accept a sign.
        guard parts.count == 2, parts[1].count == 2, (1...2).contains(parts[0].count),
              parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        minutesSinceMidnight = hour * 60 + minute
    }

    /// The time as a duration since midnight.
    public var sinceMidnight: SimDuration { .minutes(minutesSinceMidnight) }

    /// Hours since midnight as a fraction (23:30 is 23.5).
    public var hours: Double { Double(minutesSinceMidnight) / 60 }

    public var description: String {
        let hour = minutesSinceMidnight / 60, minute = minutesSinceMidnight % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        lhs.minutesSinceMidnight < rhs.minutesSinceMidnight
    }

    static let formatDescription = "a time of day as \"HH:MM\" (00:00 to 23:59)"
}
