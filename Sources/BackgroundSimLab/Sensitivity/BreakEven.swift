import BackgroundSim
import SimKernel

/// Where inside one number's plausible range a recommendation changes: its break-even points.
///
/// Quarters of the seeds ordered by a drawn number (``Sensitivity``) average over every other
/// number drawn, so a recommendation can hold in each quarter and still change at values inside
/// the range. So the comparison is run again with the number set: at the scenario's own value,
/// then at the range's ends and middle (``gridValues``; the middle on the logarithm where the
/// range is drawn so), outward from the scenario's value in each direction until the
/// recommendation is another arm's, and then by bisection (``bisections`` steps) between the
/// last value at which it held and the first at which it did not. A recommendation that changes
/// and changes back between two of those values is not seen: the search takes it to change at
/// most once on each side [Inf], and costs about 3–5 comparisons per number and mode. Each search is made twice: with every other number at the
/// scenario's value, and with the others drawn per seed as in the comparison
/// (``Others``). A break-even point is reported as "holds unless X > v (plausible up to w)",
/// with the arm it changes to and whether that arm is then recommended with confidence.
public struct BreakEven: Sendable {
    /// What the other uncertain numbers are while one is set.
    public enum Others: String, Sendable, CaseIterable {
        /// At the scenario's values (the defaults, unless the scenario sets them).
        case atDefaults = "the others at their defaults"
        /// Drawn per seed from their plausible ranges, as in the comparison.
        case drawn = "the others drawn"
    }

    /// One comparison with the number set to `value`.
    public struct Probe: Sendable, Equatable {
        public var value: Double
        /// The recommended arm there, if any meets the bounds.
        public var choice: Int?
        public var confident: Bool
        /// How much the arm recommended on all seeds beats the best other arm on the objective
        /// there, in the objective's unit: positive while it is better (the recommendation's
        /// margin).
        public var advantage: Double?
        /// Each arm's objective as a cost there (its mean, negated when maximised), `nil` where
        /// its mean misses a bound or it has no values: what ``RobustChoice`` weighs.
        public var costs: [Double?] = []
    }

    /// The nearest value to the scenario's at which the recommendation is no longer the one
    /// made on all seeds, on one side.
    public struct Point: Sendable, Equatable {
        /// The last value probed at which the recommendation held, and the first at which it
        /// did not: the break-even point lies between them.
        public var holdsAt: Double
        public var changesAt: Double
        /// The recommendation at `changesAt`.
        public var choice: Int?
        public var confident: Bool
    }

    public var path: String
    public var plausible: ClosedRange<Double>
    /// The unit of the objective, in which ``Probe/advantage`` is ("min").
    public var unit = ""
    /// The scenario's own value of the number.
    public var scenarioValue: Double
    public var others: Others
    /// Every comparison made, by value.
    public var probes: [Probe]
    /// Where it changes above and below the scenario's value, if it does within the range.
    public var above: Point?
    public var below: Point?

    /// Values spread over the range before bisection: its ends and middle.
    public static let gridValues = 3
    /// Bisection steps between a value that holds and one that does not: 2, which puts the
    /// point within a quarter of the gap between the values probed before (for the refresh
    /// base budget, 0.5–3 a day, within about 0.3 a day).
    public static let bisections = 2

    /// The comparisons a comparison's search runs, for its cost note: about four and a half per
    /// number and mode (the scenario's value, the range's ends and middle, bisection where it
    /// changes), as the built-in default's search ran 27 [O].
    public static let expectedComparisons = Sensitivity.testedNumbers * Others.allCases.count * 9 / 2

    /// Whether the recommendation changes somewhere in the plausible range.
    public var changes: Bool { above != nil || below != nil }
}

extension BreakEven {
    /// Searches `parameter`'s plausible range for the values at which the recommendation on all
    /// seeds, `base`, changes.
    ///
    /// - Parameters:
    ///   - parameter: The number, with its plausible range.
    ///   - scenarioValue: Its value in the scenarios (they agree on it: a number they differ in
    ///     is theirs, not the model's).
    ///   - base: The arm recommended on all seeds.
    ///   - decide: The recommendation, and the base arm's advantage, with the number set to a
    ///     value; it runs a comparison.
    package static func search(_ parameter: ModelUncertainty.Parameter, scenarioValue: Double, others: Others, base: Int?,
                               decide: (Double) throws -> Probe) rethrows -> BreakEven {
        var probes: [Double: Probe] = [:]
        func probe(_ value: Double) throws -> Probe {
            if let known = probes[value] { return known }
            let result = try decide(value)
            probes[value] = result
            return result
        }
        let low = parameter.plausible.lowerBound, high = parameter.plausible.upperBound
        let start = Swift.min(high, Swift.max(low, scenarioValue))
        let grid = (0..<gridValues).map { spread(parameter, at: Double($0) / Double(gridValues - 1)) }
        func side(_ outward: [Double]) throws -> Point? {
            var holding = start
            let atStart = try probe(start)
            if atStart.choice != base {
                return Point(holdsAt: start, changesAt: start, choice: atStart.choice, confident: atStart.confident)
            }
            for value in outward {
                let changed = try probe(value)
                guard changed.choice != base else {
                    holding = value
                    continue
                }
                var changing = value, changedProbe = changed
                for _ in 0..<bisections {
                    let middle = midpoint(parameter, holding, changing)
                    guard middle != holding, middle != changing else { break }
                    let result = try probe(middle)
                    if result.choice == base {
                        holding = middle
                    } else {
                        changing = middle
                        changedProbe = result
                    }
                }
                return Point(holdsAt: holding, changesAt: changing, choice: changedProbe.choice, confident: changedProbe.confident)
            }
            return nil
        }
        let above = try side(grid.filter { $0 > start }.sorted())
        // When it already differs at the scenario's value, that is said once, as `above`.
        let differsAtStart = above.map { $0.changesAt == start } ?? false
        let below = differsAtStart ? nil : try side(grid.filter { $0 < start }.sorted(by: >))
        return BreakEven(path: parameter.path, plausible: parameter.plausible, scenarioValue: scenarioValue, others: others,
                         probes: probes.values.sorted { $0.value < $1.value }, above: above, below: below)
    }

    /// The value at `u` in [0, 1] of the parameter's range: on the logarithm where it is drawn
    /// so, a whole number where it is one.
    static func spread(_ parameter: ModelUncertainty.Parameter, at u: Double) -> Double {
        let low = parameter.plausible.lowerBound, high = parameter.plausible.upperBound
        let value = parameter.isLogarithmic ? low * PortableMath.exp(u * PortableMath.log(high / low)) : low + u * (high - low)
        return parameter.isWholeNumber ? value.rounded() : Swift.min(high, Swift.max(low, value))
    }

    /// Halfway between two values, as the range is drawn: the geometric mean on a logarithmic
    /// range, a whole number for a whole-number parameter.
    static func midpoint(_ parameter: ModelUncertainty.Parameter, _ a: Double, _ b: Double) -> Double {
        let middle = parameter.isLogarithmic && a > 0 && b > 0 ? (a * b).squareRoot() : (a + b) / 2
        return parameter.isWholeNumber ? middle.rounded(.down) : middle
    }

    /// "holds unless refreshPerAppSession > 3.4 (plausible up to 4; the others drawn): at 3.5
    /// designed, confidently" for `point`, this search's ``above`` or ``below``; `names` names
    /// the arms.
    public func text(_ point: Point, names: [String]) -> String {
        let short = Sensitivity.shortPath(path)
        let arm = (point.choice.map { names[$0] } ?? "no arm within the bounds") + (point.confident ? ", confidently" : ", not confidently")
        if point.changesAt == point.holdsAt {
            return "at the scenario's \(short) = \(Format.significant(point.changesAt)) with \(others.rawValue) the recommendation is already \(arm)"
        }
        let isAbove = point.changesAt > point.holdsAt
        return "holds unless \(short) \(isAbove ? ">" : "<") \(Format.significant(point.holdsAt)) (plausible "
            + (isAbove ? "up to \(Format.significant(plausible.upperBound))" : "down to \(Format.significant(plausible.lowerBound))")
            + "; \(others.rawValue)): at \(Format.significant(point.changesAt)) \(arm)"
    }

    /// ``text(_:names:)`` for each side where the recommendation changes, above first.
    public func description(names: [String]) -> [String] {
        [above, below].compactMap { $0 }.map { text($0, names: names) }
    }
}
