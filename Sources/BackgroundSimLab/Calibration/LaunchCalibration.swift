import BackgroundSim
import SimKernel

/// `bgsim calibrate`: the launch model fitted to field logs, per task kind.
public struct LaunchCalibration: Sendable {
    struct KindResult: Sendable {
        var fit: LaunchFit
        var bootstrap: LaunchFitBootstrap.Diagnostics
        var goodness: GoodnessOfFit
    }
    var kinds: [KindResult]

    public static func run(_ records: [FieldLogRecord], base: Scenario, jobs: Int) throws -> LaunchCalibration {
        let histories = DeviceHistory.histories(records)
        let phone = try PhoneStateProfile.measure(base, jobs: jobs)
        let kinds = FieldLogRecord.Kind.allCases.compactMap { kind -> KindResult? in
            let involved = histories.filter { $0.involves(kind) }
            guard !involved.isEmpty else { return nil }
            let fit = LaunchFit.fit(involved, kind: kind, base: base.system.heuristic, phone: phone, jobs: jobs)
            let (withIntervals, diagnostics) = LaunchFitBootstrap.intervals(for: fit, histories: involved, base: base.system.heuristic, phone: phone, jobs: jobs)
            let goodness = GoodnessOfFit.check(involved, kind: kind, parameters: fit.parameters, phone: phone, jobs: jobs)
            return KindResult(fit: withIntervals, bootstrap: diagnostics, goodness: goodness)
        }
        return LaunchCalibration(kinds: kinds)
    }

    public var summary: String {
        kinds.map { result in
            let fit = result.fit
            return "\(fit.kind): " + fit.fitted.map { "\($0.key)=\($0.value) [\($0.low ?? .nan), \($0.high ?? .nan)]" }.joined(separator: " ") + " ll=\(fit.score.logLikelihood) launches=\(fit.score.launches) unexplained=\(fit.score.unexplained) evals=\(fit.optimiserEvaluations) devices=\(fit.devices) edge=\(result.bootstrap.atGridEdge)\n"
            + result.goodness.rows.map { "  \($0.feature.key): data \($0.data.value ?? .nan) [\($0.data.low ?? .nan), \($0.data.high ?? .nan)] model \($0.model.value ?? .nan) [\($0.model.low ?? .nan), \($0.model.high ?? .nan)] p=\($0.adjustedP ?? .nan) \($0.verdict)" }.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
