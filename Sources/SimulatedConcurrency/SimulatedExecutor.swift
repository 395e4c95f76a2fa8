import SimKernel

/// An executor that runs an app's async work in simulated time, in one fixed order: the same
/// code gives the same interleaving on every run, in any process, however many simulations run
/// at once on other threads.
///
/// While ``withBound(_:)`` runs on a thread, every job that thread's code hands to Swift
/// concurrency comes here (``ConcurrencyHooks``): `Task {}`, `Task.detached`, `async let`,
/// task groups, default actors and `@MainActor` code go to one first-in, first-out queue, run by
/// ``drain()`` one job at a time on the calling thread; `Task.sleep` and clock sleeps become
/// timed jobs at a simulated instant, released by ``advance(to:)`` in order of their instants,
/// then of their scheduling. Nothing runs on another thread and nothing reads the wall clock,
/// except to turn a sleep's real deadline back into its duration (below).
///
///     let executor = try SimulatedExecutor()
///     try executor.withBound {
///         Task { try await Task.sleep(for: .seconds(5)); print(executor.now) }   // 0d 00:00:05.000
///         try executor.runUntilIdle()
///     }
///
/// A sleep reaches the executor as a deadline on the real clock it was asked of (`Task.sleep`'s
/// continuous clock): the executor measures it against that clock's now and rounds to the
/// millisecond, which absorbs the microseconds between the call and the scheduling; sleeps are
/// simulated to the millisecond.
///
/// Not routed here, and so not simulated: Dispatch queues, `OperationQueue`, `Timer`, threads
/// the app starts itself, and custom executors the app installs; work sent there runs in real
/// time, concurrently, and breaks determinism.
public final class SimulatedExecutor: @unchecked Sendable {
    /// Why simulated concurrency cannot run in this process.
    public struct Unsupported: Error, CustomStringConvertible, Sendable {
        public var reason: String
        public var description: String { reason }
    }

    /// Work that does not settle: more jobs run at one simulated instant than ``jobLimit``.
    public struct Runaway: Error, CustomStringConvertible, Sendable {
        public var instant: SimInstant
        public var jobs: Int
        public var description: String {
            "the app's async work did not settle: \(jobs) jobs ran at \(instant) without the simulated time moving "
                + "(a loop that never sleeps or waits?)"
        }
    }

    let queue = JobQueue()

    /// An executor at the simulated start.
    ///
    /// - Throws: ``Unsupported`` if this Swift runtime lacks the hooks it needs.
    public init() throws(Unsupported) {
        try ConcurrencyHooks.install()
    }

    /// The simulated time: the instant of the latest ``advance(to:)``.
    public var now: SimInstant { queue.now }
    /// The most jobs ``drain()`` runs at one instant before it gives up with ``Runaway``:
    /// 1,000,000.
    public var jobLimit: Int {
        get { queue.jobLimit }
        set { queue.jobLimit = newValue }
    }
    /// Jobs run so far.
    public var jobsRun: Int { queue.jobsRun }
    /// The instant of the earliest timed job, if any.
    public var nextDeadline: SimInstant? { queue.nextDeadline }
    /// Whether no job is ready or timed.
    public var isIdle: Bool { queue.isIdle }

    /// Runs `body` with this executor bound to the calling thread: the async work `body` and the
    /// jobs it runs start comes here. Bindings nest; the previous one is restored.
    public func withBound<Result>(_ body: () throws -> Result) rethrows -> Result {
        let previous = JobQueue.current
        JobQueue.current = queue
        defer { JobQueue.current = previous }
        return try body()
    }

    /// Runs ready jobs, one at a time in the order they came, until none is ready; returns how
    /// many ran. Call it with the executor bound (``withBound(_:)``).
    ///
    /// - Throws: ``Runaway`` after ``jobLimit`` jobs at this instant.
    @discardableResult
    public func drain() throws(Runaway) -> Int {
        precondition(JobQueue.current === queue, "SimulatedExecutor.drain(): bind the executor to this thread first (withBound)")
        return try queue.drain()
    }

    /// Moves the simulated time to `instant` (never back), releasing the timed jobs due by then
    /// in order of their instants, then of their scheduling, and runs each instant's work before
    /// the next's.
    ///
    /// - Throws: ``Runaway`` as ``drain()`` does.
    public func advance(to instant: SimInstant) throws(Runaway) {
        precondition(JobQueue.current === queue, "SimulatedExecutor.advance(to:): bind the executor to this thread first (withBound)")
        try queue.advance(to: instant)
    }

    /// Moves the simulated time to `instant` (never back) without running anything: timed jobs
    /// due by then stay timed until the next ``advance(to:)``, which runs them at `instant`,
    /// in order of their instants, then of their scheduling. This is how a suspended app
    /// resumes: its overdue sleeps end when it runs again, and a sleep it starts then counts
    /// from then — a loop that sleeps a minute runs once after an hour's suspension, not sixty
    /// times.
    public func jump(to instant: SimInstant) {
        queue.jump(to: instant)
    }

    // MARK: Work of the simulated frameworks

    /// Queues `work` to run now, first in, first out with the jobs of Swift concurrency (how the
    /// simulated Dispatch queues and `OperationQueue` run their blocks).
    package func enqueue(_ work: @escaping () -> Void) {
        queue.enqueue(work)
    }

    /// Schedules `work` `nanoseconds` of simulated time from now, after the work already timed
    /// for that instant; returns what ``withdraw(_:)`` takes.
    package func schedule(afterNanoseconds nanoseconds: Int64, _ work: @escaping () -> Void) -> UInt64 {
        queue.schedule(afterNanoseconds: nanoseconds, work)
    }

    /// Takes back scheduled work that has not come due.
    package func withdraw(_ id: UInt64) {
        queue.withdraw(id)
    }

    /// Runs until nothing is ready or timed, moving the simulated time to each timed job in turn.
    ///
    /// - Throws: ``Runaway`` as ``drain()`` does.
    public func runUntilIdle() throws(Runaway) {
        try drain()
        while let next = nextDeadline { try advance(to: next) }
    }
}
