/// A date in the proleptic Gregorian calendar, written `"YYYY-MM-DD"` in scenarios.
///
/// Date arithmetic uses Howard Hinnant's integer algorithms (days from civil and back), so the
/// calendar needs no Foundation and gives the same answer everywhere.
public struct CivilDate: Sendable, Hashable, FormattedString {
    public var year: Int
    public var month: Int
    public var day: Int

    /// Creates a date; `nil` if it does not exist (`2026-02-30`).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...31).contains(day), (1...9999).contains(year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
        guard CivilDate(daysSinceEpoch: daysSinceEpoch) == self else { return nil }
    }

    /// The date `days` days after 1970-01-01 (negative before it).
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` days later.
    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// The day of the week.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        let index = ((daysSinceEpoch % 7) + 7 + 3) % 7  // 0 = Monday
        return Weekday.allCases[index]
    }

    /// Parses `"YYYY-MM-DD"`; `nil` if malformed or not a real date.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        // Digits only: Int("+026") would accept a sign.
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }


    static let formatDescription = "a date as \"YYYY-MM-DD\""
}

/// A day of the week.
public enum Weekday: String, Sendable, CaseIterable, Codable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// Saturday or Sunday.
    public var isWeekend: Bool { self == .saturday || self == .sunday }
}
