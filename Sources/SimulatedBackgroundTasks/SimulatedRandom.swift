// In a file that imports this module, these shadow the standard library's: the app's code
// draws from its own stream of the run's seed, so that code using `Int.random(in:)` or
// `SystemRandomNumberGenerator` runs the same way every time. An integer in a range `Int`
// holds comes from the simulation kernel's portable algorithm (the one the built-in policies
// use to draw as apps do); other values from the standard library's algorithms on the
// stream's bits. Outside the simulated app's code they draw from the system, as the standard
// library's do.

/// `SystemRandomNumberGenerator`: in the app's code, the app's seeded stream.
public struct SystemRandomNumberGenerator: RandomNumberGenerator, Sendable {
    public init() {}

    public mutating func next() -> UInt64 {
        if let process = SimulatedProcess.current { return process.randomBits() }
        var system = Swift.SystemRandomNumberGenerator()
        return system.next()
    }
}

extension FixedWidthInteger {
    /// A random value in `range`: in the app's code, from its seeded stream.
    public static func random(in range: Range<Self>) -> Self {
        precondition(!range.isEmpty, "Can't get random value with an empty range")
        return random(in: range.lowerBound...(range.upperBound - 1))
    }

    /// A random value in `range`: in the app's code, from its seeded stream.
    public static func random(in range: ClosedRange<Self>) -> Self {
        if let process = SimulatedProcess.current, let lower = Int(exactly: range.lowerBound), let upper = Int(exactly: range.upperBound) {
            return Self(process.randomInteger(in: lower...upper))
        }
        var generator = SystemRandomNumberGenerator()
        return random(in: range, using: &generator)
    }
}

extension BinaryFloatingPoint where RawSignificand: FixedWidthInteger {
    /// A random value in `range`, from ``SystemRandomNumberGenerator``.
    public static func random(in range: Range<Self>) -> Self {
        var generator = SystemRandomNumberGenerator()
        return random(in: range, using: &generator)
    }

    /// A random value in `range`, from ``SystemRandomNumberGenerator``.
    public static func random(in range: ClosedRange<Self>) -> Self {
        var generator = SystemRandomNumberGenerator()
        return random(in: range, using: &generator)
    }
}

extension Bool {
    /// A random Boolean, from ``SystemRandomNumberGenerator``.
    public static func random() -> Bool {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }
}

extension Collection {
    /// A random element, from ``SystemRandomNumberGenerator``.
    public func randomElement() -> Element? {
        var generator = SystemRandomNumberGenerator()
        return randomElement(using: &generator)
    }
}

extension Sequence {
    /// The elements in a random order, from ``SystemRandomNumberGenerator``.
    public func shuffled() -> [Element] {
        var generator = SystemRandomNumberGenerator()
        return shuffled(using: &generator)
    }
}

extension MutableCollection where Self: RandomAccessCollection {
    /// Shuffles the elements, from ``SystemRandomNumberGenerator``.
    public mutating func shuffle() {
        var generator = SystemRandomNumberGenerator()
        shuffle(using: &generator)
    }
}
