#if os(Linux)
import Glibc

/// Which processor a thread runs on, and keeping a process on one: an app process and the
/// simulation thread that drives it take turns, each waiting for the other's message, and a
/// turn that crosses to another processor costs a wake-up there (on the 2-core build machine,
/// half the time of a run of app code). Neither function is in the C headers Swift imports
/// (`_GNU_SOURCE`), so both are looked up at run time; where one is missing, nothing is pinned.
/// Where a process runs never changes what it computes.
enum ProcessorAffinity {
    /// A set of processors, as `sched_setaffinity` takes it: a bit each, 1,024 in all.
    typealias Mask = [UInt8]

    private typealias CurrentProcessor = @convention(c) () -> Int32
    private typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32
    private typealias GetAffinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32

    private static let currentProcessor: CurrentProcessor? = dlsym(nil, "sched_getcpu").map { unsafeBitCast($0, to: CurrentProcessor.self) }
    private static let setAffinity: SetAffinity? = dlsym(nil, "sched_setaffinity").map { unsafeBitCast($0, to: SetAffinity.self) }
    private static let getAffinity: GetAffinity? = dlsym(nil, "sched_getaffinity").map { unsafeBitCast($0, to: GetAffinity.self) }

    /// The processor the calling thread runs on now, or −1 if unknown.
    static var current: Int32 { currentProcessor?() ?? -1 }

    /// Keeps the calling thread (the whole process, if it has one thread) on `processor`, and
    /// returns the processors it was allowed before, for ``restore(_:)`` (nothing is changed
    /// for −1 or a processor out of range, or where the functions are missing).
    @discardableResult
    static func pin(to processor: Int32) -> Mask? {
        guard let setAffinity, let getAffinity, processor >= 0, processor < 1024 else { return nil }
        var previous = Mask(repeating: 0, count: 128)
        guard previous.withUnsafeMutableBytes({ getAffinity(0, $0.count, $0.baseAddress!) }) == 0 else { return nil }
        var mask = Mask(repeating: 0, count: 128)
        mask[Int(processor) / 8] = 1 << UInt8(processor % 8)
        guard mask.withUnsafeBytes({ setAffinity(0, $0.count, $0.baseAddress!) }) == 0 else { return nil }
        return previous
    }

    /// Lets the calling thread run on the processors `mask` names again.
    static func restore(_ mask: Mask) {
        _ = mask.withUnsafeBytes { setAffinity?(0, $0.count, $0.baseAddress!) }
    }
}
#endif
