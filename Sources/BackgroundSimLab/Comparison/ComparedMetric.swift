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
    /// The smallest difference that matters, in ``differenceUnit`` (≥ 0): a change smaller than
    /// this is "equivalent" when the data show it is, however significant. 0 means every real
    /// difference matters (nothing but an identical result is equivalent).
    public var margin: Double
    /// The margin as a share of the baseline's mean (0.05 for `5%`), when it was given so; a
    /// comparison resolves ``margin`` from it: ``margin`` = share × |baseline mean|.
    public var relativeMargin: Double?
    /// The share of the baseline's mean a comparison takes as the margin when none was given
    /// for this metric (latency: 10 %); sweeps and tuning, with no baseline, use ``margin``.
    /// Giving a margin (absolute or relative) clears it.
    public var comparisonDefaultShare: Double?
    /// Reads the value, already in `unit`; `nil` where the metric does not apply (latency with no
    /// completed work).
    public var value: @Sendable (RunResult) -> Double?

    public init(key: String, label: String, unit: String, margin: Double = 0, better: Better,
                value: @escaping @Sendable (RunResult) -> Double?) {
        self.key = key
        self.label = label
        self.unit = unit
        self.margin = margin
        self.better = better
        self.value = value
    }

    /// A figure of the run's report at path `key`, in the unit its name says
    /// (``ReportUnit/of(path:)``): the unit is not written a second time.
    init(key: String, label: String, margin: Double, better: Better, value: @escaping @Sendable (RunResult) -> Double?) {
        self.init(key: key, label: label, unit: ReportUnit.of(path: key).rawValue, margin: margin, better: better, value: value)
    }

    /// The metrics every comparison reports, in order, with their default margins.
    ///
    /// The margins are our judgement [Inf] of the smallest change a team would act on, stated so
    /// that a reader can disagree and set their own (`--margins`, a comparison's `margins`):
    /// - latency: in a comparison, a tenth of the baseline's mean — for CoverDrop's p90 of about
    ///   1,300 min, 130 min; for Proton's p90 of a few minutes, under a minute — so that one
    ///   rule fits work that waits minutes and work that waits a day, and a realistic number of
    ///   seeds decides (a fixed minute against a paired spread of 87–162 min would need
    ///   21,000–72,000 seeds); in sweeps and tuning, which have no baseline, a minute;
    /// - a percentage point of work completed, one item of backlog, 0.05 of correlation;
    /// - 0.01 % of the battery a day (about 4.7 J/day on the default iPhone 15's 3,349 mAh
    ///   battery, the scale of a short background run a day), whether for the app alone or the
    ///   whole phone: one quantity, one margin, so the same change cannot be "worse" as the
    ///   app's and "equivalent" as the phone's; 5 J/day of app energy, 0.5 J an item, 0.1 J a
    ///   megabyte (a few percent of what a megabyte costs over LTE with its tail);
    /// - a launch or wake every ten days (0.1 a day), 0.1 expirations or unsuccessful
    ///   completions a day;
    /// - half a crash or kill per run, so that any systematic crash counts.
    public static let standard: [ComparedMetric] = standardWithoutShares.map { metric in
        var metric = metric
        if latencyKeys.contains(metric.key) { metric.comparisonDefaultShare = 0.1 }
        return metric
    }

    /// The latency metrics, whose comparison margin is a share of the baseline's.
    static let latencyKeys: Set<String> = ["work.allItemsLatencyMinutes.p50", "work.allItemsLatencyMinutes.p90",
                                           "work.latencyMinutes.p50", "work.latencyMinutes.p90"]

    private static let standardWithoutShares: [ComparedMetric] = [
        // Over every item, one that never completed counted at its deadline or the run's end
        // (``WorkMetrics/censoredLatency``): dropping work cannot shorten it. The defaults use it.
        ComparedMetric(key: "work.allItemsLatencyMinutes.p50", label: "median latency, all items", margin: 1, better: .lower) {
            $0.work.created > 0 ? $0.work.metrics.latencyOverAllItems.quantile(0.5) / 60 : nil
        },
        ComparedMetric(key: "work.allItemsLatencyMinutes.p90", label: "p90 latency, all items", margin: 1, better: .lower) {
            $0.work.created > 0 ? $0.work.metrics.latencyOverAllItems.quantile(0.9) / 60 : nil
        },
        // Over the completed items only: a policy that drops slow items shortens it.
        ComparedMetric(key: "work.latencyMinutes.p50", label: "median latency, completed items", margin: 1, better: .lower) {
            $0.work.completed > 0 ? $0.work.metrics.latency.quantile(0.5) / 60 : nil
        },
        ComparedMetric(key: "work.latencyMinutes.p90", label: "p90 latency, completed items", margin: 1, better: .lower) {
            $0.work.completed > 0 ? $0.work.metrics.latency.quantile(0.9) / 60 : nil
        },
        ComparedMetric(key: "work.completionPercent", label: "work completed", margin: 1, better: .higher) {
            $0.work.created > 0 ? $0.work.completionPercent : nil
        },
        ComparedMetric(key: "work.backlogAtEnd", label: "backlog at the end", margin: 1, better: .lower) {
            Double($0.work.metrics.backlogAtEnd)
        },
        // Privacy: 1 when the upload traffic is exactly the real work, lower with cover traffic.
        ComparedMetric(key: "work.uploadTraffic.realWorkCorrelation", label: "uploads' correlation with real work",
                       margin: 0.05, better: .lower) {
            $0.work.uploadsRealWorkCorrelation
        },
        ComparedMetric(key: "energy.appBatteryPercentPerDay", label: "app battery use", margin: 0.01, better: .lower) {
            $0.energy.appBatteryPercentPerDay
        },
        ComparedMetric(key: "energy.appJoulesPerDay", label: "app energy", margin: 5, better: .lower) {
            $0.energy.appJoulesPerDay
        },
        // Energy per megabyte the completed items carried: a door that completes more work
        // costs more a day, not necessarily more a byte; unlike energy per item, an arm that
        // completes only the small items does not look cheaper for it. Defaults use this one.
        ComparedMetric(key: "energy.appJoulesPerMegabyteDelivered", label: "app energy per MB delivered", margin: 0.1, better: .lower) {
            $0.energy.joulesPerMegabyteDelivered($0.work)
        },
        // Energy per completed item: it favours an arm that completes only small items; kept for
        // work that carries no bytes.
        ComparedMetric(key: "energy.appJoulesPerCompletedItem", label: "app energy per completed item", margin: 0.5, better: .lower) {
            $0.energy.joulesPerCompletedItem($0.work)
        },
        ComparedMetric(key: "os.backgroundWakesPerDay", label: "background wakes", margin: 0.1, better: .neither) {
            $0.os.backgroundWakesPerDay
        },
        ComparedMetric(key: "os.refreshLaunchesPerDay", label: "refresh launches", margin: 0.1, better: .neither) {
            $0.os.refreshLaunchesPerDay
        },
        ComparedMetric(key: "os.processingLaunchesPerDay", label: "processing launches", margin: 0.1, better: .neither) {
            $0.os.processingLaunchesPerDay
        },
        ComparedMetric(key: "os.expirationsPerDay", label: "task expirations", margin: 0.1, better: .lower) {
            $0.os.expirationsPerDay
        },
        ComparedMetric(key: "os.tasksCompletedFalsePerDay", label: "tasks completed false", margin: 0.1, better: .lower) {
            $0.os.tasksCompletedFalsePerDay
        },
        ComparedMetric(key: "os.crashes.total", label: "crashes", margin: 0.5, better: .lower) {
            Double($0.os.crashes)
        },
        // Kills for the app's own overruns (an assertion or task past its time, the CPU monitor);
        // terminations for memory are the system's and are not counted here.
        ComparedMetric(key: "os.killsForOverruns", label: "kills for overruns", margin: 0.5, better: .lower) {
            Double($0.os.killsForOverruns)
        },
        ComparedMetric(key: "device.batteryDrainPercentPerDay", label: "battery drawn", margin: 0.01, better: .lower) {
            $0.device.batteryDrainPercentPerDay
        },
    ]
}
