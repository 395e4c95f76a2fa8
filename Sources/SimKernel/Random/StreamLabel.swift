/// The stable name of a random stream, such as `"user.sessions"` or `"network.signal"`.
///
/// A label's ``hash`` is the 64-bit FNV-1a hash of its UTF-8 bytes: the same on every platform
/// and in every process, unlike `Hasher`, which Swift seeds afresh per process. Create labels once
/// (as `static let`s) and reuse them; hashing happens at creation.
///
/// Renaming a label changes every number drawn from its streams, and so the results of every
/// seed; treat published labels as part of the output format.
public struct StreamLabel: Sendable, Hashable, CustomStringConvertible {
    /// The label's text.
    public let name: String

    /// The 64-bit FNV-1a hash of ``name``'s UTF-8 bytes.
    public let hash: UInt64

    /// Creates a label and computes its hash.
    public init(_ name: String) {
        self.name = name
        self.hash = StreamLabel.fnv1a64(name.utf8)
    }

    public var description: String { name }

    /// The 64-bit FNV-1a hash of `bytes` (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
    public static func fnv1a64<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}

extension StreamLabel: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self.init(value)
    }
}
