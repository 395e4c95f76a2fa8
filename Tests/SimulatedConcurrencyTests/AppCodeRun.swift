import BackgroundSim
import SimKernel
import SimulatedBackgroundTasks

/// One run of an app's own code: its delegate, made by `make` at each launch, registered as the
/// policy `name`, in a scenario whose JSON is `scenario` with `"app": {"policy": name, …}`
/// added (`permittedIdentifiers` are the task identifiers). Returns the run and its log.
///
/// By default the app's code runs in the test's own process (``AppProcessIsolation/sharedProcess``),
/// so that a test can read what the code wrote to the journals it shares with it;
/// `ProcessIsolationTests` runs the same apps with a process per launch and requires the same log.
func runAppCode(_ name: String, taskIdentifiers: [String] = [], server: SimulatedServer = .empty, scenario: String = "{}",
                seed: UInt64 = 1, days: Int, isolation: AppProcessIsolation = .sharedProcess,
                make: @escaping @Sendable () -> any UIApplicationDelegate) throws
    -> (result: RunResult, log: [SystemLogEvent]) {
    var policies = PolicyRegistry.builtIn
    try policies.register(.appDelegate(name: name, summary: "App code under test.", taskIdentifiers: taskIdentifiers,
                                       server: server, isolation: isolation, make: make))
    var object = try JSONSerialization.jsonObject(with: Data(scenario.utf8)) as? [String: Any] ?? [:]
    object["app"] = ["policy": name, "permittedIdentifiers": taskIdentifiers]
    let json = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    let decoded = try ScenarioLoader.decode(json, source: "\(name).json", policies: policies)
    var log: [SystemLogEvent] = []
    let result = try SimulationRunner.run(scenario: decoded, seed: seed, days: days, policies: policies, log: { log.append($0.event) })
    return (result, log)
}
