import BackgroundSim

/// Runs one scenario over many seeds in parallel and returns the results in seed order, so the
/// output is the same for any number of jobs.
public enum Replications {
    /// The number of cores, the default for `jobs`.
    public static var defaultJobs: Int { ParallelRuns.defaultJobs }

    /// Runs `scenario` for `days` days with each of `seeds`, on up to `jobs` threads.
    ///
    /// Each run is independent (its randomness comes from its seed alone), and each result is
    /// stored at its seed's index, so the order in which threads finish cannot show.
    ///
    /// - Parameters:
    ///   - policies: The registry the scenario's `app.policy` names a policy in.
    ///   - modelUncertainty: If given, each seed runs under its own draw of the iOS model's
    ///     uncertain numbers (``ModelUncertainty/draw(seed:)``), the same for any scenario.
    ///   - progress: Called after each run (from any thread).
    /// - Throws: ``ScenarioError`` before any run if the scenario (or a seed's draw of it) or
    ///   `days` is invalid.
    public static func run(
        _ scenario: Scenario, seeds: [UInt64], days: Int, jobs: Int = defaultJobs, policies: PolicyRegistry = .builtIn,
        modelUncertainty: ModelUncertainty? = nil, progress: (@Sendable () -> Void)? = nil
    ) throws -> [RunResult] {
        try scenario.requireValid(policies: policies)
        try SimulationRunner.requireValid(days: days)
        let variants = try modelUncertainty.map { uncertainty in
            try seeds.map { seed throws(ScenarioError) in try uncertainty.applying(uncertainty.draw(seed: seed), to: scenario, policies: policies) }
        }
        return try ParallelRuns.map(count: seeds.count, jobs: jobs, progress: progress) { index in
            try SimulationRunner.run(scenario: variants?[index] ?? scenario, seed: seeds[index], days: days, policies: policies)
        }
    }
}
