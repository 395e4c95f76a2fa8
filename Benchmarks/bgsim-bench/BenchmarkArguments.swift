/// A benchmark's command-line flags, parsed by hand (the package has no dependencies).
struct BenchmarkArguments {
    private var values: [String: String] = [:]
    /// Flags in the order given, for error messages.
    private var order: [String] = []

    /// Parses `--name value` and `--name=value` pairs.
    ///
    /// - Throws: ``UsageError`` for a stray word or a flag without a value.
    init(_ arguments: ArraySlice<String>) throws(UsageError) {
        var remaining = arguments[...]
        while let word = remaining.popFirst() {
            guard word.hasPrefix("--"), word.count > 2 else {
                throw UsageError("unexpected argument '\(word)'; flags look like --events 1000")
            }
            let body = word.dropFirst(2)
            if let equals = body.firstIndex(of: "=") {
                store(String(body[..<equals]), String(body[body.index(after: equals)...]))
            } else {
                guard let value = remaining.popFirst() else {
                    throw UsageError("flag '--\(body)' needs a value")
                }
                store(String(body), value)
            }
        }
    }

    private mutating func store(_ name: String, _ value: String) {
        if values[name] == nil { order.append(name) }
        values[name] = value
    }

    /// Fails on any flag not in `known`, suggesting what was accepted.
    func rejectUnknown(_ known: [String]) throws(UsageError) {
        for name in order where !known.contains(name) {
            let accepted = known.map { "--\($0)" }.joined(separator: ", ")
            throw UsageError("unknown flag '--\(name)'; this benchmark accepts \(accepted)")
        }
    }

    /// The value of `--name` as an integer in `range`, or `defaultValue` if absent.
    func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = values[name] else { return defaultValue }
        guard let value = Int(text.replacingOccurrences(of: "_", with: "")), range.contains(value) else {
            throw UsageError("--\(name) expects a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// The value of `--name` as an unsigned 64-bit integer, or `defaultValue` if absent.
    func unsigned(_ name: String, default defaultValue: UInt64) throws(UsageError) -> UInt64 {
        guard let text = values[name] else { return defaultValue }
        guard let value = UInt64(text) else {
            throw UsageError("--\(name) expects a whole number from 0 to \(UInt64.max), got '\(text)'")
        }
        return value
    }
}

/// A mistake on the command line; the tool prints it and exits with status 2.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
