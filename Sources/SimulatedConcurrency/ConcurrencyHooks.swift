@_spi(ExperimentalCustomExecutors) import _Concurrency
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Swift runtime's concurrency hooks that route an app's async work to the simulation: the
/// one place that touches interfaces the runtime does not promise to keep.
///
/// The runtime (`libswift_Concurrency`) exports a function-pointer variable per hook; a hook set
/// there is called instead of the runtime's own routine, with that routine as its last argument.
/// These are the hooks pointfree's `withMainSerialExecutor` also sets. Four are set, once per
/// process, and each hands work to the ``SimulatedExecutor`` bound to the calling thread, or to
/// the runtime's own routine on any other thread, so a process keeps its ordinary concurrency
/// wherever no simulation runs:
///
/// - `swift_task_enqueueGlobal_hook`: `Task {}`, `Task.detached`, `async let`, task groups, and
///   default actors, which run on the global executor.
/// - `swift_task_getMainExecutor_hook`: the main actor's executor (`@MainActor` code) is the
///   thread's simulated executor.
/// - `swift_task_enqueueGlobalWithDelay_hook`, `swift_task_enqueueGlobalWithDeadline_hook`:
///   sleeps routed through the global executor (a job running on a simulated executor schedules
///   its sleeps on it directly, as a `SchedulingExecutor`).
///
/// It also makes ``DefaultExecutorRouter`` the process's default executor, which routes the
/// same way (a sleep in code isolated to an actor goes there).
///
/// Checked on Swift 6.3.1 (Linux), debug and release. A runtime without one of these symbols
/// makes ``install()`` throw ``SimulatedExecutor/Unsupported``, with the missing symbol named.
enum ConcurrencyHooks {
    typealias EnqueueOriginal = @convention(thin) (UnownedJob) -> Void
    typealias EnqueueHook = @convention(thin) (UnownedJob, EnqueueOriginal) -> Void
    typealias MainExecutorOriginal = @convention(thin) () -> UnownedSerialExecutor
    typealias MainExecutorHook = @convention(thin) (MainExecutorOriginal) -> UnownedSerialExecutor
    typealias DelayOriginal = @convention(thin) (UInt64, UnownedJob) -> Void
    typealias DelayHook = @convention(thin) (UInt64, UnownedJob, DelayOriginal) -> Void
    typealias DeadlineOriginal = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
    typealias DeadlineHook = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, DeadlineOriginal) -> Void

    /// `RTLD_DEFAULT`: every image loaded.
    private static var defaultHandle: UnsafeMutableRawPointer? {
        #if canImport(Darwin)
        UnsafeMutableRawPointer(bitPattern: -2)
        #else
        nil
        #endif
    }

    /// The hooks' symbols, in the order they are set.
    static let symbols = ["swift_task_enqueueGlobal_hook", "swift_task_getMainExecutor_hook",
                          "swift_task_enqueueGlobalWithDelay_hook", "swift_task_enqueueGlobalWithDeadline_hook"]

    /// Sets the hooks, the first time it is called; later calls return what the first found.
    ///
    /// - Throws: ``SimulatedExecutor/Unsupported`` if the runtime lacks a hook, or one is already
    ///   set by someone else (another library driving the executors).
    static func install() throws(SimulatedExecutor.Unsupported) {
        if let problem = installation { throw problem }
    }

    /// `nil` once the hooks are set; otherwise why they could not be.
    private static let installation: SimulatedExecutor.Unsupported? = {
        var addresses: [UnsafeMutableRawPointer] = []
        for symbol in symbols {
            guard let address = dlsym(defaultHandle, symbol) else {
                return SimulatedExecutor.Unsupported(
                    reason: "this Swift runtime has no \(symbol); simulated concurrency needs Swift 6.3 (see docs/RUN-YOUR-OWN-CODE.md)")
            }
            guard address.load(as: UnsafeRawPointer?.self) == nil else {
                return SimulatedExecutor.Unsupported(reason: "\(symbol) is already set by another library; only one can drive the executors")
            }
            addresses.append(address)
        }
        let enqueue: EnqueueHook = { job, original in
            if let executor = JobQueue.current { executor.enqueue(job) } else { original(job) }
        }
        let mainExecutor: MainExecutorHook = { original in
            JobQueue.current?.asUnownedSerialExecutor() ?? original()
        }
        let delay: DelayHook = { nanoseconds, job, original in
            if let executor = JobQueue.current {
                executor.enqueue(job, afterNanoseconds: Int64(clamping: nanoseconds))
            } else {
                original(nanoseconds, job)
            }
        }
        let deadline: DeadlineHook = { seconds, nanoseconds, leewaySeconds, leewayNanoseconds, clock, job, original in
            if let executor = JobQueue.current {
                executor.enqueue(job, atRealDeadlineSeconds: seconds, nanoseconds: nanoseconds, clock: clock)
            } else {
                original(seconds, nanoseconds, leewaySeconds, leewayNanoseconds, clock, job)
            }
        }
        addresses[0].assumingMemoryBound(to: EnqueueHook?.self).pointee = enqueue
        addresses[1].assumingMemoryBound(to: MainExecutorHook?.self).pointee = mainExecutor
        addresses[2].assumingMemoryBound(to: DelayHook?.self).pointee = delay
        addresses[3].assumingMemoryBound(to: DeadlineHook?.self).pointee = deadline
        // And the default executor, for sleeps in code isolated to an actor.
        _createExecutors(factory: RoutingExecutorFactory.self)
        return nil
    }()
}
