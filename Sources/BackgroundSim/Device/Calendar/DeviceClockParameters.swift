/// When the device's displayed clock jumps: the user changes the time, the network corrects it,
/// or the user travels to another time zone.
///
/// Apps read the device clock, which may jump; the simulation itself runs on true time, which
/// never does. A jump forward is what lets CoverDrop-style rate limits be bypassed, so policies
/// need to be tested against it [Inf].
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct DeviceClockParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// Jumps at given times.
    public var jumps: [ClockJump] = []

    /// Random jumps per day, on average (Poisson). [Inf]
    public var randomJumpsPerDay: Double = 0

    /// Standard deviation of a random jump, in minutes (normal, either direction).
    ///
    /// [Inf]
    public var randomJumpSigmaMinutes: Double = 60
}

/// One jump of the device clock.
public struct ClockJump: Codable, Sendable, Equatable {
    /// When it happens, in hours since the simulation started. Valid ≥ 0.
    public var atHours: Double
    /// How far the displayed clock moves, in minutes; negative moves it back. Valid ±525,600.
    public var byMinutes: Double

    public init(atHours: Double, byMinutes: Double) {
        self.atHours = atHours
        self.byMinutes = byMinutes
    }
}

extension DeviceClockParameters: ScenarioSection {
    package static let numberFields: [NumberField<DeviceClockParameters>] = [
        NumberField("randomJumpsPerDay", \.randomJumpsPerDay, valid: 0...24),
        NumberField("randomJumpSigmaMinutes", \.randomJumpSigmaMinutes, valid: 0...10_080),
    ]

    package func validateRelations(_ v: inout ParameterValidator) {
        for (index, jump) in jumps.enumerated() {
            v.check(jump.atHours, SimulationRunner.hours, "jumps[\(index)].atHours")
            v.check(jump.byMinutes, -525_600...525_600, "jumps[\(index)].byMinutes")
        }
    }
}
