import BackgroundSim
import SimKernel

/// One device's refresh log reduced, once, to what its likelihood needs under any values of
/// the parameters calibration fits for refresh (the base budget, the budget per session and
/// the fade): at each evaluation that reads the app's use, what it read
/// (``HeuristicLaunchModel/RefreshUse``) and the log's launches there.
///
/// Everything else a refresh evaluation depends on — the learnt hours of use, the denials for
/// recency, spacing and the battery floor, which requests are pending and due — is fixed by
/// the log, so a fit that replays the tape instead of the log gets the same likelihood
/// (``LaunchReplay/score(_:kind:parameters:phone:)``, to rounding) for a fraction of the work:
/// the bucket's refills, one exponential per evaluation and a logarithm per launch.
struct RefreshTape: Sendable {
    /// An evaluation the tape keeps.
    struct Point: Sendable {
        /// What it read of the app's use; `nil` where the model computes no chance (no request
        /// due, a denial before the budget, the battery floor) but the log shows launches.
        var use: HeuristicLaunchModel.RefreshUse?
        /// Requests pending and due.
        var eligible: Int32
        /// Of those, the ones the log launched here.
        var matched: Int32
        /// The log's launches placed here (matched or not: each spends a token).
        var logged: Int32
    }

    var points: [Point]
    /// The parameters it was recorded under; it scores parameters that differ from them in the
    /// fitted values only.
    let recordedUnder: HeuristicLaunchParameters
    /// Evaluations at which a request of the kind was pending and due, whatever the model
    /// decided there: whether the logs can say anything of the parameters at all.
    var dueEvaluations = 0

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

        /// The fractions `u` of the log's rate of opens the earlier use is integrated over: 12
        /// points evenly spread over [0, 1.5] (the midpoints of its twelfths) [Inf]. A phone
        /// logged from a week after install had learnt about half (opens halve every
        /// `usageHalfLifeDays`, 7 days); one logged from months after, about all, give or take
        /// how much a user's opens over weeks vary. How common each is among the logs' phones is
        /// fitted (``EarlierUseMixture``). None is 0: a phone with nothing learnt reads every
        /// hour's share as even (``HeuristicLaunchModel/assumeEarlierUse``), which no tape
        /// recorded with some learnt can score.
        static let fractions: [Double] = (0..<12).map { 1.5 * (Double($0) + 0.5) / 12 }
    }

    /// Set for a log that began after install (and shows an open).
    var prehistory: Prehistory?

    /// The score of the tape's launches under `parameters`: what the replay would give. For a
    /// log that began after install, its score with as much earlier use as the log's own
    /// rate; ``componentScores(_:)`` gives the others.
    func score(_ parameters: HeuristicLaunchParameters) -> LaunchReplay.Score {
        score(parameters, earlierUse: 1)
    }

    /// For a log that began after install, its score with each of ``Prehistory/fractions`` of
    /// the log's rate of opens learnt before it; for one from install, its one score.
    func componentScores(_ parameters: HeuristicLaunchParameters) -> [LaunchReplay.Score] {
        scores(parameters, earlierUses: prehistory == nil ? [1] : Prehistory.fractions)
    }

    /// The score with `earlierUse` times the log's rate of opens learnt before it
    /// (``Prehistory``; ignored for a log from install): what the replay with as much gives.
    func score(_ parameters: HeuristicLaunchParameters, earlierUse: Double) -> LaunchReplay.Score {
        scores(parameters, earlierUses: [earlierUse])[0]
    }

    /// The scores with each of `earlierUses`, in one pass over the points: what each shares
    /// (the point, its fade) is read once.
    func scores(_ parameters: HeuristicLaunchParameters, earlierUses: [Double]) -> [LaunchReplay.Score] {
        precondition(LaunchFit.differOnlyInFitted(parameters, recordedUnder, kind: .refresh),
                     "RefreshTape: scored under parameters it was not recorded for")
        let count = earlierUses.count
        var scores = [LaunchReplay.Score](repeating: LaunchReplay.Score(), count: count)
        // A phone with a history starts with its bucket full (``HeuristicLaunchModel/assumeEarlierUse``).
        var tokens = [Double](repeating: prehistory == nil ? HeuristicLaunchModel.initialRefreshTokens(parameters, generosity: 1) : .infinity,
                              count: count)
        var fades = FadeSteps(halfLife: parameters.refreshFadeHalfLifeDays, stepMinutes: parameters.evaluationMinutes)
        let extraOpens = earlierUses.map { fraction in prehistory.map { (fraction - 1) * $0.opensPerDay } ?? 0 }
        for (index, point) in points.enumerated() {
            guard let recorded = point.use else {
                for k in 0..<count {
                    Self.add(point, hazard: nil, to: &scores[k])
                    tokens[k] -= Double(point.logged)
                }
                continue
            }
            let fade = fades.fade(days: recorded.daysSinceUse)
            for k in 0..<count {
                var hazard: Double?
                if case .expected(let expected) = HeuristicLaunchModel.refreshHazard(
                    use(recorded, at: index, extraOpens: extraOpens[k]), parameters: parameters, generosity: 1, tokens: &tokens[k], fade: fade) {
                    hazard = expected
                }
                Self.add(point, hazard: hazard, to: &scores[k])
                tokens[k] -= Double(point.logged)
            }
        }
        return scores
    }

    /// Adds to `score` what `point` contributes where the model's hazard there is `hazard`
    /// (`nil`: a denial, or no chance computed).
    private static func add(_ point: Point, hazard: Double?, to score: inout LaunchReplay.Score) {
        var unexplained = Int(point.logged)
        if let hazard {
            // Each due request has the same chance p = 1 − exp(−hazard): the launched ones add
            // log p, the others log(1 − p) = −hazard. A chance of 0 counts no evaluation; one of
            // exactly 1 makes a request left unlaunched impossible.
            let missed = point.eligible - point.matched
            if point.matched == 0 && hazard > 1e-15 && hazard < 36 {
                // p is strictly inside (0, 1) and need not be computed: the common case.
                score.evaluations += 1
                score.logLikelihood -= Double(missed) * hazard
            } else {
                let chance = 1 - PortableMath.exp(-hazard)
                if chance > 0 {
                    score.evaluations += 1
                    if chance < 1 || missed == 0 {
                        unexplained -= Int(point.matched)
                        if point.matched > 0 { score.logLikelihood += Double(point.matched) * PortableMath.log(chance) }
                        score.logLikelihood -= Double(missed) * hazard
                    }
                }
            }
        }
        score.launches += Int(point.logged)
        score.unexplained += unexplained
        score.logLikelihood += LaunchReplay.unexplainedLogChance * Double(unexplained)
    }

    /// What the point at `index` read of the app's use (`recorded`), with `extraOpens` opens a
    /// day more learnt before the log than the tape was recorded with (``Prehistory``).
    private func use(_ recorded: HeuristicLaunchModel.RefreshUse, at index: Int, extraOpens: Double) -> HeuristicLaunchModel.RefreshUse {
        guard extraOpens != 0, let prehistory else { return recorded }
        var use = recorded
        let extra = extraOpens * prehistory.decay[index]
        let sessions = Swift.max(0, use.sessionsPerDay + extra)
        if sessions > 0 {
            use.shareAhead = Swift.max(0, use.shareAhead * use.sessionsPerDay + extra * prehistory.shareAhead[index]) / sessions
        }
        use.sessionsPerDay = sessions
        return use
    }
}
