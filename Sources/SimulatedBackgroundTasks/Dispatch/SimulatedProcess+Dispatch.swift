import BackgroundSim
import SimKernel

// The process's side of the simulated Dispatch, `OperationQueue` and `Timer`: their blocks are
// work on the process's executor, first in, first out with the jobs of Swift concurrency, and
// their deadlines simulated instants.
extension SimulatedProcess {
    /// Queues `work` to run now, after the work already ready (nothing once the process cannot
    /// run its code).
    func enqueue(_ work: @escaping () -> Void) {
        executor?.enqueue(work)
    }

    /// Schedules `work` `delay` of simulated time from now; returns what ``withdraw(_:)`` takes.
    @discardableResult
    func schedule(after delay: SimDuration, _ work: @escaping () -> Void) -> UInt64? {
        executor?.schedule(afterNanoseconds: delay.nanoseconds, work)
    }

    /// Takes back scheduled work that has not come due.
    func withdraw(_ scheduled: UInt64) {
        executor?.withdraw(scheduled)
    }

    /// Runs `work` as a block of `queue`: while it runs, `queue` is among those executing, for
    /// `sync` onto it to be found waiting on itself.
    func execute<Result>(on queue: DispatchQueue, _ work: () throws -> Result) rethrows -> Result {
        executingQueues.append(queue)
        defer { executingQueues.removeLast() }
        return try work()
    }

    /// A wait the app's code made that nothing can end while it waits, in simulated time (one
    /// thread runs all of the app's work, so what would signal it cannot run): the process
    /// writes where it waited, as the runtime writes a trap's place, and crashes
    /// (``CrashReason/blockingWait``). In an OS process of its own the process ends here; in the
    /// simulation's own process the wait returns, and the process runs nothing more.
    func reportBlockingWait(_ what: String, file: StaticString, line: UInt) {
        services.write(output: "\(file):\(line): \(what) would wait forever: nothing can run while the app's code waits, "
                       + "in simulated time (BackgroundSim, docs/RUN-YOUR-OWN-CODE.md)\n")
        crash(.blockingWait)
    }
}
