/// A labelled, reproducible stream of random numbers, and the only way simulation code draws them.
///
/// Every component draws from its own stream, derived from the run's root seed and a stable key:
///
///     let sessions = StreamLabel("user.sessions")
///     var stream = RandomStream(seed: rootSeed, label: sessions, entity: deviceID, index: day)
///     let count = stream.int(in: 40...80)
///     let stay = stream.chance(3, outOf: 4)
///
/// Because the key, not the order of creation, determines a stream, adding a new random consumer
/// never changes what existing ones draw; two policies simulated with the same seed see the same
/// user, charging and network (common random numbers); and day 30's stream is the same whether
/// the run lasts 30 days or 1,000 (prefix stability).
///
/// Draws use integer arithmetic or IEEE-754 operations that every platform rounds alike, so a
/// seed gives bit-identical numbers on Linux and macOS.
public struct RandomStream: Sendable, Hashable {
    @usableFromInline var generator: Xoshiro256StarStar

    /// Creates the root stream of `seed`.
    @inlinable
    public init(seed: UInt64) {
        generator = Xoshiro256StarStar(seed: seed)
    }

    /// Creates the stream for `(seed, label, entity, index)`.
    ///
    /// The four parts are folded with SplitMix64's bijective mixer, each step xoring in one part
    /// after adding the golden-ratio increment, and the result seeds ``Xoshiro256StarStar``.
    /// Distinct keys give unrelated streams (they collide only if the 64-bit derived seeds do).
    ///
    /// - Parameters:
    ///   - seed: The run's root seed.
    ///   - label: The consumer's stable name.
    ///   - entity: Which instance (a device, an app); 0 if there is one.
    ///   - index: Which period or draw group (usually the day index); 0 if unused.
    @inlinable
    public init(seed: UInt64, label: StreamLabel, entity: UInt64 = 0, index: UInt64 = 0) {
        self.init(seed: Self.derivedSeed(seed: seed, label: label, entity: entity, index: index))
    }

    /// The 64-bit seed of the stream `(seed, label, entity, index)`.
    @inlinable
    public static func derivedSeed(seed: UInt64, label: StreamLabel, entity: UInt64, index: UInt64) -> UInt64 {
        let increment: UInt64 = 0x9E37_79B9_7F4A_7C15
        var key = SplitMix64.mix(seed &+ increment)
        key = SplitMix64.mix((key &+ increment) ^ label.hash)
        key = SplitMix64.mix((key &+ increment) ^ entity)
        key = SplitMix64.mix((key &+ increment) ^ index)
        return key
    }

    // MARK: Raw bits and integers

    /// Returns the next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        generator.next()
    }

    /// A uniformly distributed integer in `0 ..< bound`, without modulo bias.
    ///
    /// Lemire's multiply-and-reject method: one multiplication, and a rejection with probability
    /// below `bound / 2⁶⁴`.
    ///
    /// - Precondition: `bound > 0`.
    @inlinable
    public mutating func next(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "RandomStream.next(below:): the bound must be positive")
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = next().multipliedFullWidth(by: bound)
            }
        }
        return product.high
    }

    /// A uniformly distributed integer in `range`, without modulo bias.
    ///
    /// - Precondition: `range` is not empty.
    @inlinable
    public mutating func int(in range: Range<Int>) -> Int {
        precondition(!range.isEmpty, "RandomStream.int(in:): the range \(range) is empty")
        return int(in: range.lowerBound...(range.upperBound - 1))
    }

    /// A uniformly distributed integer in `range`, without modulo bias.
    @inlinable
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let lower = UInt64(bitPattern: Int64(range.lowerBound))
        let spanMinusOne = UInt64(bitPattern: Int64(range.upperBound)) &- lower
        let offset = spanMinusOne == .max ? next() : next(below: spanMinusOne &+ 1)
        return Int(Int64(bitPattern: lower &+ offset))
    }

    /// `true` with probability exactly `numerator / denominator`.
    ///
    ///     stream.chance(17, outOf: 20)   // 85 %, exactly
    ///
    /// - Precondition: `0 <= numerator <= denominator` and `denominator > 0`.
    @inlinable
    public mutating func chance(_ numerator: Int, outOf denominator: Int) -> Bool {
        precondition(
            denominator > 0 && numerator >= 0 && numerator <= denominator,
            "RandomStream.chance: \(numerator) out of \(denominator) is not a probability"
        )
        return next(below: UInt64(denominator)) < UInt64(numerator)
    }

    /// `true` with probability `probability`, compared exactly against a 53-bit uniform draw.
    ///
    /// `probability` is scaled by 2⁵³, which is exact, so the result is `true` with probability
    /// `ceil(probability × 2⁵³) / 2⁵³`. Values at or below 0 never succeed; at or above 1 always.
    ///
    /// - Precondition: `probability` is not NaN.
    @inlinable
    public mutating func chance(_ probability: Double) -> Bool {
        precondition(!probability.isNaN, "RandomStream.chance: NaN is not a probability")
        return Double(next() >> 11) < probability * 0x1p53
    }

    // MARK: Uniform reals

    /// A uniformly distributed `Double` in `[0, 1)`, from the top 53 bits of one draw.
    @inlinable
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A uniformly distributed `Double` in the open interval `(0, 1)`, symmetric about ½.
    ///
    /// The inverse-CDF transforms use it, since they are infinite at 0 and 1.
    @inlinable
    public mutating func openUnit() -> Double {
        (Double(next() >> 12) + 0.5) * 0x1p-52
    }
}
