/// Collects the values outside their valid ranges, each with its field path and what was
/// expected: how scenarios and a policy's parameters are validated.
///
///     func validate(_ v: inout ParameterValidator) {
///         v.check(delayMinutes, 0...1_440, "delayMinutes")
///         v.check(maximumMinutes, from: delayMinutes, to: 1_440, "maximumMinutes")
///     }
///
/// A check never traps, whatever the values: NaN and infinities are reported like any other
/// value out of range, and so is a range whose bounds are themselves out of order.
public struct ParameterValidator: Sendable {
    /// The problems found so far, in the order they were found.
    public private(set) var issues: [ScenarioIssue] = []

    public init() {}

    /// Checks that `value` lies in `range`.
    public mutating func check(_ value: Double, _ range: ClosedRange<Double>, _ path: String) {
        check(value, from: range.lowerBound, to: range.upperBound, path)
    }

    /// Checks that `value` lies from `lower` to `upper`, bounds that may come from other values
    /// (and so be NaN, infinite or out of order; then the value is reported as out of range).
    public mutating func check(_ value: Double, from lower: Double, to upper: Double, _ path: String) {
        guard !(value >= lower && value <= upper) else { return }
        issues.append(ScenarioIssue(
            path: path, message: "expected a number from \(Self.format(lower)) to \(Self.format(upper)), got \(Self.format(value))"))
    }

    /// Checks that an integer `value` lies in `range`.
    public mutating func check(_ value: Int, _ range: ClosedRange<Int>, _ path: String) {
        guard !range.contains(value) else { return }
        issues.append(ScenarioIssue(path: path, message: "expected a whole number from \(range.lowerBound) to \(range.upperBound), got \(value)"))
    }

    /// Records a problem that no single range expresses, unless `condition` holds.
    public mutating func require(_ condition: Bool, _ path: String, _ message: String) {
        if !condition { issues.append(ScenarioIssue(path: path, message: message)) }
    }

    /// Adds `issues` found elsewhere, their paths prefixed with `prefix` and a dot.
    public mutating func append(_ issues: [ScenarioIssue], under prefix: String) {
        self.issues += issues.map { ScenarioIssue(path: $0.path.isEmpty ? prefix : "\(prefix).\($0.path)", message: $0.message) }
    }

    /// Checks a list of 24 non-negative hourly weights with a positive sum.
    mutating func checkHourlyWeights(_ weights: [Double], _ path: String) {
        require(weights.count == 24, path, "expected 24 weights, one per hour 00..23, got \(weights.count)")
        for (hour, weight) in weights.enumerated() { check(weight, 0...1_000, "\(path)[\(hour)]") }
        require(weights.contains { $0 > 0 }, path, "expected at least one weight above 0 (all zero would mean nothing ever happens)")
    }

    /// A number for a message: rounded to 9 decimals, so `1 - 0.9` reads `0.1`; NaN and
    /// infinities as words.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : value > 0 ? "infinity" : "-infinity" }
        let rounded = (value * 1e9).rounded() / 1e9
        return rounded.isFinite ? JSONWriter.format(rounded) : JSONWriter.format(value)
    }
}
