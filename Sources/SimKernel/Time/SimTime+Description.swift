/// Formats a signed nanosecond count as `[-]Dd HH:MM:SS.mmm`, with nanosecond digits appended
/// only when the count is not a whole number of milliseconds.
///
/// Used by both ``SimDuration`` and ``SimInstant`` so the two read alike in traces and messages:
/// `3d 04:05:06.007`, `0d 00:00:00.000000250`, `-0d 00:00:01.500`.
func formatDayClock(nanoseconds: Int64) -> String {
    let negative = nanoseconds < 0
    let magnitude = nanoseconds.magnitude
    let second: UInt64 = 1_000_000_000
    let totalSeconds = magnitude / second
    let fraction = magnitude % second
    let days = totalSeconds / 86_400
    let hours = totalSeconds / 3_600 % 24
    let minutes = totalSeconds / 60 % 60
    let seconds = totalSeconds % 60

    var text = negative ? "-" : ""
    text += "\(days)d \(twoDigits(hours)):\(twoDigits(minutes)):\(twoDigits(seconds))."
    if fraction % 1_000_000 == 0 {
        text += padded(fraction / 1_000_000, width: 3)
    } else {
        text += padded(fraction, width: 9)
    }
    return text
}

private func twoDigits(_ value: UInt64) -> String { padded(value, width: 2) }

private func padded(_ value: UInt64, width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

extension SimDuration: CustomStringConvertible {
    /// The duration as `[-]Dd HH:MM:SS.mmm`, for example `3d 04:05:06.007`; `max` reads `forever`.
    public var description: String {
        self == .max ? "forever" : formatDayClock(nanoseconds: nanoseconds)
    }
}

extension SimInstant: CustomStringConvertible {
    /// The time since the start as `Dd HH:MM:SS.mmm`, for example `3d 04:05:06.007`;
    /// ``distantFuture`` reads `distant future`.
    public var description: String {
        self == .distantFuture ? "distant future" : formatDayClock(nanoseconds: nanosecondsSinceStart)
    }
}
