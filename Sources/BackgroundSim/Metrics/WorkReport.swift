/// The `work` and `energy` groups of a run's report: how the app's work went, and what it cost.
/// Every field is documented in `docs/OUTPUT.md`.
public struct WorkReport: Sendable, Equatable {
    public var metrics: WorkMetrics
    public var days: Int

    public var created: Int { metrics.created }
    public var completed: Int { metrics.completed }

    /// Completed items over items created, in percent (0–100): an item still queued at the
    /// run's end counts as not completed, as a failed one does, so a policy that never sends
    /// cannot show 100 %; 100 with none created.
    public var completionPercent: Double {
        metrics.created > 0 ? Double(metrics.completed) / Double(metrics.created) * 100 : 100
    }

    private var dayCount: Double { Double(Swift.max(1, days)) }
    private var traffic: UploadTraffic { metrics.uploadTraffic }

    /// How closely the app's daily uploads follow its real work: the correlation over the run's
    /// days between uploads and real (not cover) uploads; 1 without cover traffic, near 0 when
    /// the traffic says nothing about the work; `nil` when either never varies.
    public var uploadsRealWorkCorrelation: Double? { traffic.correlation(days: days) }

    /// A latency in seconds as a report number in minutes, the unit every command's latency
    /// keys use (`work.latencyMinutes.p90` in a run, a comparison, a sweep and tuning alike).
    private func minutes(_ seconds: Double) -> JSONValue { .number(rounded(seconds / 60)) }

    /// The `work` group.
    package var json: JSONValue {
        let latency = metrics.latency, allItems = metrics.latencyOverAllItems
        return .object([
            ("itemsCreated", .number(Double(metrics.created))),
            ("itemsCompleted", .number(Double(metrics.completed))),
            ("itemsFailed", .object([
                ("deadline", .number(Double(metrics.failedDeadline))),
                ("queueFull", .number(Double(metrics.failedQueueFull))),
                ("killed", .number(Double(metrics.failedKilled))),
                ("givenUp", .number(Double(metrics.failedGivenUp))),
            ])),
            ("completionPercent", .number(rounded(completionPercent))),
            ("completedMegabytes", .number(rounded(metrics.completedBytes / 1e6))),
            ("latencyMinutes", .object([
                ("p50", minutes(latency.quantile(0.5))),
                ("p90", minutes(latency.quantile(0.9))),
                ("p99", minutes(latency.quantile(0.99))),
                ("max", minutes(latency.count > 0 ? latency.maximum : 0)),
                ("mean", minutes(latency.mean)),
            ])),
            ("allItemsLatencyMinutes", .object([
                ("p50", minutes(allItems.quantile(0.5))),
                ("p90", minutes(allItems.quantile(0.9))),
                ("p99", minutes(allItems.quantile(0.99))),
                ("censored", .number(Double(metrics.censoredLatency.count))),
            ])),
            ("backlogAtEnd", .number(Double(metrics.backlogAtEnd))),
            ("coverItems", .object([
                ("sent", .number(Double(metrics.coverSent))),
                ("unsent", .number(Double(metrics.coverUnsent))),
            ])),
            ("uploadTraffic", .object([
                ("uploadsPerDay", .number(rounded(Double(traffic.uploads) / dayCount))),
                ("realUploadsPerDay", .number(rounded(Double(traffic.realUploads) / dayCount))),
                ("daysWithUploadsShare", .number(rounded(traffic.shareOfDaysWithUploads(days: days)))),
                ("realWorkCorrelation", uploadsRealWorkCorrelation.map { .number(rounded($0)) } ?? .null),
            ])),
        ])
    }
}

/// The `energy` group: what the app's work drew, per day and by component.
public struct EnergyReport: Sendable, Equatable {
    /// Joules per day by component, from the battery and the charger together.
    public var joulesPerDay: [EnergyConsumer: Double]
    /// Joules per day the app drew from the battery only.
    public var batteryJoulesPerDay: Double
    public var batteryCapacityJoules: Double
    /// Background wakes (cold launches and resumes to deliver tasks) over the run.
    public var backgroundWakes: Int
    /// Joules by component the app drew over the run while it was not in the foreground.
    public var backgroundJoules: [EnergyConsumer: Double]

    init(device: Device, days: Int, backgroundWakes: Int) {
        let dayCount = Swift.max(1, Double(days))
        let app = EnergyConsumer.allCases.filter(\.isApp)
        var perDay: [EnergyConsumer: Double] = [:]
        for consumer in app {
            perDay[consumer] = (device.ledger.batteryJoules(of: consumer) + device.ledger.chargerJoules(of: consumer)) / dayCount
        }
        joulesPerDay = perDay
        batteryJoulesPerDay = app.reduce(0) { $0 + device.ledger.batteryJoules(of: $1) } / dayCount
        batteryCapacityJoules = device.battery.capacityJoules
        self.backgroundWakes = backgroundWakes
        var background: [EnergyConsumer: Double] = [:]
        for consumer in app { background[consumer] = device.ledger.backgroundJoules(of: consumer) }
        backgroundJoules = background
    }

    /// The app's energy while not in the foreground per background wake, by component and in
    /// all: what a hand calculation of one wake gives when every wake does the same work.
    /// `nil` without wakes.
    public var joulesPerBackgroundWake: [EnergyConsumer: Double]? {
        guard backgroundWakes > 0 else { return nil }
        return backgroundJoules.mapValues { $0 / Double(backgroundWakes) }
    }

    /// All the app's energy per day, from battery and charger.
    public var appJoulesPerDay: Double { EnergyConsumer.allCases.filter(\.isApp).reduce(0) { $0 + (joulesPerDay[$1] ?? 0) } }

    /// The app's energy from the battery per day, as a percentage of the battery's capacity.
    public var appBatteryPercentPerDay: Double { batteryJoulesPerDay / batteryCapacityJoules * 100 }

    /// The app's energy over the run (battery and charger) per megabyte the completed items of
    /// `work` carried: a door that completes more work costs more a day, not necessarily more a
    /// byte. `nil` when no completed item carried bytes.
    public func joulesPerMegabyteDelivered(_ work: WorkReport) -> Double? {
        work.metrics.completedBytes > 0 ? appJoulesPerDay * Double(Swift.max(1, work.days)) / (work.metrics.completedBytes / 1e6) : nil
    }

    /// The app's energy over the run per completed item of `work`; `nil` with none completed.
    public func joulesPerCompletedItem(_ work: WorkReport) -> Double? {
        work.completed > 0 ? appJoulesPerDay * Double(Swift.max(1, work.days)) / Double(work.completed) : nil
    }

    /// The `energy` group; `work` is the same run's, for the energy per megabyte and per item.
    package func json(_ work: WorkReport) -> JSONValue {
        .object([
            ("appJoulesPerDay", .number(rounded(appJoulesPerDay))),
            ("appBatteryPercentPerDay", .number(rounded(appBatteryPercentPerDay))),
            ("appJoulesPerMegabyteDelivered", joulesPerMegabyteDelivered(work).map { .number(rounded($0)) } ?? .null),
            ("appJoulesPerCompletedItem", joulesPerCompletedItem(work).map { .number(rounded($0)) } ?? .null),
            ("byComponent", .object([
                ("cpu", .number(rounded(joulesPerDay[.appCPU] ?? 0))),
                ("radioPromotion", .number(rounded(joulesPerDay[.appRadioPromotion] ?? 0))),
                ("radioActive", .number(rounded(joulesPerDay[.appRadioActive] ?? 0))),
                ("radioTail", .number(rounded(joulesPerDay[.appRadioTail] ?? 0))),
                ("launchOverhead", .number(rounded(joulesPerDay[.appLaunchOverhead] ?? 0))),
            ])),
            ("perBackgroundWake", perWakeJSON),
        ])
    }

    /// The `perBackgroundWake` object.
    private var perWakeJSON: JSONValue {
        let perWake = joulesPerBackgroundWake ?? [:]
        func value(_ consumer: EnergyConsumer) -> JSONValue { .number(rounded(perWake[consumer] ?? 0)) }
        return .object([
            ("wakes", .number(Double(backgroundWakes))),
            ("joules", .number(rounded(perWake.values.reduce(0, +)))),
            ("byComponent", .object([
                ("cpu", value(.appCPU)), ("radioPromotion", value(.appRadioPromotion)), ("radioActive", value(.appRadioActive)),
                ("radioTail", value(.appRadioTail)), ("launchOverhead", value(.appLaunchOverhead)),
            ])),
        ])
    }
}
