import Foundation

/// The number of active processor cores.
enum ProcessInfoCores {
    static var count: Int { ProcessInfo.processInfo.activeProcessorCount }
}

/// A mutual-exclusion lock.
final class NSLockLike: @unchecked Sendable {
    private let lock = NSLock()

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
