import BackgroundSim
import SimKernel
import BackgroundSimLab

/// The heuristic launch model calibrated to field logs (`bgsim calibrate`): per task kind, the
/// parameters fitted by maximum likelihood (``LaunchReplay``, ``LaunchFit``) with 95 %
/// intervals from a bootstrap over devices (``LaunchFitBootstrap``), and the goodness of fit
/// (``GoodnessOfFit``), on a base scenario that supplies everything else.
///
///     let records = try FieldLogFormat.read(path: "logs.jsonl")
///     let calibration = try LaunchCalibration.run(records, sources: ["logs.jsonl"], base: Scenario(), jobs: 2)
///     for kind in calibration.kinds {
///         for parameter in kind.parameters { print(parameter.key, parameter.value, parameter.low ?? .nan, parameter.high ?? .nan) }
///     }
///     var mine = Scenario()
///     mine.system.heuristic = calibration.parameters   // your policy against your users
package struct LaunchCalibration: Sendable {
    /// One task kind's calibration.
    package struct KindCalibration: Sendable {
        package var kind: FieldLogRecord.Kind
        package var parameters: [FittedParameter]
        /// Devices with a submission or launch of the kind, their launches, and the launches the
        /// fitted model could not have made.
        package var devices: Int
        package var launches: Int
        package var unexplained: Int
        package var logLikelihood: Double
        package var goodness: GoodnessOfFit
        /// Resamples whose best point was on the edge of the bootstrap's grid.
        package var resamplesAtGridEdge: Int
    }

    package var kinds: [KindCalibration]
    /// The field-log files, records, devices and device-days behind the fit.
    package var sources: [String]
    package var records: Int
    package var devices: Int
    package var deviceDays: Double
    /// The base scenario's name, and its launch parameters with the fitted ones in place.
    package var baseName: String
    package var parameters: HeuristicLaunchParameters
    /// The users' MetricKit payloads beside the calibrated scenario's simulation, if any were given.
    package var metricKit: MetricKitComparison?

    /// Calibrates to `records` (sorted by device, then time, as ``FieldLogFormat/read(path:)``
    /// returns them; `sources` names their files) on `base`, and compares `metricKit` payloads
    /// with the calibrated scenario. `notice` hears each stage.
    package static func run(_ records: [FieldLogRecord], sources: [String], base: Scenario, metricKit: [MetricKitPayload] = [],
                           policies: PolicyRegistry = .builtIn, jobs: Int, notice: (String) -> Void = { _ in }) throws -> LaunchCalibration {
        try base.requireValid(policies: policies)
        let histories = DeviceHistory.histories(records)
        notice("measuring the base scenario's phone (\(PhoneStateProfile.seeds) phones × \(PhoneStateProfile.days) days)")
        let phone = try PhoneStateProfile.measure(base, jobs: jobs)
        var parameters = base.system.heuristic
        var kinds: [KindCalibration] = []
        for kind in FieldLogRecord.Kind.allCases {
            let involved = histories.filter { $0.involves(kind) }
            guard !involved.isEmpty else { continue }
            notice("\(kind.rawValue): fitting on \(involved.count) devices")
            let fit = LaunchFit.fit(involved, kind: kind, base: base.system.heuristic, phone: phone, jobs: jobs)
            notice("\(kind.rawValue): intervals (\(LaunchFitBootstrap.resamples) resamples of devices)")
            let (withIntervals, atGridEdge) = LaunchFitBootstrap.intervals(for: fit, histories: involved, base: base.system.heuristic,
                                                                            phone: phone, jobs: jobs)
            notice("\(kind.rawValue): goodness of fit (\(GoodnessOfFit.replicates) replays of each device)")
            let goodness = GoodnessOfFit.check(involved, kind: kind, parameters: fit.parameters, phone: phone, jobs: jobs)
            for parameter in fit.fitted where parameter.heldBecause == nil {
                LaunchFit.Coordinates.set(parameter.key, parameter.value, in: &parameters)
            }
            kinds.append(KindCalibration(kind: kind, parameters: withIntervals.fitted, devices: fit.devices, launches: fit.score.launches,
                                         unexplained: fit.score.unexplained, logLikelihood: fit.score.logLikelihood, goodness: goodness,
                                         resamplesAtGridEdge: atGridEdge))
        }
        var comparison: MetricKitComparison?
        if !metricKit.isEmpty {
            notice("MetricKit: \(metricKit.count) payloads beside the calibrated scenario (\(MetricKitComparison.seeds) phones × \(MetricKitComparison.days) days)")
            var calibrated = base
            calibrated.system.heuristic = parameters
            comparison = try MetricKitComparison.compare(metricKit, scenario: calibrated, policies: policies, jobs: jobs)
        }
        return LaunchCalibration(kinds: kinds, sources: sources, records: records.count, devices: histories.count,
                                 deviceDays: histories.reduce(0) { $0 + ($1.end - $1.start) / 86_400 },
                                 baseName: base.name, parameters: parameters, metricKit: comparison)
    }

    /// The features that do not fit, over every kind.
    package var misfits: [GoodnessOfFit.Row] { kinds.flatMap { $0.goodness.misfits } }

    /// The MetricKit figures that do not fit.
    package var metricKitMisfits: [MetricKitComparison.Row] { metricKit?.rows.filter { !$0.fits } ?? [] }
}
