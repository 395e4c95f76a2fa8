#if canImport(Security)
import Foundation
import Security
#else
import SimulatedBackgroundTasks
#endif

/// Random delays from the system's secure generator, as the app draws them.
enum SecureRandom {
    struct GeneratorFailed: Error {}

    /// A uniform number in [0, 1) from 53 of 64 secure random bits.
    static func nextUnit() throws -> Double {
        var bits: UInt64 = 0
        let status = withUnsafeMutableBytes(of: &bits) { SecRandomCopyBytes(kSecRandomDefault, 8, $0.baseAddress!) }
        guard status == errSecSuccess else { throw GeneratorFailed() }
        return Double(bits >> 11) * 0x1p-53
    }

    /// A duration from an exponential distribution of mean `mean`, clamped to
    /// `atLeast ... atMost`, in whole seconds (the app keeps only the seconds).
    static func exponentialDelaySeconds(mean: Int, atLeast: Int, atMost: Int) throws -> Int {
        let draw = -Double(mean) * log(1 - (try nextUnit()))
        return Int(Swift.min(Double(atMost), Swift.max(Double(atLeast), draw)))
    }
}
