import BackgroundSim

/// What a report draws for one scenario across its seeds: the battery over a typical day, the
/// app's energy by component, the latency distribution of its work, and its launches by hour.
package struct ScenarioProfile: Sendable {
    /// The app's energy components, in the order reports show them, with their names.
    package static let components: [(consumer: EnergyConsumer, name: String)] = [
        (.appCPU, "CPU"), (.appRadioPromotion, "radio promotion"), (.appRadioActive, "radio active"),
        (.appRadioTail, "radio tail"), (.appLaunchOverhead, "launch overhead"),
    ]

    /// For each local hour 00…23: the spread across seeds of each seed's mean battery level (%).
    package var batteryPercentByHour: [SampleSummary]
    /// Each seed's mean battery level (%) in each local hour, `[seed][hour]`, for paired differences.
    package var batteryPercentByHourPerSeed: [[Double]]
    /// The latency quantiles the difference chart compares, as fractions.
    package static let latencyLevels = [0.5, 0.75, 0.9, 0.95, 0.99]
    /// Each seed's latency at ``latencyLevels``, in minutes (`nil` for a seed that completed no
    /// work), `[seed][level]`.
    package var latencyMinutesPerSeed: [[Double]?]
    /// For each of ``components``: the mean across seeds of the app's joules per day.
    package var appJoulesPerDayByComponent: [Double]
    /// Every completed work item's latency, in seconds, from every seed.
    package var latencySeconds: LogHistogram
    /// For each local hour: background task launches per day, the mean across seeds.
    package var launchesPerDayByHour: [Double]
    /// For refresh and for processing: launch decisions per day by outcome (`launched`, then each
    /// ``LaunchDenial`` in its order), the mean across seeds.
    package var decisionsPerDay: [(kind: TaskRequest.Kind, launched: Double, denials: [Double])]

    /// The profile of `results`, one per seed.
    package init(_ results: [RunResult]) {
        var accumulator = Accumulator()
        for result in results { accumulator.add(result) }
        self = accumulator.profile
    }

    /// What one run adds to its scenario's profile: a few hundred bytes kept instead of the run
    /// (its latency histogram is merged as it comes).
    struct Sample: Sendable {
        var batteryPercentByHour: [Double]
        var latencyMinutes: [Double]?
        var appJoulesPerDay: [Double]
        var launchesPerDayByHour: [Double]
        /// For refresh and for processing: launches, then each denial, per day.
        var decisionsPerDay: [[Double]]

        init(_ result: RunResult) {
            batteryPercentByHour = (0..<24).map { result.device.batteryPercentByHour[$0] }
            latencyMinutes = result.work.completed > 0 ? ScenarioProfile.latencyLevels.map { result.work.metrics.latency.quantile($0) / 60 } : nil
            appJoulesPerDay = ScenarioProfile.components.map { result.energy.joulesPerDay[$0.consumer] ?? 0 }
            let days = Double(Swift.max(1, result.days))
            launchesPerDayByHour = (0..<24).map { Double(result.os.metrics.launchHourHistogram[$0]) / days }
            decisionsPerDay = [TaskRequest.Kind.appRefresh, .processing].map { kind in
                [Double(result.os.metrics.launchDecisions.launched(kind)) / days]
                    + LaunchDenial.allCases.map { Double(result.os.metrics.launchDecisions.count(kind, $0)) / days }
            }
        }
    }

    /// A profile built a run at a time, in seed order: memory holds a sample per seed and one
    /// latency histogram, not the runs.
    package struct Accumulator: Sendable {
        private var samples: [Sample] = []
        private var latencySeconds = LogHistogram()

        package init() {}

        /// Adds the next seed's run.
        package mutating func add(_ result: RunResult) {
            samples.append(Sample(result))
            latencySeconds.merge(result.work.metrics.latency)
        }

        /// The profile of the runs added so far.
        package var profile: ScenarioProfile { ScenarioProfile(samples, latencySeconds: latencySeconds) }
    }

    private init(_ samples: [Sample], latencySeconds: LogHistogram) {
        batteryPercentByHour = (0..<24).map { hour in SampleSummary(samples.map { $0.batteryPercentByHour[hour] }) }
        batteryPercentByHourPerSeed = samples.map(\.batteryPercentByHour)
        latencyMinutesPerSeed = samples.map(\.latencyMinutes)
        appJoulesPerDayByComponent = Self.components.indices.map { index in SampleSummary(samples.map { $0.appJoulesPerDay[index] }).mean }
        self.latencySeconds = latencySeconds
        launchesPerDayByHour = (0..<24).map { hour in SampleSummary(samples.map { $0.launchesPerDayByHour[hour] }).mean }
        decisionsPerDay = [TaskRequest.Kind.appRefresh, .processing].enumerated().map { index, kind in
            (kind, SampleSummary(samples.map { $0.decisionsPerDay[index][0] }).mean,
             LaunchDenial.allCases.indices.map { denial in SampleSummary(samples.map { $0.decisionsPerDay[index][denial + 1] }).mean })
        }
    }
}
