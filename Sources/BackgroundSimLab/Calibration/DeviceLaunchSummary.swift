import BackgroundSim

/// What one device's field log says about the launches of one task kind: the totals the
/// features (``FieldLogFeatures``) are made of, kept per device so that resampling devices
/// (the bootstrap) only adds them up.
struct DeviceLaunchSummary: Sendable {
    /// The bins of days since the app was last in the foreground for the fading feature.
    static let fadeBins: [(from: Double, to: Double)] = [(0, 1), (1, 3), (3, 7), (7, 14), (14, .infinity)]

    /// Days from the device's first record to its last.
    var days = 0.0
    var launches = 0
    /// Launches in each local hour.
    var launchesByHour = [Int](repeating: 0, count: 24)
    /// Minutes from when each launch's request could first run (its earliest begin date, or its
    /// submission) to the launch.
    var delaysMinutes: [Double] = []
    /// Minutes between consecutive launches.
    var spacingsMinutes: [Double] = []
    /// Launches whose record says whether the phone was charging, and of those, on the charger.
    var launchesWithCharging = 0
    var launchesOnCharger = 0
    /// Per fade bin: days spent with the last foreground that long ago (after the first
    /// foreground), and launches in that time.
    var fadeExposureDays = [Double](repeating: 0, count: fadeBins.count)
    var fadeLaunches = [Int](repeating: 0, count: fadeBins.count)

    /// Summarises one device's records (sorted by time) for launches of `kind`.
    init(_ records: ArraySlice<FieldLogRecord>, kind: FieldLogRecord.Kind) {
        guard let first = records.first?.time, let last = records.last?.time else { return }
        days = (last.seconds - first.seconds) / 86_400
        var readyAt: [String: LocalTimestamp] = [:]
        var lastLaunch: LocalTimestamp?
        var lastForeground: LocalTimestamp?
        var cursor = first
        /// Adds the time from `cursor` to `time` to the fade bins, by days since the last foreground.
        func expose(until time: LocalTimestamp) {
            defer { cursor = time }
            guard let since = lastForeground, time > cursor else { return }
            var from = (cursor.seconds - since.seconds) / 86_400
            let to = (time.seconds - since.seconds) / 86_400
            for (index, bin) in Self.fadeBins.enumerated() where from < to && from < bin.to && to > bin.from {
                let start = Swift.max(from, bin.from), end = Swift.min(to, bin.to)
                fadeExposureDays[index] += end - start
                from = Swift.max(from, end)
            }
        }
        for record in records {
            expose(until: record.time)
            switch record.event {
            case .appForeground:
                lastForeground = record.time
            case .taskSubmitted where record.kind == kind:
                if let identifier = record.identifier { readyAt[identifier] = Swift.max(record.earliestBegin ?? record.time, record.time) }
            case .taskLaunched where record.kind == kind:
                launches += 1
                launchesByHour[record.time.hour] += 1
                if let identifier = record.identifier, let ready = readyAt.removeValue(forKey: identifier) {
                    delaysMinutes.append(Swift.max(0, record.time.seconds - ready.seconds) / 60)
                }
                if let lastLaunch { spacingsMinutes.append((record.time.seconds - lastLaunch.seconds) / 60) }
                lastLaunch = record.time
                if let charging = record.charging {
                    launchesWithCharging += 1
                    if charging { launchesOnCharger += 1 }
                }
                if let since = lastForeground {
                    let age = (record.time.seconds - since.seconds) / 86_400
                    if let bin = Self.fadeBins.firstIndex(where: { age >= $0.from && age < $0.to }) { fadeLaunches[bin] += 1 }
                }
            default:
                break
            }
        }
    }
}
