import Dispatch
import Foundation

/// Independent runs spread over threads, their results returned in index order, so that the
/// output is the same for any number of jobs: the one parallel machinery of replications,
/// comparisons, sweeps, what-ifs and checks.
package enum ParallelRuns {
    /// The number of active cores: the default number of jobs.
    package static var defaultJobs: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Calls `body` with every index in `0..<count`, on up to `jobs` threads, and returns the
    /// results in index order; the first error in index order, if any call threw.
    ///
    /// Each job takes every `jobs`-th index; each result goes to its index's slot, so the order
    /// in which threads finish cannot show.
    ///
    /// - Parameter progress: Called after each call (from any thread).
    package static func map<Result: Sendable>(
        count: Int, jobs: Int, progress: (@Sendable () -> Void)? = nil, _ body: @Sendable (Int) throws -> Result
    ) throws -> [Result] {
        guard count > 0 else { return [] }
        let slots = Slots<Result>(count: count)
        let jobs = Swift.max(1, Swift.min(jobs, count))
        DispatchQueue.concurrentPerform(iterations: jobs) { job in
            var index = job
            while index < count {
                slots.store(Swift.Result { try body(index) }, at: index)
                progress?()
                index += jobs
            }
        }
        return try slots.collect()
    }

    /// One slot per index, written by concurrent jobs under a lock.
    private final class Slots<Result: Sendable>: @unchecked Sendable {
        private var slots: [Swift.Result<Result, any Error>?]
        private let lock = NSLock()

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        func store(_ result: Swift.Result<Result, any Error>, at index: Int) {
            lock.lock()
            precondition(slots[index] == nil, "ParallelRuns: index \(index) ran twice")
            slots[index] = result
            lock.unlock()
        }

        func collect() throws -> [Result] {
            lock.lock()
            defer { lock.unlock() }
            return try slots.map { try $0!.get() }
        }
    }
}
