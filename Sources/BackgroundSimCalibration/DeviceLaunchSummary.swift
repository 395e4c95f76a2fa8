import BackgroundSim
import BackgroundSimLab

/// What one device's field log says about the launches of one task kind: the totals the
/// features (``FieldLogFeatures``) are made of, kept per device so that resampling devices
/// (the bootstrap) only adds them up.
struct DeviceLaunchSummary: Sendable {
    /// The bins of days since the app was last in the foreground for the fading feature.
    static let fadeBins: [(from: Double, to: Double)] = [(0, 1), (1, 3), (3, 7), (7, 14), (14, .infinity)]

    /// Local calendar days from the device's first record to the end of its log
    /// (``DeviceHistory/wholeDays(from:to:)``).
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
    /// Times the app was closed for at least ``quietGapHours`` before its next open (or the end
    /// of the log), and of those, the times no launch came in between.
    var longGaps = 0
    var quietLongGaps = 0

    /// The hours a close must last to count as a long gap [Inf]: long enough that a phone whose
    /// app was not force-quit usually gets a launch in it.
    static let quietGapHours = 6.0

    /// What the summary is made of: a device's foregrounds, and its submissions and launches
    /// of one kind, in time order; times in seconds on any fixed origin at a local midnight.
    enum Event {
        case foreground
        /// The app left the foreground.
        case background
        /// A request submitted, ready to run at `readyAt` (its earliest begin date, or its submission).
        case submitted(identifier: String, readyAt: Double)
        case launched(identifier: String, charging: Bool?)
    }

    /// Summarises one device's logged launches of `kind`, with the order the log's records at one
    /// instant are read in (``DeviceHistory``: a launch before what its own launch wrote), so
    /// that `bgsim fieldlog` and `bgsim calibrate` compute every feature of a log the same way.
    init(logged history: DeviceHistory, kind: FieldLogRecord.Kind) {
        self.init(events: Self.loggedEvents(history, kind: kind), start: history.start, end: history.end)
    }

    /// A device's logged foregrounds, and its submissions and launches of `kind`, in the
    /// history's order.
    static func loggedEvents(_ history: DeviceHistory, kind: FieldLogRecord.Kind) -> [(time: Double, event: Event)] {
        history.steps.compactMap { time, step in
            switch step {
            case .foreground: return (time, .foreground)
            case .background: return (time, .background)
            case .submitted(let submission) where submission.kind == kind:
                return (time, .submitted(identifier: submission.identifier, readyAt: submission.earliest))
            case .launched(let identifier, kind, let state): return (time, .launched(identifier: identifier, charging: state.charging))
            default: return nil
            }
        }
    }

    /// Summarises `events` (in time order) observed from `start` to `end`.
    init(events: [(time: Double, event: Event)], start: Double, end: Double) {
        self.init(events: events, start: start)
        finish(at: end)
    }

    /// Summarises `events` (in time order) observed from `start` on, to be ended by
    /// ``finish(at:)`` once the log's end is known (``FieldLogFeatures/Builder``).
    init(events: [(time: Double, event: Event)], start: Double) {
        tail = Tail(start: start, cursor: start)
        var readyAt: [String: Double] = [:]
        var lastLaunch: Double?
        for (time, event) in events {
            expose(until: time)
            switch event {
            case .foreground:
                tail.lastForeground = time
                endGap(at: time)
            case .background:
                tail.closedAt = time
                tail.launchedSinceClose = false
            case .submitted(let identifier, let ready):
                readyAt[identifier] = ready
            case .launched(let identifier, let charging):
                launches += 1
                tail.launchedSinceClose = true
                launchesByHour[Int(time.truncatingRemainder(dividingBy: 86_400) / 3_600)] += 1
                if let ready = readyAt.removeValue(forKey: identifier) { delaysMinutes.append(Swift.max(0, time - ready) / 60) }
                if let lastLaunch { spacingsMinutes.append((time - lastLaunch) / 60) }
                lastLaunch = time
                if let charging {
                    launchesWithCharging += 1
                    if charging { launchesOnCharger += 1 }
                }
                if let since = tail.lastForeground {
                    let age = (time - since) / 86_400
                    if let bin = Self.fadeBins.firstIndex(where: { age >= $0.from && age < $0.to }) { fadeLaunches[bin] += 1 }
                }
            }
        }
    }

    /// Ends the summary at `end`, the time the log covers the device until: its days, the
    /// time since the last foreground up to it, and the gap its last close left open.
    mutating func finish(at end: Double) {
        days = DeviceHistory.wholeDays(from: tail.start, to: end)
        expose(until: end)
        endGap(at: end)
    }

    /// What the end of the log still changes: where the summary has got to, the last
    /// foreground, and the open gap (when the app was closed, and whether a launch has come
    /// since).
    private struct Tail: Sendable {
        var start: Double
        var cursor: Double
        var lastForeground: Double?
        var closedAt: Double?
        var launchedSinceClose = false
    }
    private var tail: Tail

    private mutating func endGap(at time: Double) {
        if let closed = tail.closedAt, time - closed >= Self.quietGapHours * 3_600 {
            longGaps += 1
            if !tail.launchedSinceClose { quietLongGaps += 1 }
        }
        tail.closedAt = nil
    }

    /// Adds the time from the cursor to `time` to the fade bins, by days since the last foreground.
    private mutating func expose(until time: Double) {
        defer { tail.cursor = time }
        guard let since = tail.lastForeground, time > tail.cursor else { return }
        var from = (tail.cursor - since) / 86_400
        let to = (time - since) / 86_400
        for (index, bin) in Self.fadeBins.enumerated() where from < to && from < bin.to && to > bin.from {
            let start = Swift.max(from, bin.from), end = Swift.min(to, bin.to)
            fadeExposureDays[index] += end - start
            from = Swift.max(from, end)
        }
    }
}
