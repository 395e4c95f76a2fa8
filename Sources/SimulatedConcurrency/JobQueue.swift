import SimKernel
@_spi(ExperimentalScheduling) import _Concurrency
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The executor behind ``SimulatedExecutor``: the queue of ready jobs, the timed jobs, the
/// simulated now, and which thread it is bound to. A `SchedulingExecutor`, so that a sleep in a
/// job it runs is scheduled here (that protocol is the runtime's SPI, and so this type is
/// internal).
final class JobQueue: SerialExecutor, SchedulingExecutor, @unchecked Sendable {
    /// The simulated time: the instant of the latest ``advance(to:)``.
    private(set) var now: SimInstant = .start
    /// The most jobs ``drain()`` runs at one instant before it gives up with ``Runaway``:
    /// 1,000,000.
    var jobLimit = 1_000_000
    /// Jobs run so far.
    private(set) var jobsRun = 0
    /// Work run at `countedInstant`, toward ``jobLimit``.
    private var runAtInstant = 0
    private var countedInstant = SimInstant.start

    /// A job, or a callback of the executor's own (a simulated sleep ending).
    enum Work {
        case job(UnownedJob)
        case callback(() -> Void)
    }

    private var ready: [Work] = []
    private var readyStart = 0
    /// Timed work from `timedStart` on, sorted by instant, then by when it was scheduled; `id`
    /// names a callback that can be withdrawn (0 for a job).
    private var timed: [(at: SimInstant, work: Work, id: UInt64)] = []
    private var timedStart = 0
    private var lastCallbackID: UInt64 = 0

    // MARK: Driving

    /// Runs ready work — jobs, and the callbacks of simulated sleeps and of the simulated
    /// frameworks — one at a time in the order it came, until none is ready; returns how much
    /// ran. Call it with the executor bound (``withBound(_:)``).
    ///
    /// - Throws: ``Runaway`` once ``jobLimit`` pieces of work have run at this instant, in this
    ///   drain or earlier ones (work that reschedules itself at the same instant, through a
    ///   sleep of zero, counts on).
    @discardableResult
    func drain() throws(SimulatedExecutor.Runaway) -> Int {
        if countedInstant != now {
            countedInstant = now
            runAtInstant = 0
        }
        var count = 0
        while readyStart < ready.count {
            guard runAtInstant < jobLimit else { throw SimulatedExecutor.Runaway(instant: now, jobs: runAtInstant) }
            let job = ready[readyStart]
            readyStart += 1
            if readyStart == ready.count {
                ready.removeAll(keepingCapacity: true)
                readyStart = 0
            }
            switch job {
            case .job(let job):
                job.runSynchronously(on: asUnownedSerialExecutor())
                jobsRun += 1
            case .callback(let callback):
                callback()
            }
            count += 1
            runAtInstant += 1
        }
        return count
    }

    /// The instant of the earliest timed job, if any.
    var nextDeadline: SimInstant? { timedStart < timed.count ? timed[timedStart].at : nil }

    /// Whether no job is ready or timed.
    var isIdle: Bool { readyStart == ready.count && timedStart == timed.count }

    /// Moves the time to `instant` (never back) without releasing anything.
    func jump(to instant: SimInstant) {
        now = Swift.max(now, instant)
    }

    /// Moves the simulated time to `instant` (never back), releasing the timed jobs due by then
    /// in order of their instants, then of their scheduling, and runs each instant's work before
    /// the next's.
    ///
    /// - Throws: ``Runaway`` as ``drain()`` does.
    func advance(to instant: SimInstant) throws(SimulatedExecutor.Runaway) {
        try drain()
        while let next = nextDeadline, next <= instant {
            now = Swift.max(now, next)
            while timedStart < timed.count && timed[timedStart].at <= now {
                ready.append(timed[timedStart].work)
                timedStart += 1
            }
            if timedStart == timed.count {
                timed.removeAll(keepingCapacity: true)
                timedStart = 0
            }
            try drain()
        }
        now = Swift.max(now, instant)
    }

    // MARK: Executor

    func enqueue(_ job: UnownedJob) {
        ready.append(.job(job))
    }

    /// Queues `callback` to run now, after the work already ready.
    func enqueue(_ callback: @escaping () -> Void) {
        ready.append(.callback(callback))
    }

    func enqueue(_ job: consuming ExecutorJob) {
        ready.append(.job(UnownedJob(job)))
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        // The one reading of a real clock on this path: the runtime gives the sleep's end as a
        // real deadline. Rounded to the millisecond, the microseconds since the call do not reach
        // the simulated instant; a thread held up for more than half of one does (documented in
        // SimulatedExecutor and docs/RUN-YOUR-OWN-CODE.md; TaskSleep's exact sleeps avoid it).
        let delay = clock.now.duration(to: instant)
        let nanoseconds = (delay as? Duration).map(Self.nanoseconds) ?? 0
        enqueue(UnownedJob(job), afterNanoseconds: Self.roundedToMilliseconds(nanoseconds))
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        let nanoseconds = (delay as? Duration).map(Self.nanoseconds) ?? 0
        enqueue(UnownedJob(job), afterNanoseconds: nanoseconds)
    }

    /// Schedules `job` `nanoseconds` after the simulated now (now, for none or fewer), after
    /// every job already timed for that instant.
    func enqueue(_ job: UnownedJob, afterNanoseconds nanoseconds: Int64) {
        insert(.job(job), afterNanoseconds: nanoseconds, id: 0)
    }

    /// Schedules `callback` `nanoseconds` after the simulated now; returns what
    /// ``withdraw(_:)`` takes to take it back.
    func schedule(afterNanoseconds nanoseconds: Int64, _ callback: @escaping () -> Void) -> UInt64 {
        lastCallbackID += 1
        insert(.callback(callback), afterNanoseconds: nanoseconds, id: lastCallbackID)
        return lastCallbackID
    }

    /// Takes back a scheduled callback that has not come due.
    func withdraw(_ id: UInt64) {
        guard let index = timed[timedStart...].firstIndex(where: { $0.id == id }) else { return }
        timed.remove(at: index)
    }

    private func insert(_ work: Work, afterNanoseconds nanoseconds: Int64, id: UInt64) {
        let at = nanoseconds > 0 ? SimInstant(nanosecondsSinceStart: now.nanosecondsSinceStart.addingReportingOverflow(nanoseconds).overflow
                                                ? .max : now.nanosecondsSinceStart + nanoseconds)
            : now
        // The first position after everything at or before `at`.
        var low = timedStart, high = timed.count
        while low < high {
            let middle = (low + high) / 2
            if timed[middle].at <= at { low = middle + 1 } else { high = middle }
        }
        timed.insert((at, work, id), at: low)
    }

    /// Schedules `job` at a deadline on a runtime clock (1: continuous, 2: suspending), as the
    /// delay from that clock's now, rounded to the millisecond.
    func enqueue(_ job: UnownedJob, atRealDeadlineSeconds seconds: Int64, nanoseconds: Int64, clock: Int32) {
        // A real clock, read as in enqueue(_:at:tolerance:clock:) and rounded the same way. The
        // clocks are the runtime's own for its clock ids.
        var spec = timespec()
        #if canImport(Darwin)
        clock_gettime(clock == 2 ? CLOCK_UPTIME_RAW : CLOCK_MONOTONIC_RAW, &spec)
        #else
        clock_gettime(clock == 2 ? CLOCK_MONOTONIC : CLOCK_BOOTTIME, &spec)
        #endif
        let delay = (seconds - Int64(spec.tv_sec)) * 1_000_000_000 + (nanoseconds - Int64(spec.tv_nsec))
        enqueue(job, afterNanoseconds: Self.roundedToMilliseconds(delay))
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (seconds > 0 ? .max : .min) : whole.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }

    static func roundedToMilliseconds(_ nanoseconds: Int64) -> Int64 {
        guard nanoseconds > 0 else { return 0 }
        guard nanoseconds < Int64.max - 500_000 else { return .max }
        return (nanoseconds + 500_000) / 1_000_000 * 1_000_000
    }

    // MARK: The thread's executor

    private static let binding = ThreadBinding<JobQueue>()

    /// The queue bound to the calling thread, if any.
    static var current: JobQueue? {
        get { binding.current }
        set { binding.current = newValue }
    }
}
