import SimKernel

/// Numbers and durations as people read them, for reports and messages.
package enum Format {
    /// Three significant figures below 100 (at most 9 decimals), whole numbers above; no
    /// exponent for ordinary values: `0.00151`, `12.3`, `4821`. For reports and tables.
    package static func significant(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        let magnitude = abs(value)
        guard magnitude < 1e15 else { return "\(value)" }
        var decimals = 0
        var scale = 1.0
        while magnitude * scale < 100 && magnitude > 0 && decimals < 9 {
            decimals += 1
            scale *= 10
        }
        let scaled = UInt64((magnitude * scale).rounded())
        guard scaled > 0 else { return "0" }
        var divisor: UInt64 = 1
        for _ in 0..<decimals { divisor *= 10 }
        var text = String(scaled / divisor)
        guard decimals > 0 else { return (value < 0 ? "-" : "") + text }
        var fraction = String(scaled % divisor)
        fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        if !fraction.isEmpty { text += "." + fraction }
        return (value < 0 ? "-" : "") + text
    }

    /// ``significant(_:)`` with a plus sign on positive values: `+1.45`.
    package static func signed(_ value: Double) -> String {
        (value > 0 ? "+" : "") + significant(value)
    }

    /// A whole number as such, anything else to three decimals: `48`, `0.125`. For messages
    /// that quote a parameter.
    package static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String((value * 1_000).rounded() / 1_000)
    }

    /// Minutes to three decimals: `12.5 min`.
    package static func minutes(_ value: Double) -> String { number((value * 1_000).rounded() / 1_000) + " min" }

    /// A duration as people write it: "3 s", "4 min 10 s", "2 h 5 min", "1 d 3 h".
    package static func duration(_ duration: SimDuration) -> String {
        let seconds = duration.seconds
        if seconds < 60 { return number((seconds * 10).rounded() / 10) + " s" }
        let whole = Int64(seconds)
        if whole < 3_600 { return "\(whole / 60) min \(whole % 60) s" }
        if whole < 86_400 { return "\(whole / 3_600) h \(whole % 3_600 / 60) min" }
        return "\(whole / 86_400) d \(whole % 86_400 / 3_600) h"
    }
}

extension String {
    /// The text as a table column `width` characters wide: padded with spaces, never cut, and
    /// followed by at least two spaces when it is too long for the column, so that columns never
    /// run together (`iPhone 16 Pro Max  0.0286`, not `iPhone 10.0286`).
    package func column(_ width: Int) -> String {
        count + 2 <= width ? self + String(repeating: " ", count: width - count) : self + "  "
    }
}
