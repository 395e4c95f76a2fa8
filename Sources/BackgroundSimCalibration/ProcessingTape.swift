import BackgroundSim
import SimKernel

/// One device's processing log reduced, once, to what its likelihood needs under any values of
/// the parameters calibration fits for processing (the chances on the charger and off it, and
/// the fade): the hidden chain's steps, what the log shows of the phone's state, and at each
/// evaluation which requests were due, which launched, and how long the app had gone unused.
///
/// The denials (recency, spacing, the battery floor, the app in use) and which requests are
/// pending and due are fixed by the log; the chain's beliefs are not (they depend on the
/// chances), so the tape keeps the chain's operations in order and the score runs the forward
/// algorithm over them as ``LaunchReplay/score(_:kind:parameters:phone:)`` does, to rounding.
struct ProcessingTape: Sendable {
    /// Due requests of one sort at an evaluation, and how many of them the log launched there.
    struct Requests: Sendable {
        var due: Int32 = 0
        var launched: Int32 = 0
    }

    /// An evaluation the tape keeps.
    struct Evaluation: Sendable {
        /// Days since the app's last use (what the fade reads); 0 where nothing is open.
        var daysSinceUse: Double
        /// Whether the model gives a chance off the charger, and on it (no denial, the battery
        /// above its floor off the charger).
        var batteryOpen: Bool
        var chargerOpen: Bool
        /// Due requests that may run on battery, and those that require external power.
        var anyPower = Requests()
        var externalPower = Requests()
        /// The log's launches placed here.
        var logged: Int32
    }

    /// The replay's operations on the chain and its evaluations, in order.
    enum Operation: Sendable {
        /// The chain steps `times` times into evaluations in this local hour, nothing between.
        case step(hour: Int, times: Int)
        /// The log shows a state allowed by this mask (``PhoneStateProfile``).
        case observe(PhoneStateProfile.Belief)
        case evaluate(Evaluation)
        /// The phone started again: the belief becomes the shares of the states in this hour,
        /// locked unless in use (``PhoneStateProfile/afterRestart(hour:)``).
        case restart(hour: Int)
    }

    var operations: [Operation]
    /// The parameters it was recorded under; it scores parameters that differ from them in the
    /// fitted values only.
    let recordedUnder: HeuristicLaunchParameters
    /// Evaluations at which a request of the kind was pending and due, whatever the model
    /// decided there (``RefreshTape/dueEvaluations``).
    var dueEvaluations = 0

    /// The score of the tape's launches under `parameters`, with `phone` the chain it was recorded with.
    func score(_ parameters: HeuristicLaunchParameters, phone: PhoneStateProfile) -> LaunchReplay.Score {
        precondition(LaunchFit.differOnlyInFitted(parameters, recordedUnder, kind: .processing),
                     "ProcessingTape: scored under parameters it was not recorded for")
        var score = LaunchReplay.Score()
        var chances = DeferredLogarithm()
        var fades = FadeSteps(halfLife: parameters.processingFadeHalfLifeDays, stepMinutes: parameters.evaluationMinutes)
        var belief = phone.initialBelief
        for operation in operations {
            switch operation {
            case .step(let hour, let times):
                belief = phone.step(belief, hour: hour, times: times)
            case .observe(let mask):
                let kept = belief * mask
                let mass = kept.sum()
                chances.multiply(by: mass)
                belief = mass > 0 ? kept / mass : mask / mask.sum()
            case .evaluate(let evaluation):
                Self.evaluate(evaluation, parameters: parameters, belief: &belief, score: &score, chances: &chances, fades: &fades)
            case .restart(let hour):
                belief = phone.afterRestart(hour: hour)
            }
        }
        score.logLikelihood += chances.logarithm
        return score
    }

    /// The log-likelihood of what the tape shows of the phone (its charging at records, the app
    /// in use at opens and closes) under `phone`, the launches left out: the forward algorithm
    /// over the steps and observations alone. (The loop of ``score(_:phone:)``, written again on
    /// purpose: one generic pass serving both, with closures, made calibration about 10 % slower
    /// — 8.8–9.3 s against 7.5–8.5 s on 250 Zashi phones × 28 days, interleaved.)
    func observationLogLikelihood(phone: PhoneStateProfile) -> Double {
        var logLikelihood = 0.0
        var belief = phone.initialBelief
        for operation in operations {
            switch operation {
            case .step(let hour, let times):
                belief = phone.step(belief, hour: hour, times: times)
            case .observe(let mask):
                let kept = belief * mask
                let mass = kept.sum()
                logLikelihood += PortableMath.log(Swift.max(1e-300, mass))
                belief = mass > 0 ? kept / mass : mask / mask.sum()
            case .evaluate:
                break
            case .restart(let hour):
                belief = phone.afterRestart(hour: hour)
            }
        }
        return logLikelihood
    }

    /// One evaluation: each due request has the chance `(0, b, 0, c)` in the chain's four
    /// states after the first unlock and 0 before it (`b` 0 for one that requires power); the log's launches multiply in their chance,
    /// the others the chance of not launching, and the belief is conditioned on the outcome.
    private static func evaluate(_ evaluation: Evaluation, parameters: HeuristicLaunchParameters,
                                 belief: inout PhoneStateProfile.Belief, score: inout LaunchReplay.Score,
                                 chances: inout DeferredLogarithm, fades: inout FadeSteps) {
        var unexplained = Int(evaluation.logged)
        defer {
            score.launches += Int(evaluation.logged)
            score.unexplained += unexplained
            score.logLikelihood += LaunchReplay.unexplainedLogChance * Double(unexplained)
        }
        guard evaluation.batteryOpen || evaluation.chargerOpen else { return }
        let fade = fades.fade(days: evaluation.daysSinceUse)
        let battery = evaluation.batteryOpen ? parameters.processingBatteryChancePerEvaluation * fade : 0
        let charger = evaluation.chargerOpen ? parameters.processingChargingChancePerEvaluation * fade : 0
        guard battery > 0 || charger > 0 else { return }
        var outcome = PhoneStateProfile.Belief(repeating: 1)
        func multiply(_ requests: Requests, chance: PhoneStateProfile.Belief) {
            for _ in 0..<requests.launched { outcome *= chance }
            for _ in 0..<(requests.due - requests.launched) { outcome *= 1 - chance }
        }
        let anyPower = evaluation.anyPower.due > 0
        let externalPower = evaluation.externalPower.due > 0 && charger > 0
        if anyPower { multiply(evaluation.anyPower, chance: PhoneStateProfile.processingChance(battery: battery, charger: charger)) }
        if externalPower { multiply(evaluation.externalPower, chance: PhoneStateProfile.processingChance(battery: 0, charger: charger)) }
        guard anyPower || externalPower else { return }
        score.evaluations += 1
        if charger > 0 { score.chargerWeight += belief[PhoneStateProfile.onIdle] }
        if anyPower && battery > 0 { score.batteryWeight += belief[PhoneStateProfile.offIdle] }
        let total = (belief * outcome).sum()
        guard total > 0 else { return }
        unexplained -= Int(anyPower ? evaluation.anyPower.launched : 0) + Int(externalPower ? evaluation.externalPower.launched : 0)
        chances.multiply(by: total)
        belief = belief * outcome / total
    }
}
