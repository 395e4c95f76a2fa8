import BackgroundSim
import SimKernel
import BackgroundSimLab

/// What a field log says about when the system ran an app's tasks, per task kind: the features
/// the launch model is calibrated to and checked against, each with a 95 % interval from a
/// bootstrap over devices (devices are independent; launches on one device are not).
package struct FieldLogFeatures: Sendable {
    /// A feature's value with its bootstrap interval; `nil` bounds when there is nothing to
    /// resample (one device) and `nil` value when the log has no data for it.
    package struct Estimate: Sendable, Equatable {
        package var value: Double?
        package var low: Double?
        package var high: Double?
    }

    /// One task kind's features.
    package struct Kind: Sendable {
        package var kind: FieldLogRecord.Kind
        /// Devices with a launch or submission of this kind, and the days they were observed.
        package var devices: Int
        package var deviceDays: Double
        package var launches: Int
        /// Launches per device-day.
        package var launchesPerDay: Estimate
        /// The share of launches in each local hour, 0 … 23 (sums to 1 with any launch).
        package var hourShares: [Double]
        /// The median and 90th percentile of minutes from when a request could first run (its
        /// earliest begin date, or its submission) to its launch.
        package var delayMedianMinutes: Estimate
        package var delayP90Minutes: Estimate
        /// The median minutes between consecutive launches on a device.
        package var spacingMedianMinutes: Estimate
        /// The share of launches with the phone charging (of those whose record says).
        package var chargingShare: Estimate
        /// Launches per day by days since the app was last in the foreground
        /// (``DeviceLaunchSummary/fadeBins``).
        package var fading: [Estimate]
    }

    package var kinds: [Kind]
    /// The number of bootstrap resamples behind the intervals, and the stream's seed.
    package static let resamples = 200
    package static let bootstrapSeed: UInt64 = 20_261_123

    /// The features of `records` (sorted by device, then time, as ``FieldLogFormat/load(paths:jobs:)`` returns them).
    package init(_ records: [FieldLogRecord]) {
        var builder = Builder()
        for device in FieldLogFormat.devices(records) { builder.add(device) }
        self = builder.finish()
    }

    /// The features of a log taken a device at a time (``FieldLogFormat/forEachDevice(paths:jobs:_:)``):
    /// each device is reduced to its launch summaries as it comes, so only those are kept. A
    /// device's last history is summarised up to the log's end, as calibration replays it
    /// (``DeviceHistory/reachingTheLogsEnd(_:)``), once every device has been seen.
    package struct Builder {
        private var summaries: [FieldLogRecord.Kind: [DeviceLaunchSummary]] = [:]
        /// Per kind, the summaries of devices' last histories, not yet ended, with the
        /// history's origin (``DeviceHistory/localOrigin``) and last record.
        private var unfinished: [FieldLogRecord.Kind: [(index: Int, origin: Double, end: Double)]] = [:]
        /// The latest record of any device so far (``DeviceHistory/localEnd``).
        private var logEnd = -Double.infinity

        package init() {}

        /// Adds one device's records, sorted by time; devices are added in a fixed order (the
        /// bootstrap resamples them by position).
        package mutating func add(_ device: some Collection<FieldLogRecord>) {
            guard !device.isEmpty else { return }
            let pieces = DeviceHistory.pieces(ArraySlice(device))
            for (position, history) in pieces.enumerated() {
                logEnd = Swift.max(logEnd, history.localEnd)
                for kind in FieldLogRecord.Kind.allCases where history.involves(kind) {
                    var summary = DeviceLaunchSummary(events: DeviceLaunchSummary.loggedEvents(history, kind: kind), start: history.start)
                    if position < pieces.count - 1 {
                        summary.finish(at: history.end)
                    } else {
                        unfinished[kind, default: []].append((summaries[kind, default: []].count, history.localOrigin, history.end))
                    }
                    summaries[kind, default: []].append(summary)
                }
            }
        }

        /// The features of the devices added: their last histories are ended at the log's end,
        /// in place (no copy of a million summaries), so the builder takes no more devices.
        package mutating func finish() -> FieldLogFeatures {
            for (kind, open) in unfinished {
                for (index, origin, end) in open { summaries[kind]?[index].finish(at: Swift.max(end, logEnd - origin)) }
            }
            unfinished = [:]
            return FieldLogFeatures(kinds: FieldLogRecord.Kind.allCases.compactMap { kind in
                summaries[kind].map { FieldLogFeatures.features(kind, $0) }
            })
        }
    }

    private init(kinds: [Kind]) {
        self.kinds = kinds
    }

    /// The features of one kind from its devices' summaries, with bootstrap intervals.
    static func features(_ kind: FieldLogRecord.Kind, _ summaries: [DeviceLaunchSummary]) -> Kind {
        let point = scalars(summaries)
        var stream = RandomStream(seed: bootstrapSeed, label: StreamLabel("calibration.bootstrap"), entity: UInt64(kind == .refresh ? 0 : 1))
        var draws = [[Double?]](repeating: [], count: point.count)
        if summaries.count > 1 {
            for _ in 0..<resamples {
                let sample = Bootstrap.resample(summaries.count, using: &stream).map { summaries[$0] }
                for (index, value) in scalars(sample).enumerated() { draws[index].append(value) }
            }
        }
        let estimates = point.indices.map { index -> Estimate in
            guard point[index] != nil, let interval = Bootstrap.percentileInterval95(draws[index].compactMap { $0 }) else {
                return Estimate(value: point[index], low: nil, high: nil)
            }
            return Estimate(value: point[index], low: interval.low, high: interval.high)
        }
        let days = summaries.reduce(0) { $0 + $1.days }
        let launches = summaries.reduce(0) { $0 + $1.launches }
        let byHour = (0..<24).map { hour in summaries.reduce(0) { $0 + $1.launchesByHour[hour] } }
        return Kind(kind: kind, devices: summaries.count, deviceDays: days, launches: launches, launchesPerDay: estimates[0],
                    hourShares: byHour.map { launches > 0 ? Double($0) / Double(launches) : 0 },
                    delayMedianMinutes: estimates[1], delayP90Minutes: estimates[2], spacingMedianMinutes: estimates[3],
                    chargingShare: estimates[4], fading: Array(estimates[5...]))
    }

    /// The scalar features of a set of devices, in a fixed order: launches per day, delay
    /// median and p90, spacing median, charging share, then the fade bins' launches per day.
    static func scalars(_ summaries: [DeviceLaunchSummary]) -> [Double?] {
        let days = summaries.reduce(0) { $0 + $1.days }
        let launches = summaries.reduce(0) { $0 + $1.launches }
        let delays = summaries.flatMap(\.delaysMinutes).sorted()
        let spacings = summaries.flatMap(\.spacingsMinutes).sorted()
        let withCharging = summaries.reduce(0) { $0 + $1.launchesWithCharging }
        let onCharger = summaries.reduce(0) { $0 + $1.launchesOnCharger }
        var result: [Double?] = [days > 0 ? Double(launches) / days : nil, Quantile.interpolated(delays, 0.5),
                                 Quantile.interpolated(delays, 0.9), Quantile.interpolated(spacings, 0.5), withCharging > 0 ? Double(onCharger) / Double(withCharging) : nil]
        for bin in DeviceLaunchSummary.fadeBins.indices {
            let exposure = summaries.reduce(0) { $0 + $1.fadeExposureDays[bin] }
            let count = summaries.reduce(0) { $0 + $1.fadeLaunches[bin] }
            result.append(exposure > 0.5 ? Double(count) / exposure : nil)
        }
        return result
    }
}
