/// The unit of a number in a run's report, read from its path (`work.latencyMinutes.p90`).
///
/// A field's name says its unit, so the name is the one declaration: `…Minutes` is minutes,
/// `…PerDay` a rate per simulated day, `…Percent` 0–100, `…Share` and `…Shares` 0–1, and a
/// name that says none is a count over the whole run. Every command that shows a field — `run`,
/// its `--seeds` table, `compare`, `sweep`, `whatif`, `tune` and their reports — takes its unit
/// from here, so one quantity has one unit everywhere (`ReportUnitTests` checks that the run's
/// JSON and every compared key agree, value for value).
public enum ReportUnit: String, Sendable, CaseIterable {
    case minutes = "min"
    case hours = "h"
    case seconds = "s"
    case percent = "%"
    case fraction = "fraction"
    /// A correlation coefficient, −1 to 1, which has no unit.
    case correlation = ""
    case megabytes = "MB"
    case joules = "J"
    case joulesPerMegabyte = "J/MB"
    case perDay = "/day"
    case hoursPerDay = "h/day"
    case secondsPerDay = "s/day"
    case joulesPerDay = "J/day"
    case percentPerDay = "%/day"
    /// A number of things over the whole run (not a day).
    case count = "count"

    /// Whether the number is a rate per simulated day rather than a total over the run.
    public var isPerDay: Bool { rawValue.hasSuffix("/day") }

    /// The unit as a column of a table: a count says it is the run's total ("count in 7 days").
    public func described(days: Int) -> String {
        switch self {
        case .count: "count in \(days) day\(days == 1 ? "" : "s")"
        case .correlation: "correlation"
        case .fraction: "fraction, 0–1"
        default: rawValue
        }
    }

    /// Name endings and the units they give; the first that the field's name ends with gives
    /// its unit.
    static let endings: [(ending: String, unit: ReportUnit)] = [
        ("PercentPerDay", .percentPerDay), ("JoulesPerDay", .joulesPerDay), ("HoursPerDay", .hoursPerDay),
        ("SecondsPerDay", .secondsPerDay), ("JoulesPerMegabyteDelivered", .joulesPerMegabyte),
        ("JoulesPerCompletedItem", .joules), ("PerDay", .perDay), ("perDay", .perDay),
        ("Minutes", .minutes), ("Hours", .hours), ("Seconds", .seconds), ("Percent", .percent), ("PercentByHour", .percent),
        ("Share", .fraction), ("Shares", .fraction), ("Correlation", .correlation), ("Megabytes", .megabytes),
        ("joules", .joules),
        // MetricKit's cumulative times (`cumulativeForegroundTime`) are in seconds.
        ("Time", .seconds),
    ]

    /// Names whose unit their ending does not say.
    static let named: [String: ReportUnit] = ["hoursAtZeroBattery": .hours]

    /// The names of a summary's figures (`latencyMinutes.p90`): they are in their group's unit.
    static let summaryFigures: Set<String> = ["p50", "p90", "p99", "max", "mean"]

    /// The unit of the number at `path` in a run's JSON report (`os.crashes.appCode`; an array
    /// element as `launchHourHistogram[3]`).
    ///
    /// The unit is the field's own name's. A summary's figure (`p90`, `max`, `mean`) takes its
    /// group's (`latencyMinutes`), as does a member of a group of shares (`thermalStateShares`);
    /// `energy.byComponent` is in J/day like `appJoulesPerDay`, and
    /// `energy.perBackgroundWake.byComponent` in J like that group's `joules`.
    public static func of(path: String) -> ReportUnit {
        let components = path.split(separator: ".").map { component in
            String(component.prefix { $0 != "[" })
        }
        if components.first == "energy", components.contains("byComponent") {
            return components.contains("perBackgroundWake") ? .joules : .joulesPerDay
        }
        var name = components.last ?? ""
        let group = components.count > 1 ? components[components.count - 2] : ""
        // A summary's figure is in its group's unit; so is a member of a group of shares.
        if summaryFigures.contains(name) || group.hasSuffix("Shares") { name = group }
        if let unit = named[name] { return unit }
        return endings.first { name.hasSuffix($0.ending) }?.unit ?? .count
    }
}
