/// What a developer types into Xcode's debugger to test background tasks, replayed at given
/// times: the scenario's `debugger` section.
///
/// Apple's "Starting and Terminating Tasks During Development" gives two commands, typed while
/// the app is paused in the debugger on a device:
///
///     e -l objc -- (void)[[BGTaskScheduler sharedScheduler] _simulateLaunchForTaskWithIdentifier:@"ID"]
///     e -l objc -- (void)[[BGTaskScheduler sharedScheduler] _simulateExpirationForTaskWithIdentifier:@"ID"]
///
/// In a scenario:
///
///     "debugger": {
///       "simulateLaunch": [{ "atHours": 9.5, "identifier": "com.example.refresh" }],
///       "simulateExpiration": [{ "atHours": 9.51, "identifier": "com.example.refresh" }]
///     }
///
/// A simulated launch delivers the pending request with that identifier at once, whatever the
/// launch model, Low Power Mode or the other rules would decide, and the task it starts is never
/// expired by the system (not for time, user activity, power or network): only a simulated
/// expiration ends it early — as on a device under the debugger. Both act on the app's running
/// process, as the debugger can (a suspended app is resumed); with no process, no pending
/// request or no running task of that identifier they do nothing, and the trace says why. A team
/// can so replay its Xcode session and compare it with what real scheduling does.
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct DebuggerCommands: Codable, Sendable, Equatable {
    /// None.
    public init() {}

    /// `_simulateLaunchForTaskWithIdentifier:` at given times.
    public var simulateLaunch: [Command] = []

    /// `_simulateExpirationForTaskWithIdentifier:` at given times.
    public var simulateExpiration: [Command] = []

    /// One command: when, in hours since the simulation started, and for which task identifier.
    public struct Command: Codable, Sendable, Equatable {
        /// Valid 0–24,000,000.
        public var atHours: Double
        /// A task identifier (not empty).
        public var identifier: String

        public init(atHours: Double, identifier: String) {
            self.atHours = atHours
            self.identifier = identifier
        }
    }

    /// The most commands of each kind.
    public static let maximumEntries = 1_000

    /// One command of each kind, for the scenario schema.
    static let example: DebuggerCommands = {
        var commands = DebuggerCommands()
        commands.simulateLaunch = [Command(atHours: 0, identifier: "identifier")]
        commands.simulateExpiration = [Command(atHours: 0, identifier: "identifier")]
        return commands
    }()

    /// Whether there are no commands.
    public var isEmpty: Bool { simulateLaunch.isEmpty && simulateExpiration.isEmpty }

}

extension DebuggerCommands: ScenarioSection {
    package static let numberFields: [NumberField<DebuggerCommands>] = []

    package func validateRelations(_ v: inout ParameterValidator) {
        for (kind, commands) in [("simulateLaunch", simulateLaunch), ("simulateExpiration", simulateExpiration)] {
            v.require(commands.count <= Self.maximumEntries, kind, "expected at most \(Self.maximumEntries) commands, got \(commands.count)")
            for (index, command) in commands.enumerated() {
                v.check(command.atHours, SimulationRunner.hours, "\(kind)[\(index)].atHours")
                v.require(!command.identifier.isEmpty, "\(kind)[\(index)].identifier", "expected a task identifier")
            }
        }
    }
}
