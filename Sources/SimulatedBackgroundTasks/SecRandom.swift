import BackgroundSim

/// `OSStatus`: a Security framework result code.
public typealias OSStatus = Int32

/// `errSecSuccess`.
public let errSecSuccess: OSStatus = 0

/// `errSecParam`: a parameter was not valid.
public let errSecParam: OSStatus = -50

/// `SecRandomRef`: a source of random bytes; the only one is the default, `nil`.
public final class SecRandom: @unchecked Sendable {
    private init() {}
}
public typealias SecRandomRef = SecRandom

/// `kSecRandomDefault`: the system's generator.
public let kSecRandomDefault: SecRandomRef? = nil

/// `SecRandomCopyBytes(_:_:_:)`: fills `bytes` with `count` random bytes — on the simulated
/// phone, from the app's own stream of the run's seed, so that code drawing its delays or its
/// cover traffic from the system's generator runs the same way every time. Each 8 bytes (or
/// the fewer left at the end) take one 64-bit draw, low byte first.
///
/// - Returns: `errSecSuccess`, or `errSecParam` for a negative count.
@discardableResult
public func SecRandomCopyBytes(_ rnd: SecRandomRef?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> OSStatus {
    guard count >= 0 else { return errSecParam }
    let process = SimulatedProcess.required(by: "SecRandomCopyBytes")
    var offset = 0
    while offset < count {
        var bits = process.randomBits()
        for _ in 0..<Swift.min(8, count - offset) {
            bytes.storeBytes(of: UInt8(truncatingIfNeeded: bits), toByteOffset: offset, as: UInt8.self)
            bits >>= 8
            offset += 1
        }
    }
    return errSecSuccess
}
