import BackgroundSim
import SimKernel

extension RefreshTape {
    /// What scoring a log that began after install needs besides its points: the phone had
    /// learnt some use before the log, which the log does not show.
    ///
    /// The replay assumes the phone had learnt as many opens a day as the log shows, spread
    /// over the hours as the log's opens are (``HeuristicLaunchModel/assumeEarlierUse``); the
    /// decayed count is linear in that amount, so the tape can score any fraction `u` of it:
    /// at a point, the sessions a day move by `(u − 1) · opensPerDay · decay`, and the hour
    /// ahead's learnt use by that times `shareAhead`.
    struct Prehistory: Sendable {
        /// The log's opens a day: the earlier use's sessions a day at the log's start, at `u = 1`.
        var opensPerDay: Double
        /// Per point: how much of the earlier use is left (its decay since the log's start),
        /// and the earlier use's share of the hour the point reads.
        var decay: [Double] = []
        var shareAhead: [Double] = []

        /// The largest fraction `u` of the log's rate of opens the earlier use is integrated
        /// up to: default 2.5, plausible 1.5–3 [Inf]. A phone logged from a week after install
        /// had learnt about half (opens halve every `usageHalfLifeDays`, 7 days); one logged from
        /// months after, about all, give or take how much a user's opens over weeks vary. A
        /// phone whose opens fell off during the log, or a piece of a log after a long silence
        /// (``DeviceHistory/pieces``), can have learnt more than 1.5 times its logged rate: with
        /// 1.5, one log begun 21 days after install gave a base budget of 0.917 (0.615–1.369)
        /// against 0.5, and logs with a gap 6 of 8 covered; with 2.5, 0.552 (0.500–0.598) and 8
        /// of 8 (docs/CALIBRATION.md, "Logs that begin after install"). The cost: about twice
        /// the calibration time of such logs (BENCHMARKS.md).
        static let largestFraction = 2.5

        /// The bins of earlier use the likelihood is averaged over: [0, ``largestFraction``] in
        /// twentieths, each 0.125 wide; default 20, plausible 12–40 (a scoring of every tape
        /// each) [Inf]. How common each is among the logs' phones is fitted
        /// (``EarlierUseMixture``); within a bin the amount is taken as evenly spread.
        static let bins = 20

        /// The bins' midpoints, where each device's log is scored. None is 0: a phone with
        /// nothing learnt reads every hour's share as even
        /// (``HeuristicLaunchModel/assumeEarlierUse``), which no tape recorded with some learnt
        /// can score.
        static let fractions: [Double] = (0..<bins).map { largestFraction * (Double($0) + 0.5) / Double(bins) }

        /// Halvings of the interval that holds the device's last step (``binAverages(_:)``):
        /// 4 (plausible 2–6) places it to a sixteenth of a bin [Inf]. Each costs a scoring of
        /// the tape at one amount; the 4 together, about a third of the 20 midpoints' cost (what
        /// a point's amounts share — the point, its fade — is done once per scoring).
        static let stepSearches = 4
    }

    /// A device's log scored with one amount of earlier use.
    struct EarlierUsePoint: Sendable {
        /// The fraction `u` of the log's rate of opens learnt before it.
        var fraction: Double
        var score: LaunchReplay.Score

        var logLikelihood: Double { score.logLikelihood }
        /// Launches the model could not have made with that much learnt.
        var unexplained: Int { score.unexplained }

        init(fraction: Double, score: LaunchReplay.Score) {
            self.fraction = fraction
            self.score = score
        }
    }

    /// For a log that began after install, its score in each bin of earlier use
    /// (``Prehistory/bins``): the log-likelihood is that of the likelihood averaged over the
    /// bin, the other counts (launches unexplained, evaluations) are those of the likeliest
    /// amount scored in the bin. For one from install, its one score.
    ///
    /// A device's likelihood as a function of its earlier use is a staircase with slopes: each
    /// step up is a launch the bucket could not have paid for with less learnt (an unexplained
    /// launch costs about 23 more than a launch the model explains), and between steps it
    /// changes slowly. Where the last step falls decides how much of a bin the device fits
    /// in; scoring the midpoints alone would put it at a midpoint, and a fit of launch
    /// parameters then makes up the difference (12, 24 or 48 midpoints moved a fitted base
    /// budget of about 0.5 by up to 0.085: docs/CALIBRATION.md). So the last step is searched for by halving the interval between the
    /// midpoints on either side (``Prehistory/stepSearches``), and the bin averages integrate
    /// the log-likelihood interpolated linearly between points with the same unexplained
    /// launches, stepping halfway between points without.
    func componentScores(_ parameters: HeuristicLaunchParameters) -> [LaunchReplay.Score] {
        guard prehistory != nil else { return scores(parameters, earlierUses: [1]) }
        let midpoints = zip(Prehistory.fractions, scores(parameters, earlierUses: Prehistory.fractions)).map {
            EarlierUsePoint(fraction: $0, score: $1)
        }
        let points = (midpoints + lastStep(midpoints, parameters)).sorted { $0.fraction < $1.fraction }
        let averages = Self.binAverages(points)
        let width = Prehistory.largestFraction / Double(Prehistory.bins)
        return averages.indices.map { bin in
            // Each bin holds its midpoint, so the likeliest is never missing.
            let inBin = points.lazy.filter { Int($0.fraction / width) == bin }
            var score = inBin.max { $0.logLikelihood < $1.logLikelihood }?.score ?? midpoints[bin].score
            score.logLikelihood = averages[bin]
            return score
        }
    }

    /// The points the search for the last step scores: between the last midpoint with more
    /// unexplained launches than the fewest and the next, halving the interval
    /// ``Prehistory/stepSearches`` times. None if the first midpoint has the fewest.
    private func lastStep(_ midpoints: [EarlierUsePoint], _ parameters: HeuristicLaunchParameters) -> [EarlierUsePoint] {
        let fewest = midpoints.map(\.unexplained).min() ?? 0
        guard let first = midpoints.firstIndex(where: { $0.unexplained == fewest }), first > 0 else { return [] }
        var below = midpoints[first - 1].fraction, above = midpoints[first].fraction
        var found: [EarlierUsePoint] = []
        for _ in 0..<Prehistory.stepSearches {
            let middle = (below + above) / 2
            let score = score(parameters, earlierUse: middle)
            found.append(EarlierUsePoint(fraction: middle, score: score))
            if score.unexplained == fewest { above = middle } else { below = middle }
        }
        return found
    }

    /// The logarithm of the likelihood averaged over each bin of earlier use
    /// (``Prehistory/bins`` of [0, ``Prehistory/largestFraction``]), from `points` in order of
    /// their fraction: between two points with the same unexplained launches the
    /// log-likelihood is linear; between two without, it steps halfway; before the first and
    /// after the last it is the nearest point's.
    static func binAverages(_ points: [EarlierUsePoint]) -> [Double] {
        guard let first = points.first, let last = points.last else { return [] }
        // The pieces [from, to] with the log-likelihood at each end.
        var pieces: [(from: Double, to: Double, start: Double, end: Double)] = [(-.infinity, first.fraction, first.logLikelihood, first.logLikelihood)]
        for (left, right) in zip(points, points.dropFirst()) {
            if left.unexplained == right.unexplained {
                pieces.append((left.fraction, right.fraction, left.logLikelihood, right.logLikelihood))
            } else {
                let middle = (left.fraction + right.fraction) / 2
                pieces.append((left.fraction, middle, left.logLikelihood, left.logLikelihood))
                pieces.append((middle, right.fraction, right.logLikelihood, right.logLikelihood))
            }
        }
        pieces.append((last.fraction, .infinity, last.logLikelihood, last.logLikelihood))
        let width = Prehistory.largestFraction / Double(Prehistory.bins)
        return (0..<Prehistory.bins).map { bin in
            let low = Double(bin) * width, high = low + width
            var logs: [Double] = []
            for piece in pieces {
                let from = Swift.max(piece.from, low), to = Swift.min(piece.to, high)
                guard to > from else { continue }
                logs.append(logIntegral(of: piece, from: from, to: to))
            }
            let top = logs.max() ?? 0
            return top + PortableMath.log(logs.reduce(0) { $0 + PortableMath.exp($1 - top) } / width)
        }
    }

    /// log ∫ exp(f) over [from, to], f linear on the piece (constant on an unbounded one).
    private static func logIntegral(of piece: (from: Double, to: Double, start: Double, end: Double), from: Double, to: Double) -> Double {
        let slope = piece.from.isFinite && piece.to.isFinite ? (piece.end - piece.start) / (piece.to - piece.from) : 0
        let atFrom = piece.from.isFinite ? piece.start + slope * (from - piece.from) : piece.start
        let atTo = atFrom + slope * (to - from)
        let top = Swift.max(atFrom, atTo)
        let rise = atTo - atFrom
        // ∫ e^f = (e^f(to) − e^f(from)) / slope, or the length times e^f where f is flat.
        let scaled = abs(rise) < 1e-9 ? 1 : (PortableMath.exp(atTo - top) - PortableMath.exp(atFrom - top)) / rise
        return top + PortableMath.log((to - from) * scaled)
    }
}
