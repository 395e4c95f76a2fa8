import BackgroundSim
import SimKernel
import BackgroundSimLab

/// What the users' MetricKit payloads say per day beside what the calibrated scenario
/// simulates: background and foreground time, and background exits by reason, each with a
/// 95 % interval and a verdict.
///
/// A field log cannot show force-quits or the app being killed in the background; MetricKit
/// counts them (`cumulativeNormalAppExitCount` includes the user's swipes, and
/// `cumulativeMemoryPressureExitCount` the system reclaiming a suspended app). Comparing them
/// with the base scenario, simulated with the fitted launch model for ``seeds`` phones ×
/// ``days`` days, shows whether the scenario's user and app behave like the real ones. Each
/// payload counts as one observation (one device-day); the difference of the means is tested
/// by Welch's t, the figures' p-values are adjusted together by Holm's method, and a figure does
/// not fit when the difference is significant and beyond ±10 % of the payloads' mean.
package struct MetricKitComparison: Sendable {
    /// One figure's comparison.
    package struct Row: Sendable {
        /// The MetricKit field's name.
        package var field: String
        /// Per day in the payloads and in the simulations, with 95 % intervals.
        package var data: FieldLogFeatures.Estimate
        package var model: FieldLogFeatures.Estimate
        package var fits: Bool
        package var verdict: String
    }

    package var payloads: Int
    package var rows: [Row]

    /// The simulated phones and days.
    static let seeds = 20
    static let days = 28
    /// The fields the simulator does not model (always 0 there).
    static let notModelled: Set<String> = [
        "cumulativeMemoryResourceLimitExitCount", "cumulativeBadAccessExitCount", "cumulativeIllegalInstructionExitCount",
        "cumulativeSuspendedWithLockedFileExitCount",
    ]

    /// Compares `payloads` with `scenario` simulated on seeds 1 … ``seeds``.
    static func compare(_ payloads: [MetricKitPayload], scenario: Scenario, policies: PolicyRegistry, jobs: Int) throws -> MetricKitComparison {
        let runs = try Replications.run(scenario, seeds: (1...UInt64(seeds)).map { $0 }, days: days, jobs: jobs, policies: policies)
        let fields = ["cumulativeBackgroundTime", "cumulativeForegroundTime"] + MetricKitPayload.exitFields
        let simulated = runs.map { run -> [String: Double] in
            guard case .object(let members) = run.os.metricKitJSON else { return [:] }
            var values: [String: Double] = [:]
            for (key, value) in members { if case .number(let number) = value { values[key] = number / Double(days) } }
            return values
        }
        var candidates: [(field: String, data: [Double], model: [Double])] = []
        for field in fields {
            let data = payloads.compactMap { payload -> Double? in
                switch field {
                case "cumulativeBackgroundTime": payload.backgroundSeconds.map { $0 / payload.days }
                case "cumulativeForegroundTime": payload.foregroundSeconds.map { $0 / payload.days }
                default: payload.backgroundExits[field].map { Double($0) / payload.days }
                }
            }
            guard !data.isEmpty else { continue }
            candidates.append((field, data, simulated.map { $0[field] ?? 0 }))
        }
        func estimate(_ values: [Double]) -> FieldLogFeatures.Estimate {
            let summary = SampleSummary(values)
            guard values.count > 1 else { return FieldLogFeatures.Estimate(value: summary.mean, low: nil, high: nil) }
            // Every figure is a count or a time: never below 0.
            return FieldLogFeatures.Estimate(value: summary.mean, low: Swift.max(0, summary.mean - summary.halfWidth95), high: summary.mean + summary.halfWidth95)
        }
        let pValues = candidates.map { candidate -> Double in
            let a = SampleSummary(candidate.data), b = SampleSummary(candidate.model)
            let va = a.count > 1 ? a.standardDeviation * a.standardDeviation / Double(a.count) : 0
            let vb = b.count > 1 ? b.standardDeviation * b.standardDeviation / Double(b.count) : 0
            guard va + vb > 0 else { return a.mean == b.mean ? 1 : 0 }
            let t = (a.mean - b.mean) / (va + vb).squareRoot()
            let df = (va + vb) * (va + vb) / ((a.count > 1 ? va * va / Double(a.count - 1) : 0) + (b.count > 1 ? vb * vb / Double(b.count - 1) : 0))
            return StudentT.twoSidedPValue(t, degreesOfFreedom: Swift.max(1, df.isFinite ? df : 1))
        }
        let adjusted = HolmCorrection.adjusted(pValues)
        let rows = candidates.enumerated().map { index, candidate -> Row in
            let data = estimate(candidate.data), model = estimate(candidate.model)
            let dataMean = data.value ?? 0, modelMean = model.value ?? 0
            if notModelled.contains(candidate.field) {
                return Row(field: candidate.field, data: data, model: model, fits: dataMean == 0,
                           verdict: dataMean == 0 ? "none, and not modelled" : "not modelled: the simulator never ends the app this way")
            }
            let relative = dataMean != 0 ? (modelMean - dataMean) / dataMean : (modelMean == 0 ? 0 : .infinity)
            let significant = adjusted[index] < 0.05
            let large = abs(relative) >= GoodnessOfFit.tolerance
            let verdict: String
            if significant && large {
                verdict = relative.isFinite
                    ? "the model \(relative > 0 ? "overestimates" : "underestimates") it by \(GoodnessOfFit.percent(abs(relative)))"
                    : "the payloads show none; the model does"
            } else {
                verdict = significant ? "fits, within ±\(Int(GoodnessOfFit.tolerance * 100)) %" : "fits"
            }
            return Row(field: candidate.field, data: data, model: model, fits: !(significant && large), verdict: verdict)
        }
        return MetricKitComparison(payloads: payloads.count, rows: rows)
    }
}
