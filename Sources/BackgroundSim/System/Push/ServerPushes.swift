/// The silent pushes the app's server sends (`content-available`, `apns-push-type: background`,
/// priority 5): the scenario's `pushes` section. None by default.
///
///     "pushes": { "schedule": "cadence", "everyMinutes": 60 }
///     "pushes": { "schedule": "poisson", "perHour": 2 }
///     "pushes": { "schedule": "times", "atHours": [8.5, 12, 19.25] }
///
/// Sending is the server's business and does not depend on the phone: what reaches the app, and
/// when, is the system's (``PushParameters``). Apple asks senders to keep background pushes to
/// "two or three per hour" ("Pushing background updates to your app" [A]).
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct ServerPushes: Codable, Sendable, Equatable {
    /// How the server's sends are spaced.
    public enum Schedule: String, NamedChoice, Sendable {
        /// No pushes.
        case none
        /// One every ``everyMinutes``, the first that long after the start.
        case cadence
        /// At random, ``perHour`` on average (a Poisson process, from its own labelled stream).
        case poisson
        /// At the given ``atHours``.
        case times
    }

    /// None.
    public init() {}

    /// The schedule. Default `none`.
    public var schedule: Schedule = .none
    /// `cadence`: minutes between sends.
    public var everyMinutes: Double = 60
    /// `poisson`: sends an hour on average.
    public var perHour: Double = 1
    /// `times`: hours since the start of the simulation, in any order. Up to ``maximumEntries``;
    /// each valid 0–24,000,000.
    public var atHours: [Double] = []

    /// The most given times.
    public static let maximumEntries = 100_000

    /// One given time, for the scenario schema.
    static let example: ServerPushes = {
        var pushes = ServerPushes()
        pushes.atHours = [0]
        return pushes
    }()

}

extension ServerPushes: ScenarioSection {
    package static let numberFields: [NumberField<ServerPushes>] = [
        NumberField("everyMinutes", \.everyMinutes, valid: 1...10_080),
        NumberField("perHour", \.perHour, valid: 0.001...60, unit: "1/h"),
    ]

    package func validateRelations(_ v: inout ParameterValidator) {
        v.require(atHours.count <= Self.maximumEntries, "atHours", "expected at most \(Self.maximumEntries) times, got \(atHours.count)")
        for (index, hours) in atHours.enumerated() { v.check(hours, SimulationRunner.hours, "atHours[\(index)]") }
    }
}
