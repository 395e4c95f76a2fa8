@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency

/// The process's default executor while simulated concurrency is installed: work from a thread
/// bound to a simulation goes to that simulation's queue, and work from any other thread to the
/// platform's own default executor, as before.
///
/// The hooks (``ConcurrencyHooks``) catch what the runtime sends to the global executor; this
/// catches what the standard library sends to `Task.defaultExecutor` itself — above all a
/// `Task.sleep` in code isolated to an actor, which asks the actor's executor first, then the
/// default one (the runtime's `Task.currentSchedulingExecutor`). It is installed with the
/// runtime's `_createExecutors(factory:)` (`@_spi(ExperimentalCustomExecutors)`, Swift 6.3),
/// which replaces the default executor even after tasks have run, as in a test process.
final class DefaultExecutorRouter: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    /// The platform's default executor, for work from threads no simulation is bound to.
    static let platform: any TaskExecutor = PlatformExecutorFactory.defaultExecutor

    func enqueue(_ job: consuming ExecutorJob) {
        if let queue = JobQueue.current {
            queue.enqueue(job)
        } else {
            Self.platform.enqueue(job)
        }
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        if let queue = JobQueue.current {
            queue.enqueue(job, at: instant, tolerance: tolerance, clock: clock)
        } else if let scheduling = Self.platform as? any SchedulingExecutor {
            scheduling.enqueue(job, at: instant, tolerance: tolerance, clock: clock)
        } else {
            Self.platform.enqueue(job)
        }
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        if let queue = JobQueue.current {
            queue.enqueue(job, after: delay, tolerance: tolerance, clock: clock)
        } else if let scheduling = Self.platform as? any SchedulingExecutor {
            scheduling.enqueue(job, after: delay, tolerance: tolerance, clock: clock)
        } else {
            Self.platform.enqueue(job)
        }
    }
}

/// The executors `_createExecutors(factory:)` installs: the platform's main executor, and the
/// router as the default.
struct RoutingExecutorFactory: ExecutorFactory {
    static var mainExecutor: any MainExecutor { PlatformExecutorFactory.mainExecutor }
    static var defaultExecutor: any TaskExecutor { router }
    static let router = DefaultExecutorRouter()
}
