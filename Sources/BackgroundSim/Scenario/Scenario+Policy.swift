extension Scenario {
    /// This scenario with its app running the policy `make` creates (one per process launch),
    /// named `name` in outputs: how a policy written in Swift joins any experiment that takes
    /// scenarios — replications, comparisons, sweeps, the what-if, the checker.
    ///
    ///     let mine = Presets.scenario(named: "proton-upload-designed")!.running("mine") { MyUploadPolicy() }
    ///     let comparison = try Comparison.run([("proton", proton), ("mine", mine)], seeds: Array(1...40), days: 90, jobs: 2)
    ///
    /// The task identifiers the policy uses must be in ``AppParameters/permittedIdentifiers``.
    public func running(_ name: String, policy make: @escaping @Sendable () -> any BackgroundPolicy) -> Scenario {
        var scenario = self
        scenario.app.policy = PolicyConfiguration(PolicyDefinition(name: name, summary: "A policy given in Swift.", make: make))
        return scenario
    }
}
