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

    package init(_ results: [RunResult]) {
        batteryPercentByHour = (0..<24).map { hour in SampleSummary(results.map { $0.device.batteryPercentByHour[hour] }) }
        batteryPercentByHourPerSeed = results.map { result in (0..<24).map { result.device.batteryPercentByHour[$0] } }
        latencyMinutesPerSeed = results.map { result in
            result.work.completed > 0 ? Self.latencyLevels.map { result.work.metrics.latency.quantile($0) / 60 } : nil
        }
        appJoulesPerDayByComponent = Self.components.map { component in
            SampleSummary(results.map { $0.energy.joulesPerDay[component.consumer] ?? 0 }).mean
        }
        latencySeconds = results.reduce(into: LogHistogram()) { $0.merge($1.work.metrics.latency) }
        launchesPerDayByHour = (0..<24).map { hour in
            SampleSummary(results.map { Double($0.os.metrics.launchHourHistogram[hour]) / Double(Swift.max(1, $0.days)) }).mean
        }
        func perDay(_ count: (RunResult) -> Int) -> Double {
            SampleSummary(results.map { Double(count($0)) / Double(Swift.max(1, $0.days)) }).mean
        }
        decisionsPerDay = [TaskRequest.Kind.appRefresh, .processing].map { kind in
            (kind, perDay { $0.os.metrics.launchDecisions.launched(kind) },
             LaunchDenial.allCases.map { denial in perDay { $0.os.metrics.launchDecisions.count(kind, denial) } })
        }
    }
}
