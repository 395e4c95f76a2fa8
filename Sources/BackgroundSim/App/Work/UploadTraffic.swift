import SimKernel

/// What an observer of the network sees of the app's uploads, day by day, and how much of it is
/// real work: the figure behind cover traffic.
///
/// CoverDrop pads every run to a fixed number of messages so that its traffic does not reveal
/// when a source wrote. Here, each day (of the simulation's true time, from its start) counts the
/// uploads that completed — `all` of them, and the `real` ones (not cover), an item the app's
/// overlapping jobs both sent counting twice, as the wire carries it — and
/// the summary is the correlation, over every day of the run, between the two counts: 1 when the
/// traffic is exactly the real work (no cover), near 0 when it tells nothing about it. Streaming
/// sums keep it O(1) in memory.
package struct UploadTraffic: Sendable, Equatable {
    private var day = Int64.min
    private var dayAll = 0.0
    private var dayReal = 0.0
    private var sumAll = 0.0, sumReal = 0.0, sumAllSquared = 0.0, sumRealSquared = 0.0, sumProduct = 0.0
    /// Days with at least one upload.
    package private(set) var daysWithUploads = 0
    /// Uploads that completed (each copy an item was sent in): all of them, and the real ones.
    package private(set) var uploads = 0
    package private(set) var realUploads = 0

    init() {}

    /// An upload (an item, or one more copy of it) completed at `instant`.
    mutating func record(at instant: SimInstant, isCover: Bool) {
        let itemDay = instant.nanosecondsSinceStart / 86_400_000_000_000
        if itemDay != day {
            closeDay()
            day = itemDay
        }
        dayAll += 1
        uploads += 1
        if !isCover {
            dayReal += 1
            realUploads += 1
        }
    }

    /// Folds the day in progress into the sums.
    private mutating func closeDay() {
        guard dayAll > 0 else { return }
        sumAll += dayAll
        sumReal += dayReal
        sumAllSquared += dayAll * dayAll
        sumRealSquared += dayReal * dayReal
        sumProduct += dayAll * dayReal
        daysWithUploads += 1
        dayAll = 0
        dayReal = 0
    }

    /// The Pearson correlation over `days` days (days without uploads count as zeros) between
    /// each day's uploads and its real uploads; `nil` when either count never varies (no uploads,
    /// or the same number every day).
    package func correlation(days: Int) -> Double? {
        var closed = self
        closed.closeDay()
        let n = Double(Swift.max(days, closed.daysWithUploads))
        guard n > 1 else { return nil }
        let covariance = closed.sumProduct - closed.sumAll * closed.sumReal / n
        let varianceAll = closed.sumAllSquared - closed.sumAll * closed.sumAll / n
        let varianceReal = closed.sumRealSquared - closed.sumReal * closed.sumReal / n
        guard varianceAll > 1e-9 * n, varianceReal > 1e-9 * n else { return nil }
        return covariance / (varianceAll * varianceReal).squareRoot()
    }

    /// The share of `days` with at least one upload.
    package func shareOfDaysWithUploads(days: Int) -> Double {
        var closed = self
        closed.closeDay()
        return days > 0 ? Double(closed.daysWithUploads) / Double(days) : 0
    }
}
