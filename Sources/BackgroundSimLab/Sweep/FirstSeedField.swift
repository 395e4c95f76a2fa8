import BackgroundSim

/// The `firstSeed` of a sweep or tuning file: any seed the command line takes (`--seed`,
/// `--first-seed`: 0 to 2⁶⁴ − 1), written as a whole number up to 2⁵³ (the largest a JSON number
/// holds exactly) or, for any seed, as a string of decimal digits (`"18446744073709551615"`).
enum FirstSeedField {
    /// The largest seed a JSON number gives exactly.
    static let largestExactNumber = 9_007_199_254_740_992.0

    /// The first seed `value` gives (1 if absent), such that `count` consecutive seeds from it
    /// do not pass 2⁶⁴ − 1.
    ///
    /// - Throws: ``ScenarioError`` naming `firstSeed` in `source`.
    static func read(_ value: JSONValue?, count: Int, source: String) throws(ScenarioError) -> UInt64 {
        let last = UInt64.max - UInt64(Swift.max(count, 1) - 1)
        func fail() -> ScenarioError {
            ScenarioError(source: source, issues: [ScenarioIssue(path: "firstSeed", message:
                "expected a whole number from 0 to 2^53, or a string of digits up to \(last) (\(count) seeds from it stay within 2^64 - 1)")])
        }
        switch value {
        case nil: return 1
        case .number(let number)?:
            guard number == number.rounded(), number >= 0, number <= largestExactNumber, UInt64(number) <= last else { throw fail() }
            return UInt64(number)
        case .string(let text)?:
            guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let seed = UInt64(text), seed <= last else { throw fail() }
            return seed
        default:
            throw fail()
        }
    }
}
