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

    var points: Points
    /// The parameters it was recorded under; it scores parameters that differ from them in the
    /// fitted values only.
    let recordedUnder: HeuristicLaunchParameters
    /// Evaluations at which a request of the kind was pending and due, whatever the model
    /// decided there: whether the logs can say anything of the parameters at all.
    var dueEvaluations = 0

    /// Set for a log that began after install (and shows an open).
    var prehistory: Prehistory?

    /// The score of the tape's launches under `parameters`: what the replay would give. For a
    /// log that began after install, its score with as much earlier use as the log's own
    /// rate; ``componentScores(_:)`` gives the mixture's parts.
    func score(_ parameters: HeuristicLaunchParameters) -> LaunchReplay.Score {
        score(parameters, earlierUse: 1)
    }

    /// The score with `earlierUse` times the log's rate of opens learnt before it
    /// (``Prehistory``; ignored for a log from install): what the replay with as much gives.
    func score(_ parameters: HeuristicLaunchParameters, earlierUse: Double) -> LaunchReplay.Score {
        scores(parameters, earlierUses: [earlierUse])[0]
    }

    /// The scores with each of `earlierUses`, in one pass over the points: what each shares
    /// (the point, its fade, the earlier use's decay there) is read once, and each amount's
    /// running score and bucket are kept side by side in one buffer (a fit scores every tape
    /// thousands of times, each at two dozen amounts).
    func scores(_ parameters: HeuristicLaunchParameters, earlierUses: [Double]) -> [LaunchReplay.Score] {
        precondition(LaunchFit.differOnlyInFitted(parameters, recordedUnder, kind: .refresh),
                     "RefreshTape: scored under parameters it was not recorded for")
        // A phone with a history starts with its bucket full (``HeuristicLaunchModel/assumeEarlierUse``).
        let startTokens = prehistory == nil ? HeuristicLaunchModel.initialRefreshTokens(parameters, generosity: 1) : .infinity
        var lanes = earlierUses.map { fraction in
            Lane(tokens: startTokens, extraOpens: prehistory.map { (fraction - 1) * $0.opensPerDay } ?? 0)
        }
        var fades = FadeSteps(halfLife: parameters.refreshFadeHalfLifeDays, stepMinutes: parameters.evaluationMinutes)
        let decay = prehistory?.decay ?? []
        let shareAheadBefore = prehistory?.shareAhead ?? []
        lanes.withUnsafeMutableBufferPointer { lanes in
            for index in points.indices {
                let point = points[index]
                guard let recorded = point.use else {
                    for k in lanes.indices { lanes[k].add(point, hazard: nil) }
                    continue
                }
                let fade = fades.fade(days: recorded.daysSinceUse)
                let before = decay.isEmpty ? nil : (decay: decay[index], shareAhead: shareAheadBefore[index])
                for k in lanes.indices {
                    let use = Self.use(recorded, extraOpens: lanes[k].extraOpens, before: before)
                    var hazard: Double?
                    if case .expected(let expected) = HeuristicLaunchModel.refreshHazard(
                        use, parameters: parameters, generosity: 1, tokens: &lanes[k].tokens, fade: fade) {
                        hazard = expected
                    }
                    lanes[k].add(point, hazard: hazard)
                }
            }
        }
        return lanes.map(\.score)
    }

    /// One amount of earlier use's running score and bucket.
    private struct Lane {
        var tokens: Double
        /// Opens a day learnt before the log beyond what the tape was recorded with.
        let extraOpens: Double
        var score = LaunchReplay.Score()

        /// Adds what `point` contributes where the model's hazard there is `hazard` (`nil`: a
        /// denial, or no chance computed), and spends a token for each launch logged there.
        @inline(__always)
        mutating func add(_ point: Point, hazard: Double?) {
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
            // Where nothing was logged, nothing is unexplained and no token is spent, and the
            // sums below would add zeros (x + −0 is x): skipped, the common case.
            guard point.logged > 0 else { return }
            score.launches += Int(point.logged)
            score.unexplained += unexplained
            score.logLikelihood += LaunchReplay.unexplainedLogChance * Double(unexplained)
            tokens -= Double(point.logged)
        }
    }

    /// What a point read of the app's use (`recorded`), with `extraOpens` opens a day more
    /// learnt before the log than the tape was recorded with (``Prehistory``), of which
    /// `before.decay` is left at the point and `before.shareAhead` falls in the hour it reads.
    @inline(__always)
    private static func use(_ recorded: HeuristicLaunchModel.RefreshUse, extraOpens: Double,
                            before: (decay: Double, shareAhead: Double)?) -> HeuristicLaunchModel.RefreshUse {
        guard extraOpens != 0, let before else { return recorded }
        var use = recorded
        let extra = extraOpens * before.decay
        let sessions = Swift.max(0, use.sessionsPerDay + extra)
        if sessions > 0 {
            use.shareAhead = Swift.max(0, use.shareAhead * use.sessionsPerDay + extra * before.shareAhead) / sessions
        }
        use.sessionsPerDay = sessions
        return use
    }
}
