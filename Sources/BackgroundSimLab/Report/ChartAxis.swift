import Foundation

/// One axis of a chart: its title with the unit, its scale, and the ticks it shows.
package struct ChartAxis {
    package enum Scale { case linear, logarithmic }

    /// The title shown along the axis, unit included: "battery level (%)".
    package var title: String
    package var scale: Scale = .linear
    /// Fixed bounds; `nil` fits the data, widened to whole ticks.
    package var bounds: ClosedRange<Double>?
    /// Whether a fitted linear axis reaches down (or up) to zero.
    package var includesZero = false
    /// Fixed ticks as (value, label); `nil` places round-numbered ticks.
    package var ticks: [(Double, String)]?

    package init(title: String, scale: Scale = .linear, bounds: ClosedRange<Double>? = nil, includesZero: Bool = false,
                 ticks: [(Double, String)]? = nil) {
        self.title = title
        self.scale = scale
        self.bounds = bounds
        self.includesZero = includesZero
        self.ticks = ticks
    }

    /// The bounds and ticks this axis shows for data spanning `dataRange`.
    package func resolved(for dataRange: ClosedRange<Double>?) -> (bounds: ClosedRange<Double>, ticks: [(Double, String)]) {
        var low = bounds?.lowerBound ?? dataRange?.lowerBound ?? 0
        var high = bounds?.upperBound ?? dataRange?.upperBound ?? 1
        switch scale {
        case .linear:
            if bounds == nil && includesZero { low = Swift.min(low, 0); high = Swift.max(high, 0) }
            if high <= low { (low, high) = low == 0 ? (0, 1) : (Swift.min(0, low * 2), Swift.max(0, high * 2)) }
            let step = Self.roundStep(high - low)
            if bounds == nil {
                low = (low / step).rounded(.down) * step
                high = (high / step).rounded(.up) * step
            }
            let fitted = ticks ?? stride(from: (low / step).rounded(.up) * step, through: high + step * 1e-9, by: step)
                .map { value in Swift.abs(value) < step * 1e-9 ? (0, "0") : (value, Self.label(value)) }
            return (low...high, fitted)
        case .logarithmic:
            low = Swift.max(low, 1e-3)
            high = Swift.max(high, low * 10)
            let lowDecade = floor(log10(low)), highDecade = ceil(log10(high))
            if bounds == nil { (low, high) = (pow(10, lowDecade), pow(10, highDecade)) }
            let multipliers: [Double] = highDecade - lowDecade <= 3 ? [1, 2, 5] : [1]
            var fitted: [(Double, String)] = []
            for decade in Int(lowDecade)...Int(highDecade) {
                for multiplier in multipliers {
                    let value = multiplier * pow(10, Double(decade))
                    if value >= low * (1 - 1e-9) && value <= high * (1 + 1e-9) { fitted.append((value, Self.label(value))) }
                }
            }
            return (low...high, ticks ?? fitted)
        }
    }

    /// A tick's label: the round number with no trailing zeros ("0.25", "20", "1500").
    package static func label(_ value: Double) -> String {
        // Ticks are multiples of 1, 2 or 5 × 10ⁿ: six decimals cover every step reports use.
        let scaled = (value * 1_000_000).rounded()
        var text = String(Int64(scaled) / 1_000_000)
        var fraction = Int64(Swift.abs(scaled)) % 1_000_000
        if value < 0 && Int64(scaled) / 1_000_000 == 0 { text = "-" + text }
        guard fraction != 0 else { return text }
        var digits = 6
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        let padded = String(repeating: "0", count: digits - String(fraction).count) + String(fraction)
        return text + "." + padded
    }

    /// A step of 1, 2 or 5 × 10ⁿ that cuts `span` into about five parts.
    package static func roundStep(_ span: Double) -> Double {
        let raw = span / 5
        var magnitude = 1.0
        while magnitude * 10 <= raw { magnitude *= 10 }
        while magnitude > raw { magnitude /= 10 }
        let multiple = raw / magnitude
        return magnitude * (multiple <= 1 ? 1 : multiple <= 2 ? 2 : multiple <= 5 ? 5 : 10)
    }

    /// Where `value` falls along bounds, from 0 (low end) to 1 (high end); values outside
    /// (and, on a logarithmic axis, zero) are clamped to the ends.
    package func fraction(_ value: Double, in bounds: ClosedRange<Double>) -> Double {
        let position: Double
        switch scale {
        case .linear:
            position = (value - bounds.lowerBound) / (bounds.upperBound - bounds.lowerBound)
        case .logarithmic:
            let clamped = Swift.max(value, bounds.lowerBound)
            position = (log10(clamped) - log10(bounds.lowerBound)) / (log10(bounds.upperBound) - log10(bounds.lowerBound))
        }
        return Swift.min(1, Swift.max(0, position))
    }
}
