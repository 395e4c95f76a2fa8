import BackgroundSim
import SimKernel
import BackgroundSimLab

/// What a field log says about when the system ran an app's tasks, per task kind: the features
/// the launch model is calibrated to and checked against, each with a 95 % interval from a
/// bootstrap over devices (devices are independent; launches on one device are not), computed
/// in memory that does not grow with the log (``Builder``).
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
    /// The number of bootstrap resamples behind the intervals, and the seed of the stream their
    /// weights are drawn from.
    package static let resamples = 200
    package static let bootstrapSeed: UInt64 = 20_261_123

    /// The features of `records` (sorted by device, then time, each device's on the clock of its
    /// first record, as ``FieldLogFormat/load(paths:jobs:)`` returns them).
    package init(_ records: [FieldLogRecord]) {
        let devices = FieldLogFormat.devices(records)
        var builder = Builder(logEnd: devices.compactMap { $0.last?.time.seconds }.max() ?? -.infinity)
        for device in devices { builder.add(device) }
        self = builder.features
    }

    /// The features of a log taken a device at a time (``FieldLogFormat/forEachDevice(paths:jobs:progress:logEnd:_:)``),
    /// in memory that does not grow with the devices: each device is reduced to its launch
    /// summaries (``DeviceLaunchSummary``), one per kind and history, and those are added to the
    /// kind's totals (``FieldLogTotals``) and to each bootstrap resample's, with the device's
    /// weight in it, then dropped.
    ///
    /// The bootstrap is Poisson's (``Bootstrap/poissonWeight(using:)``): each device gets a
    /// weight in each of the ``resamples`` resamples, drawn as it comes from the stream
    /// `fieldlog.bootstrap` seeded with ``bootstrapSeed``, ``resamples`` draws a device in the
    /// order devices are added; a device's histories (``DeviceHistory/pieces(_:)``) and kinds
    /// share its weights, since they are not independent. Delays and spacings are resampled in
    /// histograms (``QuantileSketch``), so every quantile, the point estimate's too, is within
    /// 0.78 % of the exact one, and exact where its bins hold one value each (whole minutes under
    /// 256, quarter hours under 2,048 minutes).
    package struct Builder {
        /// The latest record of any device, on its device's first clock, in seconds from the
        /// epoch's local midnight (``DeviceHistory/localEnd``): a device's last history is
        /// summarised up to it, as calibration replays it (``DeviceHistory/reachingTheLogsEnd(_:)``).
        private let logEnd: Double
        private var totals: [FieldLogRecord.Kind: KindTotals] = [:]
        private var stream = RandomStream(seed: bootstrapSeed, label: StreamLabel("fieldlog.bootstrap"), entity: 0)
        private var weights = [UInt8](repeating: 0, count: resamples)

        /// One kind's totals: devices, launches by hour, the point totals and each resample's.
        private struct KindTotals {
            var devices = 0
            var launchesByHour = [Int](repeating: 0, count: 24)
            var launches = 0
            var point = FieldLogTotals()
            var resampled = [FieldLogTotals](repeating: FieldLogTotals(), count: resamples)
        }

        /// A builder for a log whose latest record is at `logEnd` (``FieldLogReader/logEnd``).
        package init(logEnd: Double) {
            self.logEnd = logEnd
        }

        /// Adds one device's records, sorted by time; devices are added in a fixed order (their
        /// bootstrap weights are drawn in it).
        package mutating func add(_ device: some Collection<FieldLogRecord>) {
            guard !device.isEmpty else { return }
            for index in weights.indices { weights[index] = Bootstrap.poissonWeight(using: &stream) }
            let pieces = DeviceHistory.pieces(ArraySlice(device))
            var counted: Set<FieldLogRecord.Kind> = []
            for (position, history) in pieces.enumerated() {
                for kind in FieldLogRecord.Kind.allCases where history.involves(kind) {
                    var summary = DeviceLaunchSummary(events: DeviceLaunchSummary.loggedEvents(history, kind: kind), start: history.start)
                    summary.finish(at: position < pieces.count - 1 ? history.end : Swift.max(history.end, logEnd - history.localOrigin))
                    add(summary, of: kind, newDevice: counted.insert(kind).inserted)
                }
            }
        }

        private mutating func add(_ summary: DeviceLaunchSummary, of kind: FieldLogRecord.Kind, newDevice: Bool) {
            let binned = FieldLogTotals.Binned(summary)
            var kindTotals = totals.removeValue(forKey: kind) ?? KindTotals()
            if newDevice { kindTotals.devices += 1 }
            kindTotals.launches += summary.launches
            for hour in 0..<24 { kindTotals.launchesByHour[hour] += summary.launchesByHour[hour] }
            kindTotals.point.add(binned, weight: 1)
            for (resample, weight) in weights.enumerated() where weight > 0 {
                kindTotals.resampled[resample].add(binned, weight: Double(weight))
            }
            totals[kind] = kindTotals
        }

        /// The features of the devices added so far.
        package var features: FieldLogFeatures {
            FieldLogFeatures(kinds: FieldLogRecord.Kind.allCases.compactMap { kind in
                totals[kind].map { Self.features(kind, $0) }
            })
        }

        /// One kind's features from its totals, with bootstrap intervals when there is more
        /// than one device to resample.
        private static func features(_ kind: FieldLogRecord.Kind, _ totals: KindTotals) -> Kind {
            let point = totals.point.scalars
            var draws = [[Double?]](repeating: [], count: point.count)
            if totals.devices > 1 {
                for resample in totals.resampled {
                    for (index, value) in resample.scalars.enumerated() { draws[index].append(value) }
                }
            }
            let estimates = point.indices.map { index -> Estimate in
                guard point[index] != nil, let interval = Bootstrap.percentileInterval95(draws[index].compactMap { $0 }) else {
                    return Estimate(value: point[index], low: nil, high: nil)
                }
                return Estimate(value: point[index], low: interval.low, high: interval.high)
            }
            let launches = totals.launches
            return Kind(kind: kind, devices: totals.devices, deviceDays: totals.point.days, launches: launches, launchesPerDay: estimates[0],
                        hourShares: totals.launchesByHour.map { launches > 0 ? Double($0) / Double(launches) : 0 },
                        delayMedianMinutes: estimates[1], delayP90Minutes: estimates[2], spacingMedianMinutes: estimates[3],
                        chargingShare: estimates[4], fading: Array(estimates[5...]))
        }
    }

    private init(kinds: [Kind]) {
        self.kinds = kinds
    }
}
