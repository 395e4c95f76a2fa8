import BackgroundSimLab

/// What a field log's features of one task kind are computed from, summed over devices as they
/// pass: the totals of their launch summaries (``DeviceLaunchSummary``), with the delays and
/// spacings in histograms (``QuantileSketch``) rather than kept one by one. Memory holds these
/// totals, not the devices.
struct FieldLogTotals: Sendable {
    var days = 0.0
    var launches = 0.0
    var launchesWithCharging = 0.0
    var launchesOnCharger = 0.0
    var fadeExposureDays = [Double](repeating: 0, count: DeviceLaunchSummary.fadeBins.count)
    var fadeLaunches = [Double](repeating: 0, count: DeviceLaunchSummary.fadeBins.count)
    var delaysMinutes = QuantileSketch()
    var spacingsMinutes = QuantileSketch()

    /// A launch summary with its delays and spacings put in their bins (``QuantileSketch/bin(of:)``),
    /// once for every resample it is added to.
    struct Binned {
        var summary: DeviceLaunchSummary
        var delayBins: [Int?]
        var spacingBins: [Int?]

        init(_ summary: DeviceLaunchSummary) {
            self.summary = summary
            delayBins = summary.delaysMinutes.map(QuantileSketch.bin(of:))
            spacingBins = summary.spacingsMinutes.map(QuantileSketch.bin(of:))
        }
    }

    /// Adds `summary` `weight` times.
    mutating func add(_ binned: Binned, weight: Double) {
        let summary = binned.summary
        days += weight * summary.days
        launches += weight * Double(summary.launches)
        launchesWithCharging += weight * Double(summary.launchesWithCharging)
        launchesOnCharger += weight * Double(summary.launchesOnCharger)
        for bin in fadeExposureDays.indices {
            fadeExposureDays[bin] += weight * summary.fadeExposureDays[bin]
            fadeLaunches[bin] += weight * Double(summary.fadeLaunches[bin])
        }
        for (value, bin) in zip(summary.delaysMinutes, binned.delayBins) { delaysMinutes.add(value, bin: bin, weight: weight) }
        for (value, bin) in zip(summary.spacingsMinutes, binned.spacingBins) { spacingsMinutes.add(value, bin: bin, weight: weight) }
    }

    /// The scalar features, in a fixed order: launches per day, delay median and p90, spacing
    /// median, charging share, then the fade bins' launches per day (`nil` where there is no
    /// data: a fade bin needs more than half a device-day observed).
    var scalars: [Double?] {
        var result: [Double?] = [days > 0 ? launches / days : nil, delaysMinutes.quantile(0.5), delaysMinutes.quantile(0.9),
                                 spacingsMinutes.quantile(0.5), launchesWithCharging > 0 ? launchesOnCharger / launchesWithCharging : nil]
        for bin in fadeExposureDays.indices {
            result.append(fadeExposureDays[bin] > 0.5 ? fadeLaunches[bin] / fadeExposureDays[bin] : nil)
        }
        return result
    }
}
