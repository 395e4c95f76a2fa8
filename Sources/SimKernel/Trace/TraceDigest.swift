/// A 64-bit fingerprint of a sequence of trace records, for checking that two runs fired the
/// same events at the same times.
///
/// The canonical encoding of a record is four 64-bit words — `time` in nanoseconds since the
/// start (two's complement), `kind`, `entity`, `detail` (two's complement) — and the digest
/// absorbs them in that order with the xxHash64 round function
/// (`acc = rotl(acc &+ word &* P2, 31) &* P1`), starting from `P5`. ``value`` finishes with the
/// record count and xxHash64's avalanche, so it is cheap to read at any time.
///
/// It is a fingerprint, not a cryptographic hash: equal digests mean equal runs with
/// overwhelming probability, which is what determinism tests need.
public struct TraceDigest: Sendable, Hashable {
    @usableFromInline static var prime1: UInt64 { 0x9E37_79B1_85EB_CA87 }
    @usableFromInline static var prime2: UInt64 { 0xC2B2_AE3D_27D4_EB4F }
    @usableFromInline static var prime3: UInt64 { 0x1656_67B1_9E37_79F9 }
    @usableFromInline static var prime5: UInt64 { 0x27D4_EB2F_1656_67C5 }

    @usableFromInline var accumulator: UInt64
    /// How many records the digest has absorbed.
    @inlinable
    public var recordCount: UInt64 { count }
    @usableFromInline var count: UInt64

    /// The digest of no records.
    @inlinable
    public init() {
        accumulator = Self.prime5
        count = 0
    }

    @inlinable @inline(__always)
    static func round(_ accumulator: UInt64, _ word: UInt64) -> UInt64 {
        let sum = accumulator &+ word &* prime2
        return ((sum << 31) | (sum >> 33)) &* prime1
    }

    /// Absorbs one record.
    @inlinable
    public mutating func combine(_ record: TraceRecord) {
        combine(time: record.time.nanosecondsSinceStart, kind: record.kind, entity: record.entity, detail: record.detail)
    }

    /// Absorbs one record given as its four fields.
    @inlinable @inline(__always)
    public mutating func combine(time: Int64, kind: UInt32, entity: UInt64, detail: Int64) {
        var acc = Self.round(accumulator, UInt64(bitPattern: time))
        acc = Self.round(acc, UInt64(kind))
        acc = Self.round(acc, entity)
        accumulator = Self.round(acc, UInt64(bitPattern: detail))
        count &+= 1
    }

    /// The digest's current value.
    @inlinable
    public var value: UInt64 {
        var hash = accumulator ^ (count &* Self.prime1)
        hash ^= hash >> 33
        hash &*= Self.prime2
        hash ^= hash >> 29
        hash &*= Self.prime3
        hash ^= hash >> 32
        return hash
    }
}

extension TraceDigest: CustomStringConvertible {
    /// The value as 16 lowercase hexadecimal digits, as printed in outputs and benchmarks.
    public var description: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
