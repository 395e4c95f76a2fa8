import BackgroundSim
import SimKernel

/// What the phones whose logs began after install had learnt of their use before, integrated
/// out of the refresh likelihood.
///
/// Each such device's likelihood is a mixture over the amounts ``RefreshTape/Prehistory/fractions``
/// of its log's own rate of opens: Σₖ πₖ · L(θ, uₖ), where πₖ is how common amount uₖ is among
/// the logs' phones. That share depends on how long the phones had the app before logging began
/// and how steady their users are, which no log shows, so it is fitted too: at each θ, π is the
/// maximum-likelihood mixing distribution on the fractions (a nonparametric maximum-likelihood
/// estimate; Laird, *JASA* 73(364):805–811, 1978), found by EM (Dempster, Laird & Rubin, *JRSS B*
/// 39(1):1–38, 1977) from even weights, and the likelihood of θ is the maximum over π (a profile
/// likelihood).
struct EarlierUseMixture: Sendable {
    /// How common each of ``RefreshTape/Prehistory/fractions`` is, summing to 1.
    var weights: [Double]

    /// EM stops when an iteration raises the log-likelihood by less than this, or after
    /// ``maximumIterations``.
    static let tolerance = 1e-9
    static let maximumIterations = 1_000

    /// The weights that maximise the summed log-likelihood of `components`: for each device, its
    /// scores with each fraction of earlier use (``RefreshTape/componentScores(_:)``).
    init(fitting components: [[LaunchReplay.Score]]) {
        let count = RefreshTape.Prehistory.fractions.count
        weights = [Double](repeating: 1 / Double(count), count: count)
        guard !components.isEmpty else { return }
        // Each device's likelihoods scaled by its largest (they underflow a Double otherwise).
        let scaled = components.map { device -> [Double] in
            let top = device.map(\.logLikelihood).max() ?? 0
            return device.map { PortableMath.exp($0.logLikelihood - top) }
        }
        var previous = -Double.infinity
        for _ in 0..<Self.maximumIterations {
            var next = [Double](repeating: 0, count: count)
            var logLikelihood = 0.0
            for device in scaled {
                var total = 0.0
                for k in 0..<count { total += weights[k] * device[k] }
                logLikelihood += PortableMath.log(total)
                for k in 0..<count { next[k] += weights[k] * device[k] / total }
            }
            weights = next.map { $0 / Double(scaled.count) }
            if logLikelihood - previous < Self.tolerance { break }
            previous = logLikelihood
        }
    }

    /// A device's score: its mixture log-likelihood, with the other counts of its likeliest
    /// amount. A device from install (one component) keeps its score.
    func score(_ components: [LaunchReplay.Score]) -> LaunchReplay.Score {
        guard components.count == weights.count else { return components.first ?? LaunchReplay.Score() }
        let logs = components.indices.map { PortableMath.log(weights[$0]) + components[$0].logLikelihood }
        let top = logs.max() ?? 0
        var result = components[logs.firstIndex(of: top) ?? 0]
        result.logLikelihood = top + PortableMath.log(logs.reduce(0) { $0 + PortableMath.exp($1 - top) })
        return result
    }

    /// A device's chances of each amount given its log (Bayes' rule on the weights); `nil` for
    /// a device from install.
    func posterior(_ components: [LaunchReplay.Score]) -> [Double]? {
        guard components.count == weights.count else { return nil }
        let logs = components.indices.map { PortableMath.log(weights[$0]) + components[$0].logLikelihood }
        let top = logs.max() ?? 0
        let chances = logs.map { PortableMath.exp($0 - top) }
        let total = chances.reduce(0, +)
        return chances.map { $0 / total }
    }
}
