import Dispatch
import SimKernel
import SimulatedConcurrency
import Synchronization
import Testing

/// A log the app's code writes to from any of its tasks (all on the simulation's thread).
final class Journal: @unchecked Sendable {
    var lines: [String] = []
    let executor: SimulatedExecutor
    init(_ executor: SimulatedExecutor) { self.executor = executor }
    func note(_ line: String) { lines.append("\(executor.now) \(line)") }
}

actor Counter {
    var value = 0
    func next() -> Int {
        value += 1
        return value
    }

    /// Counts after a sleep in the actor's own isolation (where the sleep asks the actor's
    /// executor first, then the default one).
    func nextAfterSleeping(seconds: Int) async -> Int {
        try? await Task.sleep(for: .seconds(seconds))
        return next()
    }
}

@MainActor var mainActorVisits = 0

@MainActor func visitMainActor(_ journal: Journal) {
    mainActorVisits += 1
    journal.note("on the main actor: \(MainActor.assumeIsolated { true })")
}

/// Code in the shape apps write: tasks, a detached task, `async let`, an actor (which sleeps in
/// its own isolation), the main actor,
/// a task group whose children sleep different times, and a long sleep cancelled by another task.
func appWork(_ journal: Journal) async {
    let counter = Counter()
    async let first = counter.next()
    async let second = counter.next()
    let detached = Task.detached { await counter.next() }
    let values = await [first, second, detached.value]
    journal.note("counted \(values)")
    journal.note("counted \(await counter.nextAfterSleeping(seconds: 2)) after the actor slept")
    try? await Task.sleep(nanoseconds: 5_000_000_000)
    journal.note("slept 5 s (nanoseconds)")
    try? await Task.sleep(for: .seconds(7))
    journal.note("slept 7 s (Duration)")
    await visitMainActor(journal)
    await withTaskGroup(of: Int.self) { group in
        for child in 0..<4 {
            group.addTask {
                try? await Task.sleep(for: .milliseconds(100 * (4 - child)))
                return child
            }
        }
        for await child in group { journal.note("child \(child) done") }
    }
    let long = Task { try await Task.sleep(for: .seconds(3_600)) }
    Task {
        try? await Task.sleep(for: .seconds(600))
        long.cancel()
    }
    do {
        try await long.value
        journal.note("long sleep ended: finished")
    } catch {
        journal.note("long sleep ended: cancelled")
    }
}

/// One simulation of ``appWork(_:)`` on the calling thread: its journal, the end instant and the
/// jobs run.
func simulateAppWork() throws -> [String] {
    let executor = try SimulatedExecutor()
    let journal = Journal(executor)
    try executor.withBound {
        Task { await appWork(journal) }
        try executor.runUntilIdle()
    }
    return journal.lines + ["idle at \(executor.now) after \(executor.jobsRun) jobs"]
}

@Suite("Simulated concurrency")
struct SimulatedExecutorTests {
    @Test("tasks, a detached task, async let, an actor (sleeping too), the main actor, a task group and sleeps run in simulated time, in one order")
    func appWorkRunsInSimulatedTime() throws {
        let lines = try simulateAppWork()
        #expect(lines.first == "0d 00:00:00.000 counted [1, 2, 3]", "\(lines)")
        #expect(lines.contains("0d 00:00:02.000 counted 4 after the actor slept"), "\(lines)")
        #expect(lines.contains("0d 00:00:07.000 slept 5 s (nanoseconds)"), "\(lines)")
        #expect(lines.contains("0d 00:00:14.000 slept 7 s (Duration)"), "\(lines)")
        #expect(lines.contains("0d 00:00:14.000 on the main actor: true"), "\(lines)")
        // The children finish in order of their sleeps, not of their creation.
        let children = lines.filter { $0.contains("child") }
        #expect(children == ["0d 00:00:14.100 child 3 done", "0d 00:00:14.200 child 2 done",
                             "0d 00:00:14.300 child 1 done", "0d 00:00:14.400 child 0 done"], "\(lines)")
        #expect(lines.contains("0d 00:10:14.400 long sleep ended: cancelled"), "\(lines)")
        // The cancelled sleep is withdrawn: nothing is left for its hour.
        #expect(lines.last?.hasPrefix("idle at 0d 00:10:14.400") == true, "\(lines)")
    }

    @Test("the same code gives the same journal and job count on 100 runs, and in 8 simulations at once on other threads")
    func sameCodeSameOrder() throws {
        let reference = try simulateAppWork()
        for _ in 0..<100 { let lines = try simulateAppWork(); #expect(lines == reference, "\(lines.last!) vs \(reference.last!)") }
        let results = Mutex<[[String]]>(Array(repeating: [], count: 8))
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let lines = (try? simulateAppWork()) ?? ["failed"]
            results.withLock { $0[index] = lines }
        }
        #expect(results.withLock { $0 }.allSatisfy { $0 == reference })
    }

    @Test("work that never lets the simulated time move stops with a message after the job limit, not a hang")
    func runawayWorkStops() throws {
        let executor = try SimulatedExecutor()
        executor.jobLimit = 10_000
        #expect(throws: SimulatedExecutor.Runaway.self) {
            try executor.withBound {
                Task {
                    while true { await Task.yield() }
                }
                try executor.runUntilIdle()
            }
        }
    }

    @Test("advance(to:) releases timed work up to the instant only, and never moves time back")
    func advanceStopsAtTheInstant() throws {
        let executor = try SimulatedExecutor()
        let journal = Journal(executor)
        try executor.withBound {
            Task {
                for step in 1...3 {
                    try? await Task.sleep(for: .seconds(60))
                    journal.note("step \(step)")
                }
            }
            try executor.advance(to: SimInstant(nanosecondsSinceStart: 150_000_000_000))
            #expect(journal.lines == ["0d 00:01:00.000 step 1", "0d 00:02:00.000 step 2"])
            #expect(executor.now == SimInstant(nanosecondsSinceStart: 150_000_000_000))
            #expect(executor.nextDeadline == SimInstant(nanosecondsSinceStart: 180_000_000_000))
            try executor.advance(to: .start)
            #expect(executor.now == SimInstant(nanosecondsSinceStart: 150_000_000_000))
            try executor.runUntilIdle()
        }
        #expect(journal.lines.last == "0d 00:03:00.000 step 3")
        #expect(executor.isIdle)
    }
}
