/// A narrower plausible range for one of the iOS model's uncertain numbers — a calibration's
/// interval, say: `--model-uncertainty` draws the number from it instead of the range
/// docs/SCENARIOS.md gives (``ModelUncertainty/narrowed(by:)``).
///
///     "plausible": [{ "path": "system.heuristic.refreshBasePerDay", "low": 0.8, "high": 1.4 }]
///
/// `bgsim calibrate --fragment` writes one for each launch-model number it fitted with an
/// interval, so that a decision made under model uncertainty with that fragment draws what the
/// team's own field logs allow, not what we infer.
public struct PlausibleRange: Codable, Sendable, Equatable {
    /// The number's path, one of those with a plausible range (docs/SCENARIOS.md, "Every number").
    public var path: String
    /// The range's ends, in the number's unit: low ≤ high, both within its valid range.
    public var low: Double
    public var high: Double

    public init(path: String, low: Double, high: Double) {
        self.path = path
        self.low = low
        self.high = high
    }

    /// An element for the scenario schema's template.
    static let example = PlausibleRange(path: "system.heuristic.refreshBasePerDay", low: 0.8, high: 1.4)
}

extension Scenario {
    /// Problems with ``plausible``: a path that is not an uncertain number, a repeated path, or
    /// ends out of order or outside the number's valid range.
    func validatePlausible(_ v: inout ParameterValidator) {
        let rows = Scenario.uncertainNumberRows
        var seen: Set<String> = []
        for (index, range) in plausible.enumerated() {
            let at = "plausible[\(index)]"
            guard let row = rows.first(where: { $0.path == range.path }) else {
                v.require(false, "\(at).path", "expected one of the iOS model's uncertain numbers (docs/SCENARIOS.md, \"Every number\", "
                          + "a system number with a plausible range), got \"\(range.path)\"")
                continue
            }
            v.require(seen.insert(range.path).inserted, "\(at).path", "\(range.path) is given twice")
            v.require(range.low.isFinite && range.high.isFinite && range.low <= range.high, "\(at)",
                      "expected low ≤ high, got \(range.low) and \(range.high)")
            v.require(row.valid.contains(range.low) && row.valid.contains(range.high), "\(at)",
                      "expected both ends within \(range.path)'s valid range \(row.valid.lowerBound)–\(row.valid.upperBound)")
        }
    }
}
