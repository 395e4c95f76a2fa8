import BackgroundSim
import Dispatch

/// Runs one scenario over many seeds in parallel and returns the results in seed order, so the
/// output is the same for any number of jobs.
public enum Replications {
    /// The number of cores, the default for `jobs`.
    public static var defaultJobs: Int { ProcessInfoCores.count }

    /// Runs `scenario` for `days` days with each of `seeds`, on up to `jobs` threads.
    ///
    /// Each run is independent (its randomness comes from its seed alone), and each result is
    /// stored at its seed's index, so the order in which threads finish cannot show.
    ///
    /// - Parameter progress: Called after each run (from any thread).
    public static func run(
        _ scenario: Scenario, seeds: [UInt64], days: Int, jobs: Int = defaultJobs,
        progress: (@Sendable () -> Void)? = nil
    ) throws -> [RunResult] {
        let results = ResultSlots(count: seeds.count)
        let jobs = Swift.max(1, Swift.min(jobs, seeds.count))
        // Each job takes every `jobs`-th seed; results go to their seed's slot.
        DispatchQueue.concurrentPerform(iterations: jobs) { job in
            var index = job
            while index < seeds.count {
                results.store(Result { try SimulationRunner.run(scenario: scenario, seed: seeds[index], days: days) }, at: index)
                progress?()
                index += jobs
            }
        }
        return try results.collect()
    }
}

/// Slots for results written by concurrent jobs, one slot per index, guarded by a lock.
final class ResultSlots: @unchecked Sendable {
    private var slots: [Result<RunResult, any Error>?]
    private var finished = 0
    private let lock = NSLockLike()

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func store(_ result: Result<RunResult, any Error>, at index: Int) {
        lock.withLock {
            slots[index] = result
            finished += 1
        }
    }

    var finishedCount: Int { lock.withLock { finished } }

    /// The results in index order; the first error, in index order, if any run failed.
    func collect() throws -> [RunResult] {
        try lock.withLock { try slots.map { try $0!.get() } }
    }
}
