import SimKernel

/// Runs a scenario for a number of days from a seed and reports what happened.
///
///     let result = try SimulationRunner.run(scenario: Presets.scenario(named: "device-only")!, seed: 1, days: 30)
///     print(result.device.screenOnHoursPerDay, result.digest)
///
/// The same scenario, seed and days give the same result and digest in any process.
public enum SimulationRunner {
    /// Runs `scenario` for `days` days.
    ///
    /// - Parameters:
    ///   - policy: Makes the app's policy for each process launch, overriding the scenario's
    ///     `app.policy` (this is how a test runs its own policy).
    ///   - tracer: Sees every fired event, if given.
    ///   - log: Sees every lifecycle transition, assertion, submit, launch, expiration, completion
    ///     and kill of the iOS model, if given.
    /// - Throws: ``ScenarioIssue`` if the scenario cannot be realised; `SimulationError` if the
    ///   run hits a limit.
    public static func run(
        scenario: Scenario, seed: UInt64, days: Int,
        policy: (() -> any BackgroundPolicy)? = nil,
        tracer: ((TraceRecord) -> Void)? = nil,
        log: ((SystemLogEntry) -> Void)? = nil
    ) throws -> RunResult {
        try run(scenario: scenario, seed: seed, days: days, policy: policy, tracer: tracer, log: log, configure: { _ in })
    }

    /// Runs `scenario` with `observer` seeing every event and the device and the system after it
    /// (for trace builders and checkers, which need the state, not only the events).
    ///
    /// - Parameter policy: Makes the app's policy for each process launch, overriding the
    ///   scenario's `app.policy`.
    public static func run(
        scenario: Scenario, seed: UInt64, days: Int,
        policy: (() -> any BackgroundPolicy)? = nil,
        log: ((SystemLogEntry) -> Void)?,
        observer: @escaping (WorldEvent, SimInstant, Device, SimulatedSystem) -> Void
    ) throws -> RunResult {
        try run(scenario: scenario, seed: seed, days: days, policy: policy, tracer: nil, log: log, configure: { _ in },
                observer: observer)
    }

    /// ``run(scenario:seed:days:policy:tracer:log:)`` with a hook that adjusts the system
    /// before the run, for the package's tests.
    package static func run(
        scenario: Scenario, seed: UInt64, days: Int,
        policy: (() -> any BackgroundPolicy)?,
        tracer: ((TraceRecord) -> Void)?,
        log: ((SystemLogEntry) -> Void)?,
        configure: (SimulatedSystem) -> Void,
        observer: ((WorldEvent, SimInstant, Device, SimulatedSystem) -> Void)? = nil
    ) throws -> RunResult {
        precondition(days >= 0, "SimulationRunner: days must not be negative")
        var simulation = Simulation<WorldEvent>()
        simulation.tracer = tracer
        var device = try Device(scenario: scenario, seed: seed)
        device.start(in: &simulation)
        let makePolicy = policy ?? PolicyCatalog.entry(named: scenario.app.policy)?.make.map { make in { make(scenario) } }
        let system = SimulatedSystem(parameters: scenario.system, app: scenario.app, calendar: scenario.calendar.calendar, seed: seed,
                                     work: scenario.work, network: scenario.network, energy: scenario.energy,
                                     faults: scenario.faults, makePolicy: makePolicy)
        system.log = log
        configure(system)
        system.start(in: &simulation)
        var world = World(device: device, system: system)
        world.observer = observer
        let end = SimInstant.start + .days(days)
        try simulation.run(until: end, handler: &world)
        var finished = world.device
        finished.advance(to: end)
        system.observe(finished, at: end)
        return RunResult(
            scenarioName: scenario.name, seed: seed, days: days, digest: simulation.digest,
            events: simulation.firedEventCount,
            device: DeviceReport(device: finished, days: days),
            os: SystemReport(metrics: system.metrics, days: days),
            work: WorkReport(metrics: system.work.finish(at: end), days: days),
            energy: EnergyReport(device: finished, days: days))
    }
}

/// The outcome of one run.
public struct RunResult: Sendable, Equatable {
    public var scenarioName: String
    public var seed: UInt64
    public var days: Int
    /// The trace digest of every event fired.
    public var digest: TraceDigest
    /// How many events fired.
    public var events: UInt64
    public var device: DeviceReport
    /// The iOS model's `os` and `metricKit` groups.
    public var os: SystemReport
    /// The app's work.
    public var work: WorkReport
    /// What the app's work cost in energy.
    public var energy: EnergyReport
}
