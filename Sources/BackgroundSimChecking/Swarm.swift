import BackgroundSim
import SimKernel

/// Random scenarios around a base one, for "swarm" testing: each seed draws its own user
/// habits, network mix, charging, launch model, device clock jumps and fault plan, so that a
/// thousand seeds are a thousand different phones in a thousand different weeks.
///
/// The draws come from the seed's own labelled stream, so a seed names its scenario: the same
/// seed gives the same scenario in any process, and a failing one can be written to a file.
/// The ranges stay inside what scenario validation accepts.
public struct Swarm: Sendable {
    static let label = StreamLabel("swarm.scenario")

    /// What a swarm may vary; a dimension it does not vary keeps the base scenario's values.
    public enum Dimension: String, CaseIterable, Sendable, Comparable {
        /// Phone sessions per day.
        case sessions
        /// The app-usage profile and the force-quit habit.
        case appUsage
        /// Wi-Fi, no-service and poor-signal shares (kept only where the base's home Wi-Fi can
        /// give them).
        case network
        /// Overnight charging, top-ups and the starting battery level.
        case charging
        /// The launch model (``launchModels``).
        case launchModel
        /// Random device clock jumps.
        case clock
        /// Faults at random times (``faultsPerDay``).
        case faults
        /// The workload, when the base has one: items per app session or the cadence, and the
        /// sizes (so that empty queues, tiny items and backlogs all occur).
        case workload
        /// The server's silent pushes, when the base has some: the schedule and its rate.
        case pushes
        /// The other doors' system parameters: the URL session launch limiter and events time,
        /// whether discretionary transfers need power, the continued-processing stall timeout,
        /// slots and cancels, the push burst and the device's push budget, the other apps' pushes.
        case doors

        public static func < (lhs: Dimension, rhs: Dimension) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// The dimensions this swarm varies. Default: all of them; remove one to pin it to the base
    /// scenario (an always-LTE base keeps its network with `varies.remove(.network)`).
    public var varies: Set<Dimension> = Set(Dimension.allCases)

    /// "sessions, appUsage, …" — what this swarm varies, in a fixed order.
    public var variesDescription: String {
        varies.isEmpty ? "nothing" : varies.sorted().map(\.rawValue).joined(separator: ", ")
    }

    /// Expected faults per simulated day (Poisson). Default 1.5; useful 0–10. Our assumption [Inf]:
    /// hostile enough that a week sees several of every kind across a thousand seeds.
    public var faultsPerDay = 1.5
    /// The launch models drawn from, with equal weight. Default: all three.
    public var launchModels: [LaunchModelKind] = [.heuristic, .eager, .stingy]
    /// Random device clock jumps per day, drawn uniformly from 0 up to this. Default 1; valid
    /// 0–24 (as `clock.randomJumpsPerDay`). Our assumption [Inf].
    public var maximumClockJumpsPerDay = 1.0

    public init() {}

    /// `base` with this seed's draws for a run of `days` days.
    public func scenario(around base: Scenario, seed: UInt64, days: Int) -> Scenario {
        var stream = RandomStream(seed: seed, label: Self.label)
        var scenario = base
        func uniform(_ low: Double, _ high: Double) -> Double { UniformDistribution(low, high).sample(using: &stream) }
        func pick<T>(_ choices: [T]) -> T { choices[Int(stream.next(below: UInt64(choices.count)))] }

        // Every dimension draws from the stream whether or not it is varied, so pinning one
        // changes no other dimension's draws.
        // The user.
        let sessions = uniform(20, 120)
        if varies.contains(.sessions) { scenario.user.sessionsPerDay = sessions }
        let profile: AppUsageProfile = pick([.severalTimesADay, .daily, .daily, .weekly])
        let forceQuits = uniform(0, 0.3)
        if varies.contains(.appUsage) {
            if scenario.user.app.profile != .custom { scenario.user.app.profile = profile }
            scenario.user.app.forceQuitProbability = forceQuits
        }
        // The network: kept only if the base's home Wi-Fi and schedule can give the shares.
        let wifi = uniform(0.55, 0.8), offline = uniform(0, 0.08), poor = uniform(0, 0.4)
        if varies.contains(.network) {
            var network = scenario.network
            network.wifiShare = wifi
            network.offlineShare = offline
            network.poorSignalShare = poor
            network.goodSignalShare = Swift.min(network.goodSignalShare, 1 - poor)
            var trial = scenario
            trial.network = network
            if !trial.validate(policies: .builtIn.including(trial.app.policy.definition)).contains(where: { $0.path.hasPrefix("network.") }) {
                scenario.network = network
            }
        }
        // Charging.
        let overnight = uniform(0.3, 1), topUps = uniform(0, 2), initial = uniform(10, 100)
        if varies.contains(.charging) {
            scenario.power.overnightChargeProbability = overnight
            scenario.power.topUpsPerDay = topUps
            scenario.power.initialBatteryPercent = initial
        }
        // The system's discretion and the device clock.
        if !launchModels.isEmpty {
            let model = pick(launchModels)
            if varies.contains(.launchModel) { scenario.system.launchModel = model }
        }
        let jumps = uniform(0, maximumClockJumpsPerDay)
        if varies.contains(.clock) { scenario.clock.randomJumpsPerDay = jumps }

        // Faults, at uniform times in the run.
        let faultsBefore = scenario.faults
        let span = Double(Swift.max(1, days)) * 24
        let count = PoissonDistribution(mean: faultsPerDay * Double(Swift.max(1, days))).sample(using: &stream)
        for _ in 0..<count {
            let start = uniform(0, span)
            switch stream.next(below: 11) {
            case 0, 1:
                scenario.faults.earlyExpirations.append(.init(fromHours: start, toHours: start + uniform(0.5, 12), afterSeconds: uniform(0, 10)))
            case 2, 3:
                // A burst: one to three kills within ten minutes.
                for index in 0..<(1 + Int(stream.next(below: 3))) {
                    scenario.faults.jetsams.append(.init(atHours: start + Double(index) * uniform(0, 5) / 60))
                }
            case 4, 5:
                scenario.faults.backgroundAppRefreshOff.append(.init(fromHours: start, toHours: start + uniform(1, 24)))
            case 6, 7:
                scenario.faults.networkFlaps.append(.init(fromHours: start, toHours: start + uniform(0.25, 3),
                                                          offSeconds: uniform(5, 120), onSeconds: uniform(5, 300)))
            case 8, 9:
                let error = pick(FaultPlan.SubmitErrorCode.allCases)
                scenario.faults.submitErrors.append(.init(fromHours: start, toHours: start + uniform(0.5, 12), error: error))
            default:
                scenario.faults.batteryDeaths.append(.init(atHours: start))
            }
        }
        if !varies.contains(.faults) { scenario.faults = faultsBefore }

        // The workload, drawn last so that the dimensions above draw as they always have.
        let itemsPerSession = pick([0.2, 1.0, 3.0, 10.0])
        let cadence = pick([20.0, 75.0, 600.0, 3_600.0])
        let sizeFactor = pick([0.01, 0.3, 1.0, 10.0])
        if varies.contains(.workload) {
            switch scenario.work.arrivals {
            case .appSessions: scenario.work.itemsPerAppSession = itemsPerSession
            case .cadence: scenario.work.cadenceSeconds = cadence
            case .none: break
            }
            if scenario.work.arrivals != .none {
                scenario.work.uploadMedianKilobytes *= sizeFactor
                scenario.work.downloadMedianKilobytes *= sizeFactor
                scenario.work.cpuMedianSeconds *= sizeFactor
            }
        }

        // The other doors, drawn after everything above so that its draws are unchanged.
        let pushSchedule: ServerPushes.Schedule = pick([.cadence, .cadence, .poisson])
        let pushMinutes = pick([5.0, 15.0, 60.0, 240.0])
        if varies.contains(.pushes) && scenario.pushes.schedule != .none && scenario.pushes.schedule != .times {
            scenario.pushes.schedule = pushSchedule
            scenario.pushes.everyMinutes = pushMinutes
            scenario.pushes.perHour = 60 / pushMinutes
        }
        let resumeDelay = uniform(0, 300), eventsSeconds = uniform(5, 30), discretionaryPower = stream.chance(0.5)
        let stallSeconds = uniform(10, 300), slots = 1 + Int(stream.next(below: 3)), cancels = uniform(0, 0.3)
        let pushWindow = uniform(5, 60)
        // The push throttle's burst and the device's budget (none to 6 an hour), drawn after everything else.
        let pushBurst = 1 + Int(stream.next(below: 8)), pushBudget = uniform(0, 6)
        // Continued processing as developers report it, drawn after everything else.
        let earlyExpiry = uniform(0, 0.3), turnedOff = stream.chance(0.1)
        // The other apps' pushes spending the device's budget (none to 8 an hour), drawn after everything else.
        let otherAppsPushes = uniform(0, 8)
        if varies.contains(.doors) {
            scenario.system.backgroundURLSession.resumeDelaySeconds = resumeDelay
            scenario.system.backgroundURLSession.eventsSeconds = eventsSeconds
            scenario.system.backgroundURLSession.discretionaryRequiresPower = discretionaryPower
            scenario.system.continuedProcessing.progressTimeoutSeconds = stallSeconds
            scenario.system.continuedProcessing.maximumConcurrentTasks = slots
            scenario.system.continuedProcessing.userCancelProbability = cancels
            scenario.system.push.burstWindowMinutes = pushWindow
            scenario.system.push.burstDeliveries = pushBurst
            scenario.system.push.deviceBudgetPerHour = pushBudget
            scenario.system.otherApps.backgroundPushesPerHour = otherAppsPushes
            scenario.system.continuedProcessing.earlyExpiryProbability = earlyExpiry
            scenario.system.continuedProcessing.userTurnedOff = turnedOff
        }
        return scenario
    }
}
