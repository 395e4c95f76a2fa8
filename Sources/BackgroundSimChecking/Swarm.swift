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

        // The user.
        scenario.user.sessionsPerDay = uniform(20, 120)
        if scenario.user.app.profile != .custom {
            scenario.user.app.profile = pick([.severalTimesADay, .daily, .daily, .weekly])
        }
        scenario.user.app.forceQuitProbability = uniform(0, 0.3)
        // The network: shares that home Wi-Fi at the default probability can give.
        scenario.network.wifiShare = uniform(0.55, 0.8)
        scenario.network.offlineShare = uniform(0, 0.08)
        scenario.network.poorSignalShare = uniform(0, 0.4)
        scenario.network.goodSignalShare = Swift.min(scenario.network.goodSignalShare, 1 - scenario.network.poorSignalShare)
        // Charging.
        scenario.power.overnightChargeProbability = uniform(0.3, 1)
        scenario.power.topUpsPerDay = uniform(0, 2)
        scenario.power.initialBatteryPercent = uniform(10, 100)
        // The system's discretion and the device clock.
        if !launchModels.isEmpty { scenario.system.launchModel = pick(launchModels) }
        scenario.clock.randomJumpsPerDay = uniform(0, maximumClockJumpsPerDay)

        // Faults, at uniform times in the run.
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
        return scenario
    }
}
