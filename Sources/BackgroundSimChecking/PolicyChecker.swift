import BackgroundSim
import Foundation
import SimKernel

/// Runs a scenario over many seeds and checks invariants over every run.
///
///     let checker = PolicyChecker(scenario: Presets.scenario(named: "coverdrop-designed")!, days: 7,
///                                 invariants: Invariants.standard + [WorkCompletesWithin(hours: 24)])
///     let report = try checker.check(seeds: Array(1...1_000))
///     if let failure = report.firstFailure { print(failure.violations[0]) }
///
/// Each seed's run is independent and the report lists runs in seed order, so the result is the
/// same for any number of jobs. With ``swarm`` set, each seed also draws its own scenario around
/// the base one (user habits, network, launch model, faults): see ``Swarm``.
public struct PolicyChecker: Sendable {
    public var scenario: Scenario
    public var days: Int
    public var invariants: [any Invariant]
    /// Makes the app's policy for each process launch, instead of the scenario's `app.policy`
    /// (a test's own policy).
    public var policy: (@Sendable () -> any BackgroundPolicy)?
    /// Draw each seed's scenario around ``scenario``, when set.
    public var swarm: Swarm?
    /// The most violations kept per run.
    public var violationLimit = 10

    public init(scenario: Scenario, days: Int = 7, invariants: [any Invariant] = Invariants.standard,
                policy: (@Sendable () -> any BackgroundPolicy)? = nil, swarm: Swarm? = nil) {
        self.scenario = scenario
        self.days = days
        self.invariants = invariants
        self.policy = policy
        self.swarm = swarm
    }

    /// The scenario seed `seed` runs: ``scenario``, or the swarm's draw around it.
    public func scenario(forSeed seed: UInt64) -> Scenario {
        swarm.map { $0.scenario(around: scenario, seed: seed, days: days) } ?? scenario
    }

    /// Checks one run of `scenario` (by default, this seed's) for `days` days.
    ///
    /// - Throws: ``ScenarioIssue`` if the scenario cannot be realised.
    public func check(seed: UInt64, scenario given: Scenario? = nil, days givenDays: Int? = nil) throws -> RunCheck {
        let scenario = given ?? scenario(forSeed: seed)
        let days = givenDays ?? self.days
        let context = RunContext(scenario: scenario, limit: violationLimit, names: invariants.map(\.name))
        let observer = CheckObserver(invariants: invariants, context: context)
        let result = try SimulationRunner.run(
            scenario: scenario, seed: seed, days: days, policy: policy.map { make in { make() } },
            log: { observer.observe($0) }, configure: { _ in },
            observer: { event, now, device, system in observer.observe(event, now: now, device: device, system: system) })
        return RunCheck(seed: seed, days: days, source: .kept(ScenarioBox(scenario)), violations: observer.context.violations,
                        clockJumps: observer.clockJumps, digest: result.digest)
    }

    /// Checks every seed, `jobs` runs at a time; the report lists runs in seed order.
    ///
    /// - Parameter progress: Called after each run (from any thread).
    ///
    /// - Throws: ``ScenarioError`` before any run if the scenario or ``days`` is invalid.
    public func check(seeds: [UInt64], jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                      progress: (@Sendable () -> Void)? = nil) throws -> CheckReport {
        try scenario.requireValid()
        try SimulationRunner.requireValid(days: days)
        // A passing run keeps no scenario of its own, only how to draw it again: memory stays
        // small per seed however many seeds are checked.
        let base = ScenarioBox(scenario)
        let runs = try ParallelRuns.map(count: seeds.count, jobs: jobs, progress: progress) { index in
            var run = try check(seed: seeds[index])
            if run.passed {
                run.source = .drawn(base: base, swarm: swarm, seed: run.seed, days: days)
                run.clockJumps = []
            }
            return run
        }
        return CheckReport(days: days, runs: runs)
    }

    /// Checks `count` consecutive seeds from `first`, `jobs` runs at a time, keeping only the
    /// runs that broke an invariant: memory grows with the failures and the jobs, not with the
    /// seeds asked for (`bgsim check --seeds 10000000`). The report's ``CheckReport/runs`` are
    /// the failing runs, in seed order, and ``CheckReport/seedsChecked`` counts them all.
    ///
    /// - Parameter progress: Called after each run (from any thread).
    ///
    /// - Throws: ``ScenarioError`` before any run if the scenario or ``days`` is invalid.
    public func checkKeepingFailures(first: UInt64, count: Int, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                                     progress: (@Sendable () -> Void)? = nil) throws -> CheckReport {
        try scenario.requireValid()
        try SimulationRunner.requireValid(days: days)
        precondition(count >= 0 && (count == 0 || first <= UInt64.max - UInt64(count - 1)), "PolicyChecker: seeds run past 2^64 - 1")
        var failures: [RunCheck] = []
        // Batches of a few thousand runs a job: ParallelRuns holds one batch's results.
        let batch = 4_096 * Swift.max(1, jobs)
        var done = 0
        while done < count {
            let size = Swift.min(batch, count - done)
            let start = first + UInt64(done)
            let runs = try ParallelRuns.map(count: size, jobs: jobs, progress: progress) { index -> RunCheck? in
                let run = try check(seed: start + UInt64(index))
                return run.passed ? nil : run
            }
            failures += runs.compactMap { $0 }
            done += size
        }
        var report = CheckReport(days: days, runs: failures)
        report.seedsChecked = count
        return report
    }
}

/// One checked run: its seed, scenario and days, and the violations found, in time order.
public struct RunCheck: Sendable {
    public var seed: UInt64
    public var days: Int
    /// The scenario the run used.
    public var scenario: Scenario {
        switch source {
        case .kept(let box): box.scenario
        case .drawn(let base, let swarm, let seed, let days): swarm.map { $0.scenario(around: base.scenario, seed: seed, days: days) } ?? base.scenario
        }
    }
    /// Where ``scenario`` comes from: kept (a failing run, or one checked alone), or drawn again
    /// when asked (a passing run of ``PolicyChecker/check(seeds:jobs:progress:)``).
    var source: ScenarioSource
    public var violations: [Violation]
    /// The device clock jumps that happened, for shrinking (random ones made explicit); empty for
    /// a passing run of a many-seed check.
    public var clockJumps: [ClockJump]
    public var digest: TraceDigest

    /// Whether every invariant held.
    public var passed: Bool { violations.isEmpty }
}

/// The runs of a check, in seed order.
public struct CheckReport: Sendable {
    public var days: Int
    /// The runs kept: every run, or only the failing ones
    /// (``PolicyChecker/checkKeepingFailures(first:count:jobs:progress:)``).
    public var runs: [RunCheck]
    /// How many seeds were checked (passing runs not kept included).
    public var seedsChecked: Int

    public init(days: Int, runs: [RunCheck]) {
        self.days = days
        self.runs = runs
        seedsChecked = runs.count
    }

    /// The runs that broke an invariant.
    public var failures: [RunCheck] { runs.filter { !$0.passed } }

    /// The failing run whose first violation comes earliest in the run (the lowest seed on
    /// ties): the best start for shrinking.
    public var firstFailure: RunCheck? {
        failures.min { ($0.violations[0].time, $0.seed) < ($1.violations[0].time, $1.seed) }
    }

    /// How many runs broke each invariant (by its first violation), in name order.
    public var failuresByInvariant: [(invariant: String, runs: Int)] {
        var counts: [String: Int] = [:]
        for run in failures { counts[run.violations[0].invariant, default: 0] += 1 }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

/// Feeds a run's log entries and events to the invariants.
final class CheckObserver {
    var invariants: [any Invariant]
    var context: RunContext
    var clockJumps: [ClockJump] = []

    init(invariants: [any Invariant], context: RunContext) {
        self.invariants = invariants
        self.context = context
    }

    func observe(_ entry: SystemLogEntry) {
        context.now = entry.time
        for index in invariants.indices {
            context.current = index
            invariants[index].observe(entry, in: &context)
        }
    }

    func observe(_ event: WorldEvent, now: SimInstant, device: borrowing Device, system: SimulatedSystem) {
        context.now = now
        let event: DeviceEvent? = if case .device(let event) = event { event } else { nil }
        if case .clockJump(let seconds)? = event {
            clockJumps.append(ClockJump(atHours: Double(now.nanosecondsSinceStart) / 3_600_000_000_000, byMinutes: Double(seconds) / 60))
        }
        for index in invariants.indices {
            context.current = index
            invariants[index].observe(event, device: device, system: system, in: &context)
        }
    }
}

/// A scenario held by reference, so that many runs can share one.
final class ScenarioBox: Sendable {
    let scenario: Scenario
    init(_ scenario: Scenario) { self.scenario = scenario }
}

/// Where a ``RunCheck``'s scenario comes from.
enum ScenarioSource: Sendable {
    case kept(ScenarioBox)
    /// The checker's scenario, or the swarm's draw around it for the seed.
    case drawn(base: ScenarioBox, swarm: Swarm?, seed: UInt64, days: Int)
}
