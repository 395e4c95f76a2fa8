import BackgroundSim
import SimKernel

/// `bgsim calibrate`: the launch model fitted to field logs, per task kind.
public struct LaunchCalibration: Sendable {
    var fits: [LaunchFit]

    public static func run(_ records: [FieldLogRecord], base: Scenario, jobs: Int) throws -> LaunchCalibration {
        let histories = DeviceHistory.histories(records)
        let phone = try PhoneStateProfile.measure(base, jobs: jobs)
        let fits = FieldLogRecord.Kind.allCases.compactMap { kind -> LaunchFit? in
            let involved = histories.filter { $0.involves(kind) }
            guard !involved.isEmpty else { return nil }
            return LaunchFit.fit(involved, kind: kind, base: base.system.heuristic, phone: phone, jobs: jobs)
        }
        return LaunchCalibration(fits: fits)
    }

    public var summary: String {
        fits.map { fit in
            "\(fit.kind): " + fit.fitted.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + " ll=\(fit.score.logLikelihood) launches=\(fit.score.launches) unexplained=\(fit.score.unexplained) evals=\(fit.optimiserEvaluations) devices=\(fit.devices)"
        }.joined(separator: "\n")
    }
}
