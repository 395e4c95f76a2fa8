import BackgroundSim

/// A figure of a run that comparisons and replications summarise: its name, unit, which
/// direction is better, and how to read it from a ``RunResult``.
public struct ComparedMetric: Sendable {
    public enum Better: Sendable { case lower, higher, neither }

    /// A stable key, as in the JSON output (`work.latencyMinutes.p90`).
    public var key: String
    /// What a person calls it ("p90 work latency").
    public var label: String
    /// The unit shown ("min", "%/day").
    public var unit: String
    /// The unit of a difference between two values: percentage points for a percentage ("%" →
    /// "points", "%/day" → "points/day"), otherwise ``unit``.
    public var differenceUnit: String {
        unit.hasPrefix("%") ? "points" + unit.dropFirst() : unit
    }
    public var better: Better
    /// Reads the value, already in `unit`; `nil` where the metric does not apply (latency with no
    /// completed work).
    public var value: @Sendable (RunResult) -> Double?

    /// The metrics every comparison reports, in order.
    public static let standard: [ComparedMetric] = [
        ComparedMetric(key: "work.latencyMinutes.p50", label: "median work latency", unit: "min", better: .lower) {
            $0.work.completed > 0 ? $0.work.metrics.latency.quantile(0.5) / 60 : nil
        },
        ComparedMetric(key: "work.latencyMinutes.p90", label: "p90 work latency", unit: "min", better: .lower) {
            $0.work.completed > 0 ? $0.work.metrics.latency.quantile(0.9) / 60 : nil
        },
        ComparedMetric(key: "work.completionRatio", label: "work completed", unit: "%", better: .higher) {
            $0.work.created > 0 ? $0.work.completionRatio * 100 : nil
        },
        ComparedMetric(key: "work.backlogAtEnd", label: "backlog at the end", unit: "items", better: .lower) {
            Double($0.work.metrics.backlogAtEnd)
        },
        // Privacy: 1 when the upload traffic is exactly the real work, lower with cover traffic.
        ComparedMetric(key: "work.uploadTraffic.realWorkCorrelation", label: "uploads' correlation with real work", unit: "",
                       better: .lower) {
            $0.work.uploadsRealWorkCorrelation
        },
        ComparedMetric(key: "energy.appBatteryPercentPerDay", label: "app battery use", unit: "%/day", better: .lower) {
            $0.energy.appBatteryPercentPerDay
        },
        ComparedMetric(key: "energy.appJoulesPerDay", label: "app energy", unit: "J/day", better: .lower) {
            $0.energy.appJoulesPerDay
        },
        // Energy per completed item: a door that completes more work costs more a day, not
        // necessarily more an item.
        ComparedMetric(key: "energy.appJoulesPerCompletedItem", label: "app energy per completed item", unit: "J", better: .lower) {
            $0.work.completed > 0 ? $0.energy.appJoulesPerDay * Double($0.os.days) / Double($0.work.completed) : nil
        },
        ComparedMetric(key: "os.backgroundWakesPerDay", label: "background wakes", unit: "/day", better: .neither) {
            $0.os.backgroundWakesPerDay
        },
        ComparedMetric(key: "os.refreshLaunchesPerDay", label: "refresh launches", unit: "/day", better: .neither) {
            $0.os.refreshLaunchesPerDay
        },
        ComparedMetric(key: "os.processingLaunchesPerDay", label: "processing launches", unit: "/day", better: .neither) {
            $0.os.processingLaunchesPerDay
        },
        ComparedMetric(key: "os.expirationsPerDay", label: "task expirations", unit: "/day", better: .lower) {
            $0.os.expirationsPerDay
        },
        ComparedMetric(key: "os.tasksCompletedFalsePerDay", label: "tasks completed false", unit: "/day", better: .lower) {
            Double($0.os.metrics.tasksCompletedUnsuccessfully) / Double(Swift.max(1, $0.os.days))
        },
        ComparedMetric(key: "metricKit.crashes", label: "crashes", unit: "", better: .lower) {
            Double($0.os.metrics.registrationCrashes + $0.os.metrics.unregisteredLaunchCrashes)
        },
        // Kills for the app's own overruns (an assertion or task past its time, the CPU monitor);
        // terminations for memory are the system's and are not counted here.
        ComparedMetric(key: "metricKit.kills", label: "kills for overruns", unit: "", better: .lower) {
            Double($0.os.metrics.backgroundTaskAssertionTimeoutExits + $0.os.metrics.cpuResourceLimitExits)
        },
        ComparedMetric(key: "device.batteryDrainPercentPerDay", label: "battery drawn", unit: "%/day", better: .lower) {
            $0.device.batteryDrainPercentPerDay
        },
    ]
}
