import BackgroundSim
import SimKernel

/// What the phones whose logs began after install had learnt of their use before, integrated
/// out of the refresh likelihood.
///
/// Each such device's likelihood is a mixture over bins of the amount `u` of its log's own rate
/// of opens it had learnt (``RefreshTape/Prehistory/bins``): Σₖ πₖ · L̄ₖ(θ), where L̄ₖ is its
/// likelihood averaged over bin k (``RefreshTape/componentScores(_:)``) and πₖ is how common an
/// amount in bin k is among the logs' phones. That share depends on how long the phones had the
/// app before logging began and how steady their users are, which no log shows, so it is
/// fitted too: at each θ, π is the maximum-likelihood mixing distribution on the bins (a
/// nonparametric maximum-likelihood estimate; Laird, *JASA* 73(364):805–811, 1978), found by
/// EM (Dempster, Laird & Rubin, *JRSS B* 39(1):1–38, 1977) from even weights, and the
/// likelihood of θ is the maximum over π (a profile likelihood).
struct EarlierUseMixture: Sendable {
    /// How common an amount in each of ``RefreshTape/Prehistory/bins`` is, summing to 1.
    var weights: [Double]

    /// EM stops when an iteration raises the log-likelihood by less than this, or after
    /// ``maximumIterations``.
    static let tolerance = 1e-9
    static let maximumIterations = 1_000

    /// The weights that maximise the summed log-likelihood of `components`: for each device, its
    /// score in each bin of earlier use (``RefreshTape/componentScores(_:)``).
    init(fitting components: [[LaunchReplay.Score]]) {
        let count = RefreshTape.Prehistory.fractions.count
        let devices = Devices(components.map { $0.map(\.logLikelihood) })
        weights = components.isEmpty ? [Double](repeating: 1 / Double(count), count: count)
            : devices.fit(counts: [Double](repeating: 1, count: components.count),
                          from: [Double](repeating: 1 / Double(count), count: count), tolerance: Self.tolerance).weights
    }

    /// Devices' likelihoods of each amount, ready to fit the weights to: each device's scaled by
    /// its largest (they underflow a Double otherwise), with that largest's logarithm.
    struct Devices: Sendable {
        var likelihoods: [[Double]]
        var logScales: [Double]

        init(_ logLikelihoods: [[Double]]) {
            logScales = logLikelihoods.map { $0.max() ?? 0 }
            likelihoods = zip(logLikelihoods, logScales).map { device, top in device.map { PortableMath.exp($0 - top) } }
        }

        /// The weights that maximise the log-likelihood with device `d` counted `counts[d]`
        /// times (a bootstrap's resample), by EM from `start` (at most `iterations` of it), and
        /// that log-likelihood.
        func fit(counts: [Double], from start: [Double], tolerance: Double,
                 iterations: Int = EarlierUseMixture.maximumIterations) -> (weights: [Double], logLikelihood: Double) {
            let count = start.count
            var weights = start
            var previous = -Double.infinity
            var next = [Double](repeating: 0, count: count)
            let total = counts.reduce(0, +)
            for _ in 0..<iterations {
                for k in 0..<count { next[k] = 0 }
                var logLikelihood = 0.0
                for (device, times) in zip(likelihoods, counts) where times > 0 {
                    var sum = 0.0
                    for k in 0..<count { sum += weights[k] * device[k] }
                    logLikelihood += times * PortableMath.log(sum)
                    for k in 0..<count { next[k] += times * weights[k] * device[k] / sum }
                }
                for k in 0..<count { weights[k] = next[k] / total }
                if logLikelihood - previous < tolerance { break }
                previous = logLikelihood
            }
            // The log-likelihood at the weights reached, with the scales put back.
            var logLikelihood = 0.0
            for (index, (device, times)) in zip(likelihoods, counts).enumerated() where times > 0 {
                var sum = 0.0
                for k in 0..<count { sum += weights[k] * device[k] }
                logLikelihood += times * (PortableMath.log(sum) + logScales[index])
            }
            return (weights, logLikelihood)
        }
    }

    /// A device's score: its mixture log-likelihood, with the other counts of its likeliest
    /// amount. A device from install (one component) keeps its score.
    func score(_ components: [LaunchReplay.Score]) -> LaunchReplay.Score {
        guard let (logs, top) = weightedLogs(components) else { return components.first ?? LaunchReplay.Score() }
        var result = components[logs.firstIndex(of: top) ?? 0]
        result.logLikelihood = top + PortableMath.log(logs.reduce(0) { $0 + PortableMath.exp($1 - top) })
        return result
    }

    /// A device's chances of each amount given its log (Bayes' rule on the weights); `nil` for
    /// a device from install.
    func posterior(_ components: [LaunchReplay.Score]) -> [Double]? {
        guard let (logs, top) = weightedLogs(components) else { return nil }
        let chances = logs.map { PortableMath.exp($0 - top) }
        let total = chances.reduce(0, +)
        return chances.map { $0 / total }
    }

    /// log πₖ + log Lₖ for each amount, and the largest; `nil` for a device from install.
    private func weightedLogs(_ components: [LaunchReplay.Score]) -> (logs: [Double], top: Double)? {
        guard components.count == weights.count else { return nil }
        let logs = components.indices.map { PortableMath.log(weights[$0]) + components[$0].logLikelihood }
        return (logs, logs.max() ?? 0)
    }
}
