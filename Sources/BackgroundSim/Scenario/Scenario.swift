/// A complete description of a simulation run: the calendar, the user, the phone, its power and
/// network, the iOS model, the app with its background policy and workload, and faults.
///
/// A scenario is a JSON document. Every parameter has a default, so `{}` is a valid scenario;
/// a file names only what differs. ``ScenarioLoader`` reads and validates files; ``Presets``
/// holds the built-in ones.
///
///     {
///       "name": "heavy-user",
///       "user": { "sessionsPerDay": 100, "app": { "profile": "severalTimesADay" } },
///       "device": { "model": "iPhone 12 mini", "batteryHealth": 0.85 }
///     }
public struct Scenario: Codable, Sendable, Equatable {
    /// A short name, shown in outputs. Default "custom".
    public var name: String = "custom"

    /// What the scenario is for, in a sentence. Default empty.
    public var description: String = ""

    /// When the simulation starts, local time.
    public var calendar = CalendarParameters()

    /// The person using the phone.
    public var user = UserParameters()

    /// The phone: model, battery, baseline power, thermal model.
    public var device = DeviceParameters()

    /// Charging and Low Power Mode.
    public var power = PowerParameters()

    /// Restarts besides an empty battery: overnight iOS updates and the inactivity reboot.
    public var restarts = RestartParameters()

    /// Wi-Fi, cellular and no service over the day.
    public var network = NetworkParameters()

    /// Radio and CPU power for the app's work.
    public var energy = EnergyParameters()

    /// Jumps of the device's displayed clock.
    public var clock = DeviceClockParameters()

    /// The app: its background policy and what its Info.plist declares.
    public var app = AppParameters()

    /// The iOS background-execution model: budgets, limits, the launch model.
    public var system = SystemParameters()

    /// The app's workload: arrivals, sizes, deadlines.
    public var work = WorkParameters()

    /// Faults injected at given times (none by default).
    public var faults = FaultPlan()

    /// Xcode debugger commands replayed at given times (none by default).
    public var debugger = DebuggerCommands()

    /// The silent pushes the app's server sends (none by default).
    public var pushes = ServerPushes()

    /// Narrower plausible ranges for some of the iOS model's uncertain numbers, for
    /// `--model-uncertainty` (none by default: docs/SCENARIOS.md's ranges).
    public var plausible: [PlausibleRange] = []

    public init() {}
}

/// When the simulation starts.
public struct CalendarParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// The local date of day 0. Default 2026-01-05, a Monday.
    public var startDate: CivilDate = CivilDate(year: 2026, month: 1, day: 5)!
    /// The local time at which the simulation starts. Default 00:00.
    public var startTime: TimeOfDay = TimeOfDay(hour: 0)

    /// The calendar these parameters describe.
    public var calendar: SimCalendar { SimCalendar(startDate: startDate, startTime: startTime) }
}
