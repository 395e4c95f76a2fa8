/// Things that go wrong in the field, injected into a run at given times: the scenario's
/// `faults` section.
///
/// Every fault is data — a kind, a time or a window in hours since the simulation started, and
/// its size — so that a failing scenario can be written to a file, shrunk by removing faults one
/// by one, and replayed. Device clock jumps, the other fault a policy must survive, live in
/// ``DeviceClockParameters/jumps`` (explicit) and ``DeviceClockParameters/randomJumpsPerDay``.
///
///     "faults": {
///       "earlyExpirations": [{ "fromHours": 10, "toHours": 34, "afterSeconds": 3 }],
///       "jetsams": [{ "atHours": 20.5 }],
///       "backgroundAppRefreshOff": [{ "fromHours": 30, "toHours": 40 }],
///       "networkFlaps": [{ "fromHours": 8, "toHours": 9, "offSeconds": 20, "onSeconds": 40 }],
///       "submitErrors": [{ "fromHours": 0, "toHours": 6, "error": "unavailable" }],
///       "batteryDeaths": [{ "atHours": 44 }]
///     }
///
/// With no faults (the default) a run is exactly what it was without this section.
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct FaultPlan: Codable, Sendable, Equatable {
    /// The defaults: no faults.
    public init() {}

    /// Background tasks launched in a window expire after a few seconds, whatever their
    /// allotment: the system under load ending tasks early (developers report refresh tasks
    /// expiring 2–5 s after launch [O]).
    public var earlyExpirations: [EarlyExpiration] = []

    /// The system terminates the app at these times for memory pressure, if it is running in the
    /// background or suspended (a burst is several entries close together).
    public var jetsams: [Jetsam] = []

    /// Windows in which the user has switched Background App Refresh off for the app: submits
    /// fail with `unavailable` and no background task launches (pending requests wait).
    public var backgroundAppRefreshOff: [Window] = []

    /// Windows in which the network flaps: off for `offSeconds`, on for `onSeconds`, repeatedly.
    public var networkFlaps: [NetworkFlap] = []

    /// The most entries of each kind a plan may hold.
    public static let maximumEntries = 1_000

    /// The most off/on cycles all ``networkFlaps`` windows may ask for together: each window asks
    /// for (toHours − fromHours) × 3,600 / (offSeconds + onSeconds), and each cycle is two events.
    public static let maximumFlapCycles = 1_000_000.0

    /// Windows in which `BGTaskScheduler.submit` fails with a given error.
    public var submitErrors: [SubmitError] = []

    /// Times at which the battery empties at once (a failing battery, a cold snap): the phone
    /// turns off and comes back on only while charging.
    public var batteryDeaths: [Instant] = []

    /// One fault of each kind, for the scenario schema (every array needs an element to check
    /// elements against).
    static let example: FaultPlan = {
        var plan = FaultPlan()
        plan.earlyExpirations = [EarlyExpiration(fromHours: 0, toHours: 1, afterSeconds: 1)]
        plan.jetsams = [Jetsam(atHours: 0)]
        plan.backgroundAppRefreshOff = [Window(fromHours: 0, toHours: 1)]
        plan.networkFlaps = [NetworkFlap(fromHours: 0, toHours: 1, offSeconds: 1, onSeconds: 1)]
        plan.submitErrors = [SubmitError(fromHours: 0, toHours: 1, error: .unavailable)]
        plan.batteryDeaths = [Instant(atHours: 0)]
        return plan
    }()

    /// Whether there are no faults.
    public var isEmpty: Bool {
        earlyExpirations.isEmpty && jetsams.isEmpty && backgroundAppRefreshOff.isEmpty && networkFlaps.isEmpty
            && submitErrors.isEmpty && batteryDeaths.isEmpty
    }

    /// How many faults there are.
    public var count: Int {
        earlyExpirations.count + jetsams.count + backgroundAppRefreshOff.count + networkFlaps.count + submitErrors.count
            + batteryDeaths.count
    }

    /// A span of the run, in hours since it started.
    public struct Window: Codable, Sendable, Equatable {
        /// Valid ≥ 0.
        public var fromHours: Double
        /// Valid ≥ `fromHours`.
        public var toHours: Double

        public init(fromHours: Double, toHours: Double) {
            self.fromHours = fromHours
            self.toHours = toHours
        }

        /// Whether `hours` since the start falls in `[fromHours, toHours)`.
        ///
        /// - Precondition: `hours` ≥ 0 (a run's time never precedes its start).
        public func contains(hours: Double) -> Bool {
            assert(hours >= 0, "FaultPlan.Window: \(hours) hours before the start")
            return hours >= fromHours && hours < toHours
        }
    }

    /// A moment of the run, in hours since it started.
    public struct Instant: Codable, Sendable, Equatable {
        /// Valid ≥ 0.
        public var atHours: Double

        public init(atHours: Double) { self.atHours = atHours }
    }

    /// An ``earlyExpirations`` entry.
    public struct EarlyExpiration: Codable, Sendable, Equatable {
        public var fromHours: Double
        public var toHours: Double
        /// Seconds from launch to expiration. Valid 0–600.
        public var afterSeconds: Double

        public init(fromHours: Double, toHours: Double, afterSeconds: Double) {
            self.fromHours = fromHours
            self.toHours = toHours
            self.afterSeconds = afterSeconds
        }

        var window: Window { Window(fromHours: fromHours, toHours: toHours) }
    }

    /// A ``jetsams`` entry.
    public struct Jetsam: Codable, Sendable, Equatable {
        public var atHours: Double

        public init(atHours: Double) { self.atHours = atHours }
    }

    /// A ``networkFlaps`` entry.
    public struct NetworkFlap: Codable, Sendable, Equatable {
        public var fromHours: Double
        public var toHours: Double
        /// Seconds without network in each cycle. Valid 1–3,600.
        public var offSeconds: Double
        /// Seconds with the usual network in each cycle. Valid 1–3,600.
        public var onSeconds: Double

        public init(fromHours: Double, toHours: Double, offSeconds: Double, onSeconds: Double) {
            self.fromHours = fromHours
            self.toHours = toHours
            self.offSeconds = offSeconds
            self.onSeconds = onSeconds
        }
    }

    /// A ``submitErrors`` entry.
    public struct SubmitError: Codable, Sendable, Equatable {
        public var fromHours: Double
        public var toHours: Double
        /// The error `submit` throws.
        public var error: SubmitErrorCode

        public init(fromHours: Double, toHours: Double, error: SubmitErrorCode) {
            self.fromHours = fromHours
            self.toHours = toHours
            self.error = error
        }

        var window: Window { Window(fromHours: fromHours, toHours: toHours) }
    }

    /// The errors `BGTaskScheduler.submit` can throw, by Apple's names.
    public enum SubmitErrorCode: String, NamedChoice, Sendable {
        case unavailable
        case tooManyPendingTaskRequests
        case notPermitted

        var code: TaskSchedulerError.Code {
            switch self {
            case .unavailable: .unavailable
            case .tooManyPendingTaskRequests: .tooManyPendingTaskRequests
            case .notPermitted: .notPermitted
            }
        }
    }
}

extension FaultPlan: ScenarioSection {
    package static let numberFields: [NumberField<FaultPlan>] = []

    package func validateRelations(_ v: inout ParameterValidator) {
        func window(_ from: Double, _ to: Double, _ path: String) {
            v.check(from, SimulationRunner.hours, path + ".fromHours")
            v.check(to, from: Swift.max(from, 0), to: SimulationRunner.hours.upperBound, path + ".toHours")
        }
        for (index, fault) in earlyExpirations.enumerated() {
            window(fault.fromHours, fault.toHours, "earlyExpirations[\(index)]")
            v.check(fault.afterSeconds, 0...600, "earlyExpirations[\(index)].afterSeconds")
        }
        for (index, fault) in jetsams.enumerated() { v.check(fault.atHours, SimulationRunner.hours, "jetsams[\(index)].atHours") }
        for (index, fault) in backgroundAppRefreshOff.enumerated() { window(fault.fromHours, fault.toHours, "backgroundAppRefreshOff[\(index)]") }
        // Every fault is at least one event: bounded, so that no scenario asks for unbounded work.
        let entries = [("earlyExpirations", earlyExpirations.count), ("jetsams", jetsams.count),
                       ("backgroundAppRefreshOff", backgroundAppRefreshOff.count), ("networkFlaps", networkFlaps.count),
                       ("submitErrors", submitErrors.count), ("batteryDeaths", batteryDeaths.count)]
        for (kind, count) in entries {
            v.require(count <= Self.maximumEntries, kind, "expected at most \(Self.maximumEntries) entries, got \(count)")
        }
        var flapCycles = 0.0
        for (index, fault) in networkFlaps.enumerated() {
            window(fault.fromHours, fault.toHours, "networkFlaps[\(index)]")
            v.check(fault.offSeconds, 1...3_600, "networkFlaps[\(index)].offSeconds")
            v.check(fault.onSeconds, 1...3_600, "networkFlaps[\(index)].onSeconds")
            let cycles = (fault.toHours - fault.fromHours) * 3_600 / (fault.offSeconds + fault.onSeconds)
            if cycles.isFinite && cycles > 0 { flapCycles += cycles }
        }
        v.require(flapCycles <= Self.maximumFlapCycles, "networkFlaps",
                  "expected at most \(Int(Self.maximumFlapCycles)) off/on cycles in all windows (each is two events), got \(ParameterValidator.format(flapCycles.rounded())); use fewer or shorter windows, or longer offSeconds + onSeconds")
        for (index, fault) in submitErrors.enumerated() { window(fault.fromHours, fault.toHours, "submitErrors[\(index)]") }
        for (index, fault) in batteryDeaths.enumerated() { v.check(fault.atHours, SimulationRunner.hours, "batteryDeaths[\(index)].atHours") }
    }
}
