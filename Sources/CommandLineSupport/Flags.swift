import BackgroundSim

/// The flags of one subcommand, parsed by hand (the package has no dependencies).
///
/// Accepts `--name value` and `--name=value`; a flag given twice is a mistake, unless it is
/// one of the `repeatable` ones (`--with a.json --with b.json`), whose values are kept in order.
///
///     let flags = try Flags(arguments.dropFirst(), known: ["days", "seed"])
///     let days = try flags.integer("days", default: 365, in: 1...1_000_000)
public struct Flags {
    private var values: [(name: String, value: String)] = []
    /// Words that are not flags, in order (only when the command accepts them).
    public private(set) var positional: [String] = []

    /// Parses `arguments`, rejecting flags without a value and flags not in `known` or
    /// `repeatable`, and stray words unless `allowsPositional`. Flags in `switches` take no value
    /// (`--quiet`); flags in `repeatable` may be given more than once (``strings(_:)``).
    public init(_ arguments: ArraySlice<String>, known: [String], switches: [String] = [], repeatable: [String] = [],
                allowsPositional: Bool = false) throws(UsageError) {
        let known = known + repeatable
        var remaining = arguments[...]
        while let word = remaining.popFirst() {
            guard word.hasPrefix("--"), word.count > 2 else {
                if allowsPositional {
                    positional.append(word)
                    continue
                }
                throw UsageError("unexpected argument '\(word)'; flags look like --\(known.first ?? "name") VALUE")
            }
            let body = word.dropFirst(2)
            let name: String
            let value: String
            if switches.contains(String(body)) {
                guard !values.contains(where: { $0.name == String(body) }) else { throw UsageError("--\(body) is given twice") }
                values.append((String(body), "true"))
                continue
            }
            name = body.firstIndex(of: "=").map { String(body[..<$0]) } ?? String(body)
            guard known.contains(name) else {
                let expected = known + switches
                if expected.isEmpty { throw UsageError("unknown flag '--\(name)'; this command takes none") }
                // The nearest flag when the name is a slip (`--dyas`), else every flag.
                if let nearest = ScenarioLoader.closest(to: name, among: expected) {
                    throw UsageError("unknown flag '--\(name)'; did you mean '--\(nearest)'?")
                }
                throw UsageError("unknown flag '--\(name)'; expected one of \(expected.map { "--\($0)" }.joined(separator: ", "))")
            }
            if let equals = body.firstIndex(of: "=") {
                value = String(body[body.index(after: equals)...])
            } else {
                guard let next = remaining.popFirst() else { throw UsageError("flag '--\(name)' needs a value") }
                value = next
            }
            guard repeatable.contains(name) || !values.contains(where: { $0.name == name }) else { throw UsageError("--\(name) is given twice") }
            values.append((name, value))
        }
    }

    /// The arguments again, positional words first and then each flag as given, leaving out
    /// `omitted` flags: for showing how a result was made without what does not change it
    /// (`--jobs`, `--quiet`, output paths).
    public func arguments(omitting omitted: Set<String>) -> [String] {
        positional + values.filter { !omitted.contains($0.name) }.flatMap { $0.value == "true" ? ["--" + $0.name] : ["--" + $0.name, $0.value] }
    }

    /// Whether the switch `--name` was given.
    public func isSet(_ name: String) -> Bool { string(name) == "true" }

    /// Every value of `--name`, in the order given (a repeatable flag's).
    public func strings(_ name: String) -> [String] {
        values.filter { $0.name == name }.map(\.value)
    }

    /// The raw value of `--name`, if given.
    public func string(_ name: String) -> String? {
        values.last { $0.name == name }?.value
    }

    /// The value of `--name` as an integer in `range`, or `defaultValue` if absent.
    public func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = string(name) else { return defaultValue }
        guard let value = Int(text.replacingOccurrences(of: "_", with: "")), range.contains(value) else {
            throw UsageError("--\(name) expects a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// The value of `--name` as an unsigned 64-bit integer, or `defaultValue` if absent.
    public func unsigned(_ name: String, default defaultValue: UInt64) throws(UsageError) -> UInt64 {
        guard let text = string(name) else { return defaultValue }
        guard let value = UInt64(text) else {
            throw UsageError("--\(name) expects a whole number from 0 to \(UInt64.max), got '\(text)'")
        }
        return value
    }

    /// `count` consecutive seeds from the first seed `--name` gives (or `defaultFirst`); an error
    /// if they would run past 2⁶⁴ − 1 rather than wrap around to 0.
    public func consecutiveSeeds(from name: String, default defaultFirst: UInt64, count: Int) throws(UsageError) -> [UInt64] {
        let first = try firstOfConsecutiveSeeds(from: name, default: defaultFirst, count: count)
        return (0..<UInt64(count)).map { first + $0 }
    }

    /// The first seed `--name` gives (or `defaultFirst`) of `count` consecutive seeds, checked
    /// not to run past 2⁶⁴ − 1 (for a command that takes its seeds one by one).
    public func firstOfConsecutiveSeeds(from name: String, default defaultFirst: UInt64, count: Int) throws(UsageError) -> UInt64 {
        let first = try unsigned(name, default: defaultFirst)
        guard count <= 1 || first <= UInt64.max - UInt64(count - 1) else {
            throw UsageError("--\(name) \(first) with \(count) seeds runs past the last seed, \(UInt64.max); "
                             + "give a first seed of at most \(UInt64.max - UInt64(count - 1))")
        }
        return first
    }

    /// The value of `--name` as a finite number in `range`, or `defaultValue` if absent.
    public func number(_ name: String, default defaultValue: Double, in range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let text = string(name) else { return defaultValue }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError("--\(name) expects a number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// The value of `--name`, which must be one of `choices`, or `defaultValue` if absent.
    public func choice(_ name: String, _ choices: [String], default defaultValue: String) throws(UsageError) -> String {
        guard let text = string(name) else { return defaultValue }
        guard choices.contains(text) else {
            throw UsageError("--\(name) expects one of \(choices.joined(separator: ", ")), got '\(text)'")
        }
        return text
    }

    /// The output format: `--format` if given; otherwise the one `--output`'s extension names
    /// (`.json`, `.csv`, `.md`), if it is among `choices`; otherwise `defaultValue`.
    public func format(_ choices: [String], default defaultValue: String) throws(UsageError) -> String {
        if string("format") != nil { return try choice("format", choices, default: defaultValue) }
        let byExtension = ["json": "json", "csv": "csv", "md": "markdown", "markdown": "markdown"]
        guard let output = string("output"), let dot = output.lastIndex(of: "."),
              let named = byExtension[output[output.index(after: dot)...].lowercased()], choices.contains(named) else { return defaultValue }
        return named
    }
}

/// A mistake on the command line; the tool prints it and exits with status 2.
public struct UsageError: Error, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
