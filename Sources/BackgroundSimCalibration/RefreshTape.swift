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

    /// The score of the tape's launches under `parameters`: what the replay would give.
    func score(_ parameters: HeuristicLaunchParameters) -> LaunchReplay.Score {
        precondition(LaunchFit.differOnlyInFitted(parameters, recordedUnder, kind: .refresh),
                     "RefreshTape: scored under parameters it was not recorded for")
        var score = LaunchReplay.Score()
        var tokens = HeuristicLaunchModel.initialRefreshTokens(parameters, generosity: 1)
        var fades = FadeSteps(halfLife: parameters.refreshFadeHalfLifeDays, stepMinutes: parameters.evaluationMinutes)
        for point in points {
            var unexplained = Int(point.logged)
            if let use = point.use, case .expected(let hazard) = HeuristicLaunchModel.refreshHazard(
                use, parameters: parameters, generosity: 1, tokens: &tokens, fade: fades.fade(days: use.daysSinceUse)) {
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
            tokens -= Double(point.logged)
        }
        return score
    }
}
