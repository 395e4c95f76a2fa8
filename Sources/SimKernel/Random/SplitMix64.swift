/// Sebastiano Vigna's SplitMix64 generator, used to seed and to derive streams.
///
/// A 64-bit counter stepped by the golden-ratio increment and passed through a bijective mixer.
/// Any seed, including 0, gives a good sequence, which is why it seeds ``Xoshiro256StarStar``.
/// Reference: <https://prng.di.unimi.it/splitmix64.c>.
public struct SplitMix64: Sendable, Hashable {
    /// The counter.
    public var state: UInt64

    /// Creates a generator whose first output is `SplitMix64.mix(seed &+ 0x9E3779B97F4A7C15)`.
    @inlinable
    public init(seed: UInt64) {
        state = seed
    }

    /// Advances the counter and returns the next output.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// SplitMix64's output function: a bijection on 64-bit words with full avalanche.
    @inlinable
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
