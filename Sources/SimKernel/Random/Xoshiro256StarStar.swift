/// David Blackman and Sebastiano Vigna's xoshiro256** generator: the kernel's source of every
/// random bit.
///
/// 256 bits of state, period 2²⁵⁶ − 1, fast, and defined bit for bit, so a seed gives the same
/// numbers on every platform and every Swift release (which the standard library's generators do
/// not promise). Seeded from four ``SplitMix64`` outputs, as its authors recommend.
/// Reference: <https://prng.di.unimi.it/xoshiro256starstar.c>.
///
/// It deliberately does not conform to `RandomNumberGenerator`: the standard library's
/// `random(in:using:)` and `shuffled(using:)` may change their algorithms between releases, so
/// simulation code must draw through ``RandomStream`` instead.
public struct Xoshiro256StarStar: Sendable, Hashable {
    @usableFromInline var s0: UInt64
    @usableFromInline var s1: UInt64
    @usableFromInline var s2: UInt64
    @usableFromInline var s3: UInt64

    /// Creates a generator whose state is the next four outputs of `SplitMix64(seed: seed)`.
    @inlinable
    public init(seed: UInt64) {
        var seeder = SplitMix64(seed: seed)
        s0 = seeder.next()
        s1 = seeder.next()
        s2 = seeder.next()
        s3 = seeder.next()
    }

    /// Returns the next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, by: 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotateLeft(s3, by: 45)
        return result
    }

    @inlinable @inline(__always)
    func rotateLeft(_ value: UInt64, by amount: UInt64) -> UInt64 {
        (value << amount) | (value >> (64 &- amount))
    }
}
