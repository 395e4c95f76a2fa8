import SimKernel

/// The system's launch decisions taken from field logs: the scenario's `system.replay`
/// section, used when `system.launchModel` is `replay` (``ReplayLaunchModel``).
///
///     "system": {
///       "launchModel": "replay",
///       "replay": { "devices": [
///         { "id": "7f3a…", "launches": [{ "atHours": 27.75, "kind": "processing" }, { "atHours": 31.5, "kind": "refresh" }] }
///       ] }
///     }
///
/// Each device is one phone's launches, at hours since the simulation started (a log's times
/// are hours since the local midnight of its first day, so a scenario that starts at 00:00
/// keeps the hour of day). Each run replays one device: the only one, or one drawn by the seed
/// from its own labelled stream, so that seeds sample across devices. `bgsim fieldlog LOG
/// --replay FILE` writes this section from a field log.
public struct ReplayedLaunches: Codable, Sendable, Equatable {
    /// A logged launch's task kind.
    public enum Kind: String, NamedChoice, Sendable {
        case refresh, processing
    }

    /// One logged launch.
    public struct Launch: Codable, Sendable, Hashable {
        /// Hours since the simulation started. Valid 0–24,000,000.
        public var atHours: Double
        public var kind: Kind

        public init(atHours: Double, kind: Kind) {
            self.atHours = atHours
            self.kind = kind
        }
    }

    /// One phone's logged launches.
    public struct Device: Codable, Sendable, Equatable {
        /// The log's device identifier (not empty).
        public var id: String
        public var launches: [Launch]

        public init(id: String, launches: [Launch]) {
            self.id = id
            self.launches = launches
        }
    }

    /// None.
    public init() {}

    /// The devices whose launches may be replayed. Default none; `replay` needs at least one.
    public var devices: [Device] = []

    /// The most launches over all devices.
    public static let maximumLaunches = 1_000_000

    /// One device with one launch, for the scenario schema.
    static let example: ReplayedLaunches = {
        var replay = ReplayedLaunches()
        replay.devices = [Device(id: "device", launches: [Launch(atHours: 0, kind: .refresh)])]
        return replay
    }()

    static let deviceLabel = StreamLabel("system.replay.device")

    /// The device run `seed` replays: the only one, or one drawn from the seed's own stream.
    func device(forSeed seed: UInt64) -> Device? {
        guard devices.count > 1 else { return devices.first }
        var stream = RandomStream(seed: seed, label: Self.deviceLabel)
        return devices[stream.int(in: 0..<devices.count)]
    }

    /// Reports values out of range, with paths from `replay` (within `system`); the `replay`
    /// launch model needs a device.
    func validate(_ v: inout ParameterValidator, launchModel: LaunchModelKind) {
        if launchModel == .replay {
            v.require(!devices.isEmpty, "replay.devices", "expected at least one device when system.launchModel is \"replay\"")
        } else {
            // Replayed launches under another model would be ignored without a word.
            v.require(devices.isEmpty, "replay.devices",
                      "expected none unless system.launchModel is \"replay\" (it is \"\(launchModel.rawValue)\", which would ignore them)")
        }
        let total = devices.reduce(0) { $0 + $1.launches.count }
        v.require(total <= Self.maximumLaunches, "replay.devices", "expected at most \(Self.maximumLaunches) launches in all, got \(total)")
        var firstIndex: [String: Int] = [:]
        for (index, device) in devices.enumerated() {
            v.require(!device.id.isEmpty, "replay.devices[\(index)].id", "expected a device identifier, got an empty string")
            if let earlier = firstIndex[device.id] {
                v.require(false, "replay.devices[\(index)].id", "expected each device once; \"\(device.id)\" is also replay.devices[\(earlier)]")
            } else {
                firstIndex[device.id] = index
            }
            var launchesSeen: Set<Launch> = []
            for (position, launch) in device.launches.enumerated() {
                v.check(launch.atHours, SimulationRunner.hours, "replay.devices[\(index)].launches[\(position)].atHours")
                if !launchesSeen.insert(launch).inserted {
                    v.require(false, "replay.devices[\(index)].launches[\(position)]",
                              "expected each launch once; one of kind \(launch.kind.rawValue) at \(launch.atHours) h comes earlier")
                }
            }
        }
    }
}

/// Grants launches exactly when a field log says the system made them: a trace-driven launch
/// model, so that a policy can be evaluated against real OS decisions as well as against a
/// fitted model.
///
/// A pending request of a kind is evaluated at each logged launch of that kind (at or after
/// its earliest begin date) and launched there, one logged launch per request; logged launches
/// while the simulated app had no request of the kind pending are lost, as they would have
/// been on the phone. Identifiers are not matched: a launch of the kind serves any request of
/// it. The log's decisions already reflect the real phone's charging, screen, network and Low
/// Power Mode, so the system's rules about the device are not applied again
/// (``LaunchModel/replaysDecisions``); the app's own state still counts (not yet due,
/// Background App Refresh off, a force-quit, throttling). The user and the phone are the
/// scenario's: only the system's decisions come from the log. The log says nothing of the
/// other doors (pushes, a URL session's events), which meet the documented rules only: no
/// floors and no budgets, as under the eager model.
package struct ReplayLaunchModel: LaunchModel {
    /// Logged launch times by kind (refresh, processing), sorted, and how many are used or past.
    private var times: [[SimInstant]]
    private var cursor = [0, 0]

    /// A logged launch grants a launch at an evaluation within this long after it (the
    /// evaluation runs at the logged instant; the slack absorbs rounding to nanoseconds).
    static let slack = SimDuration.seconds(1)

    package init(device: ReplayedLaunches.Device?) {
        let launches = device?.launches ?? []
        times = [ReplayedLaunches.Kind.refresh, .processing].map { kind in
            launches.filter { $0.kind == kind }.map { SimInstant(nanosecondsSinceStart: Int64(exactly: ($0.atHours * 3_600e9).rounded()) ?? .max) }.sorted()
        }
    }

    private func index(_ kind: TaskRequest.Kind) -> Int {
        switch kind {
        case .appRefresh: 0
        case .processing: 1
        }
    }

    package mutating func appDidEnterForeground(at instant: SimInstant, hour: Int) {}

    package mutating func decide(_ request: TaskRequest, conditions: LaunchConditions, random: inout RandomStream) -> LaunchDecision {
        let kind = index(request.kind)
        // Logged launches more than the slack ago have passed unused.
        while cursor[kind] < times[kind].count && times[kind][cursor[kind]] + Self.slack < conditions.now { cursor[kind] += 1 }
        guard cursor[kind] < times[kind].count, times[kind][cursor[kind]] <= conditions.now else { return .notLaunched(.notChosen) }
        cursor[kind] += 1
        return .launched
    }

    package mutating func didLaunch(_ kind: TaskRequest.Kind, at instant: SimInstant) {}

    package func nextEvaluation(for kind: TaskRequest.Kind, after now: SimInstant, notBefore: SimInstant) -> SimInstant? {
        let kind = index(kind)
        let from = Swift.max(now + .nanoseconds(1), notBefore)
        var position = cursor[kind]
        while position < times[kind].count && times[kind][position] < from { position += 1 }
        return position < times[kind].count ? times[kind][position] : nil
    }

    package var reactsToDeviceChanges: Bool { false }
    package var appliesBudgets: Bool { false }
    package var replaysDecisions: Bool { true }
}
