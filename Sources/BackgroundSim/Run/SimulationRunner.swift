import SimKernel

/// Runs a scenario for a number of days from a seed and reports what happened.
///
///     let result = try SimulationRunner.run(scenario: Presets.scenario(named: "device-only")!, seed: 1, days: 30)
///     print(result.device.screenOnHoursPerDay, result.digest)
///
/// The same scenario, seed and days give the same result and digest in any process.
public enum SimulationRunner {
    /// The most days one run may simulate: 100,000 (about 274 years), within the 64-bit
    /// nanosecond clock's reach of 106,751 days. The one limit on simulated time: every time a
    /// scenario, a fragment, a replay file or a field log gives lies within it (``hours``), and
    /// every command's `--days` and every sweep's and tuning's `days` stop at it.
    public static let maximumDays = 100_000

    /// The instants a scenario may name, in hours since the start: from 0 to ``maximumDays``
    /// days, so that no time converted to the clock's nanoseconds can overflow.
    public static let hours = 0.0...(24 * Double(maximumDays))

    /// The whole numbers of days a command may be asked to simulate.
    public static let days = 1...maximumDays

    /// Runs `scenario` for `days` days.
    ///
    /// - Parameters:
    ///   - policy: Makes the app's policy for each process launch, overriding the scenario's
    ///     `app.policy` (this is how a test runs its own policy).
    ///   - policies: The registry the scenario's `app.policy` names a policy in.
    ///   - tracer: Sees every fired event, if given.
    ///   - log: Sees every ``SystemLogEvent`` of the iOS model, if given.
    /// - Throws: ``ScenarioError`` naming every field out of range (the scenario is validated
    ///   however it was built) or a bad `days`; `SimulationError` if the run hits a limit.
    public static func run(
        scenario: Scenario, seed: UInt64, days: Int,
        policy: (() -> any BackgroundPolicy)? = nil,
        policies: PolicyRegistry = .builtIn,
        tracer: ((TraceRecord) -> Void)? = nil,
        log: ((SystemLogEntry) -> Void)? = nil
    ) throws -> RunResult {
        try run(scenario: scenario, seed: seed, days: days, policy: policy, policies: policies, tracer: tracer, log: log,
                configure: { _ in })
    }

    /// ``run(scenario:seed:days:policy:policies:tracer:log:)`` with the package's hooks:
    /// `configure` adjusts the system before the run (for tests), and `observer` sees every
    /// event with the device and the system after it (for trace builders and checkers).
    package static func run(
        scenario: Scenario, seed: UInt64, days: Int,
        policy: (() -> any BackgroundPolicy)? = nil,
        policies: PolicyRegistry = .builtIn,
        tracer: ((TraceRecord) -> Void)? = nil,
        log: ((SystemLogEntry) -> Void)? = nil,
        configure: (SimulatedSystem) -> Void,
        observer: ((WorldEvent, SimInstant, Device, SimulatedSystem) -> Void)? = nil
    ) throws -> RunResult {
        try requireValid(days: days)
        var setup = try RunSetup(scenario: scenario, seed: seed, policy: policy, policies: policies)
        setup.simulation.tracer = tracer
        let system = setup.world.system
        let end = SimInstant.start + .days(days)
        system.work.runEnd = end
        system.log = log
        configure(system)
        setup.world.observer = observer
        try setup.simulation.run(until: end, handler: &setup.world)
        precondition(setup.simulation.now <= end, "SimulationRunner: the clock ran past the run's end")
        var finished = setup.world.device
        finished.advance(to: end)
        system.observe(finished, at: end)
        var appMetrics = system.appMetrics
        appMetrics.finish(at: end)
        precondition(finished.lastMetricsUpdate == end && system.snapshot.now == end, "SimulationRunner: the device or the system stopped short of the end")
        return RunResult(
            scenarioName: scenario.name, seed: seed, days: days, digest: setup.simulation.digest,
            events: setup.simulation.firedEventCount,
            device: DeviceReport(device: finished, days: days),
            os: SystemReport(metrics: system.metrics, days: days),
            work: WorkReport(metrics: system.work.finish(at: end), days: days),
            energy: EnergyReport(device: finished, days: days, backgroundWakes: system.metrics.backgroundWakes),
            app: AppReport(metrics: appMetrics, days: days))
    }

    /// Throws unless `days` is from 0 to ``maximumDays``.
    package static func requireValid(days: Int) throws(ScenarioError) {
        guard (0...maximumDays).contains(days) else {
            throw ScenarioError(source: "SimulationRunner", issues: [
                ScenarioIssue(path: "days", message: "expected a whole number from 0 to \(maximumDays), got \(days)"),
            ])
        }
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
    /// The app's own metrics, from its signposts.
    public var app: AppReport
}
