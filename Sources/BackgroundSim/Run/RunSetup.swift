import SimKernel

/// A world built from a scenario and a seed, with its simulation, ready to run: the one wiring
/// of the device, the iOS model and the app's policy that runs, checks and tests all share.
///
/// Building one validates the scenario first: a value out of range, however the scenario was
/// made, is a ``ScenarioError`` naming its field, never a trap.
package struct RunSetup {
    package var simulation = Simulation<WorldEvent>()
    package var world: World

    /// - Parameters:
    ///   - policy: Makes the app's policy for each process launch, instead of the scenario's
    ///     `app.policy`.
    ///   - policies: The registry `app.policy` names a policy in.
    package init(scenario: Scenario, seed: UInt64, policy: (() -> any BackgroundPolicy)? = nil,
                 policies: PolicyRegistry = .builtIn) throws(ScenarioError) {
        try scenario.requireValid(policies: policies)
        let device: Device
        do {
            device = try Device(scenario: scenario, seed: seed)
        } catch {
            throw ScenarioError(source: scenario.name, issues: [error])
        }
        let definition = scenario.app.policy.resolved(in: policies)
        let makePolicy = policy ?? definition?.factory(for: scenario.app.policy.parameters)
        let system = SimulatedSystem(parameters: scenario.system, app: scenario.app, calendar: scenario.calendar.calendar, seed: seed,
                                     work: scenario.work, network: scenario.network, energy: scenario.energy,
                                     faults: scenario.faults, debugger: scenario.debugger, pushes: scenario.pushes, makePolicy: makePolicy)
        system.scenarioPolicy = policy == nil ? scenario.app.policy : nil
        world = World(device: device, system: system)
        world.start(in: &simulation)
    }
}

extension Scenario {
    /// Throws every problem ``validate(policies:)`` finds, naming the scenario as the source.
    package func requireValid(policies: PolicyRegistry = .builtIn) throws(ScenarioError) {
        let issues = validate(policies: policies)
        guard issues.isEmpty else { throw ScenarioError(source: "scenario \"\(name)\"", issues: issues) }
    }
}
