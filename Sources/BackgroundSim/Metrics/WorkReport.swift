/// The `work` and `energy` groups of a run's report: how the app's work went, and what it cost.
/// Every field is documented in `docs/OUTPUT.md`.
public struct WorkReport: Sendable, Equatable {
    public var metrics: WorkMetrics
    public var days: Int

    public var created: Int { metrics.created }
    public var completed: Int { metrics.completed }

    /// Completed items over items that ended (completed or failed); 1 with nothing ended.
    public var completionRatio: Double {
        let ended = metrics.completed + metrics.failed
        return ended > 0 ? Double(metrics.completed) / Double(ended) : 1
    }

    /// The `work` group.
    package var json: JSONValue {
        let latency = metrics.latency
        return .object([
            ("itemsCreated", .number(Double(metrics.created))),
            ("itemsCompleted", .number(Double(metrics.completed))),
            ("itemsFailed", .object([
                ("deadline", .number(Double(metrics.failedDeadline))),
                ("queueFull", .number(Double(metrics.failedQueueFull))),
                ("killed", .number(Double(metrics.failedKilled))),
                ("givenUp", .number(Double(metrics.failedGivenUp))),
            ])),
            ("completionRatio", .number(rounded(completionRatio))),
            ("latencySeconds", .object([
                ("p50", .number(rounded(latency.quantile(0.5)))),
                ("p90", .number(rounded(latency.quantile(0.9)))),
                ("p99", .number(rounded(latency.quantile(0.99)))),
                ("max", .number(rounded(latency.count > 0 ? latency.maximum : 0))),
                ("mean", .number(rounded(latency.mean))),
            ])),
            ("backlogAtEnd", .number(Double(metrics.backlogAtEnd))),
        ])
    }
}

/// The `energy` group: what the app's work drew, per day and by component.
public struct EnergyReport: Sendable, Equatable {
    /// Joules per day by component, from the battery and the charger together.
    public var joulesPerDay: [EnergyLedger.Consumer: Double]
    /// Joules per day the app drew from the battery only.
    public var batteryJoulesPerDay: Double
    public var batteryCapacityJoules: Double

    init(device: Device, days: Int) {
        let dayCount = Swift.max(1, Double(days))
        let app = EnergyLedger.Consumer.allCases.filter(\.isApp)
        var perDay: [EnergyLedger.Consumer: Double] = [:]
        for consumer in app {
            perDay[consumer] = (device.ledger.batteryJoules(of: consumer) + device.ledger.chargerJoules(of: consumer)) / dayCount
        }
        joulesPerDay = perDay
        batteryJoulesPerDay = app.reduce(0) { $0 + device.ledger.batteryJoules(of: $1) } / dayCount
        batteryCapacityJoules = device.battery.capacityJoules
    }

    /// All the app's energy per day, from battery and charger.
    public var appJoulesPerDay: Double { EnergyLedger.Consumer.allCases.filter(\.isApp).reduce(0) { $0 + (joulesPerDay[$1] ?? 0) } }

    /// The app's energy from the battery per day, as a percentage of the battery's capacity.
    public var appBatteryPercentPerDay: Double { batteryJoulesPerDay / batteryCapacityJoules * 100 }

    /// The `energy` group.
    package var json: JSONValue {
        .object([
            ("appJoulesPerDay", .number(rounded(appJoulesPerDay))),
            ("appBatteryPercentPerDay", .number(rounded(appBatteryPercentPerDay))),
            ("byComponent", .object([
                ("cpu", .number(rounded(joulesPerDay[.appCPU] ?? 0))),
                ("radioPromotion", .number(rounded(joulesPerDay[.appRadioPromotion] ?? 0))),
                ("radioActive", .number(rounded(joulesPerDay[.appRadioActive] ?? 0))),
                ("radioTail", .number(rounded(joulesPerDay[.appRadioTail] ?? 0))),
                ("launchOverhead", .number(rounded(joulesPerDay[.appLaunchOverhead] ?? 0))),
            ])),
        ])
    }
}
