import BackgroundSim

extension RefreshTape {
    /// A tape's points, held compactly: the four numbers each read of the app's use (what the
    /// likelihood needs, exactly, so that the tape scores as the replay does to 1e-9) in one
    /// array, and the three counts a byte each — 35 bytes a point where ``Point`` takes 56. A
    /// point the model read no use at keeps its counts only. Counts above 254, which a real log
    /// does not reach at one evaluation, are kept aside whole.
    ///
    /// A phone-day has up to 96 points (one each 15-minute evaluation with a request due): up
    /// to 3.4 kB a phone-day, and 16 bytes a point more for a log that began after install
    /// (``Prehistory``).
    struct Points: RandomAccessCollection, Sendable {
        /// Per point: the use's elapsed days (NaN for none), sessions a day, share of use ahead
        /// and days since use.
        private var uses: [Double] = []
        /// Per point: eligible, matched and logged, each a byte; ``escape`` where one is above
        /// 254, and the point's counts in `largeCounts`.
        private var counts: [UInt8] = []
        private var largeCounts: [Int: (eligible: Int32, matched: Int32, logged: Int32)] = [:]
        private static let escape = UInt8.max

        init() {}

        var startIndex: Int { 0 }
        var endIndex: Int { counts.count / 3 }

        subscript(index: Int) -> Point {
            let elapsed = uses[4 * index]
            let use = elapsed.isNaN ? nil : HeuristicLaunchModel.RefreshUse(
                elapsedDays: elapsed, sessionsPerDay: uses[4 * index + 1], shareAhead: uses[4 * index + 2], daysSinceUse: uses[4 * index + 3])
            if counts[3 * index] == Self.escape, let large = largeCounts[index] {
                return Point(use: use, eligible: large.eligible, matched: large.matched, logged: large.logged)
            }
            return Point(use: use, eligible: Int32(counts[3 * index]), matched: Int32(counts[3 * index + 1]), logged: Int32(counts[3 * index + 2]))
        }

        mutating func append(_ point: Point) {
            if let use = point.use {
                precondition(!use.elapsedDays.isNaN, "RefreshTape.Points: a use read with NaN elapsed days")
                uses.append(use.elapsedDays)
                uses.append(use.sessionsPerDay)
                uses.append(use.shareAhead)
                uses.append(use.daysSinceUse)
            } else {
                uses.append(.nan)
                uses.append(contentsOf: repeatElement(0, count: 3))
            }
            func fits(_ count: Int32) -> Bool { count >= 0 && count < Int32(Self.escape) }
            if fits(point.eligible) && fits(point.matched) && fits(point.logged) {
                counts.append(UInt8(point.eligible))
                counts.append(UInt8(point.matched))
                counts.append(UInt8(point.logged))
            } else {
                largeCounts[endIndex] = (point.eligible, point.matched, point.logged)
                counts.append(contentsOf: repeatElement(Self.escape, count: 3))
            }
        }

        /// Drops the spare capacity appending left (up to as much again as the points need).
        mutating func trim() {
            uses.trim()
            counts.trim()
        }

        /// The bytes the points hold, beyond the arrays' fixed parts.
        var bytes: Int { uses.count * 8 + counts.count + largeCounts.count * 20 }
    }
}
