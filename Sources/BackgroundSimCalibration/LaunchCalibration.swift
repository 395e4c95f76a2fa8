import BackgroundSim
import SimKernel
import BackgroundSimLab

/// The heuristic launch model calibrated to field logs (`bgsim calibrate`): per task kind, the
/// parameters fitted by maximum likelihood (``LaunchReplay``, ``LaunchFit``) with 95 %
/// intervals from a bootstrap over devices (``LaunchFitBootstrap``) joined with likelihood-ratio
/// ends (``LaunchFit/spanningLikelihoodRatio(scorer:base:)``), on the phone's chain turned to the
/// users' day (``UsersDayShift``), and the goodness of fit
/// (``GoodnessOfFit``), on a base scenario that supplies everything else. A kind whose logs are
/// too small (``minimumDevices(_:)``, ``minimumLaunchesPerParameter``), or whose search's starts do
/// not agree (``LaunchFit/Convergence``), gets its best values without intervals, and says why;
/// one whose starts agree on a maximum at the edge of a parameter's range gets that parameter's
/// interval from one side, to the range's end (``LaunchFit/withIntervals(scorer:base:)``).
///
///     let records = try FieldLogFormat.load(paths: ["logs.jsonl"]).records
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
        /// How the fit's starts ended, and whether they agree.
        package var convergence: LaunchFit.Convergence
        /// Why the logs are too small to identify the parameters; `nil` when they are not.
        package var tooSmall: String?

        /// Whether the intervals may be read: the logs are large enough and the search's starts
        /// agree (converged, or on the edge of a parameter's range, whose interval is one-sided).
        package var isIdentified: Bool { tooSmall == nil && convergence.startsAgree }

        /// The share of resamples on the bootstrap grid's edge above which the intervals are said
        /// to be possibly too narrow: 5 % [Inf].
        package static let gridEdgeWarningShare = 0.05

        /// A warning that the intervals may be too narrow, if enough resamples ended on the grid's
        /// edge.
        package var gridEdgeWarning: String? {
            guard isIdentified, Double(resamplesAtGridEdge) > Self.gridEdgeWarningShare * Double(LaunchFitBootstrap.resamples) else { return nil }
            return "\(resamplesAtGridEdge) of \(LaunchFitBootstrap.resamples) bootstrap resamples ended on the edge of the grid they search: "
                + "the intervals may be too narrow"
        }
    }

    /// The least a kind's logs need before its parameters are fitted with intervals: devices
    /// (the intervals and the goodness of fit resample them), set from a coverage study of
    /// logs of 10–60 phones × 28 days far from the defaults (`experiments/calibration-coverage/`,
    /// `PHONES=N`), as the fewest at which every parameter's 95 % interval contained the truth at
    /// least 93 % of the time [O]. Refresh: the base budget's interval covered 67.5 % of 40 at
    /// 10 phones, 82.5 % at 20, 89 % of 100 at 40 and 96 % of 100 at 50 (97.5 % of 200 at 60);
    /// with fewer devices its likelihood's walls — a budget just large enough for a logged
    /// launch — make the bootstrap's resamples agree more than the logs allow. Processing: 98–100 %
    /// of 100 at 10 phones.
    package static func minimumDevices(_ kind: FieldLogRecord.Kind) -> Int {
        switch kind {
        case .refresh: 50
        case .processing: 10
        }
    }
    /// Launches per fitted parameter, at least [Inf].
    package static let minimumLaunchesPerParameter = 10

    /// Why logs of `kind` with `devices` devices and `launches` launches are too small for
    /// `parameters` fitted parameters; `nil` when they are not.
    static func tooSmall(_ kind: FieldLogRecord.Kind, devices: Int, launches: Int, parameters: Int) -> String? {
        var reasons: [String] = []
        let minimumDevices = minimumDevices(kind)
        if devices < minimumDevices { reasons.append("\(devices) device\(devices == 1 ? "" : "s") (at least \(minimumDevices) are needed)") }
        if launches < minimumLaunchesPerParameter * parameters {
            reasons.append("\(launches) launch\(launches == 1 ? "" : "es") for \(parameters) parameters (at least \(minimumLaunchesPerParameter) per parameter)")
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: " and ")
    }

    package var kinds: [KindCalibration]
    /// The field-log files, records, devices and device-days behind the fit.
    package var sources: [String]
    package var records: Int
    package var devices: Int
    package var deviceDays: Double
    /// Devices whose logs do not begin with the app's first launch
    /// (``DeviceHistory/startsAtInstall``): the fit integrates out what they had learnt before.
    package var devicesStartingMidHistory = 0
    /// Of ``devices``, the histories that are the part of a device's log after a silence of
    /// ``DeviceHistory/splittingSilenceDays`` or more (``DeviceHistory/pieces(_:)``): each counts
    /// as a device, and as one whose log started after install.
    package var historiesAfterSilence = 0
    /// The users the logs show, which the fragment carries (``LoggedUsers``).
    package var users: LoggedUsers
    /// The base scenario's name, and its launch parameters with the fitted ones in place.
    package var baseName: String
    package var parameters: HeuristicLaunchParameters
    /// How much later than the base scenario's user the logged users live their day (0 for not
    /// at all), and the base scenario with that day (its user, charging and commute shifted).
    package var usersDay: UsersDayShift
    package var shiftedBase: Scenario
    /// The users' MetricKit payloads beside the calibrated scenario's simulation, if any were given.
    package var metricKit: MetricKitComparison?

    /// Calibrates to `records` (sorted by device, then time, as ``FieldLogFormat/load(paths:jobs:)``
    /// returns them; `sources` names their files) on `base`, and compares `metricKit` payloads
    /// with the calibrated scenario. `notice` hears each stage.
    package static func run(_ records: [FieldLogRecord], sources: [String], base: Scenario, metricKit: [MetricKitPayload] = [],
                           policies: PolicyRegistry = .builtIn, jobs: Int, notice: (String) -> Void = { _ in }) throws -> LaunchCalibration {
        try run(CalibrationLog(records), sources: sources, base: base, metricKit: metricKit, policies: policies, jobs: jobs, notice: notice)
    }

    /// Calibrates to a field log read a device at a time (``CalibrationLog/load(paths:jobs:)``),
    /// as ``run(_:sources:base:metricKit:policies:jobs:notice:)`` does to its records.
    package static func run(_ log: CalibrationLog, sources: [String], base: Scenario, metricKit: [MetricKitPayload] = [],
                            policies: PolicyRegistry = .builtIn, jobs: Int, notice: (String) -> Void = { _ in }) throws -> LaunchCalibration {
        try base.requireValid(policies: policies)
        let histories = DeviceHistory.withEarlierUseRates(log.histories)
        notice("measuring the base scenario's phone (\(PhoneStateProfile.seeds) phones × \(PhoneStateProfile.days) days)")
        let baseChain = try PhoneStateProfile.measure(base, jobs: jobs)
        let usersDay = UsersDayShift.estimate(histories, base: base.system.heuristic, phone: baseChain, jobs: jobs)
        if usersDay.hours != 0 {
            notice("the logged users' day runs \(usersDay.signedHours) from the base scenario's user (their opens and charging)")
        }
        let phone = baseChain.shifted(byHours: usersDay.hours)
        var parameters = base.system.heuristic
        var kinds: [KindCalibration] = []
        for kind in FieldLogRecord.Kind.allCases {
            let involved = histories.filter { $0.involves(kind) }
            guard !involved.isEmpty else { continue }
            notice("\(kind.rawValue): fitting on \(involved.count) devices")
            let scorer = LaunchScorer(involved, kind: kind, base: base.system.heuristic, phone: phone, jobs: jobs)
            let fit = LaunchFit.fit(scorer, base: base.system.heuristic)
            notice("\(kind.rawValue): \(fit.optimiserEvaluations) likelihood evaluations from \(fit.convergence.starts.count) starts")
            let small = tooSmall(kind, devices: fit.devices, launches: fit.score.launches, parameters: fit.coordinates.keys.count)
            var withIntervals = fit, atGridEdge = 0
            if small == nil && fit.convergence.startsAgree {
                notice("\(kind.rawValue): intervals (\(LaunchFitBootstrap.resamples) resamples of devices)")
                (withIntervals, atGridEdge) = fit.withIntervals(scorer: scorer, base: base.system.heuristic)
            }
            notice("\(kind.rawValue): goodness of fit (\(GoodnessOfFit.replicates(devices: involved.count)) replays of each device)")
            var goodness = GoodnessOfFit.check(involved, kind: kind, parameters: fit.parameters, phone: phone,
                                               earlierUse: scorer.earlierUsePosteriors(fit.parameters), jobs: jobs)
            if let small { goodness = goodness.notJudged(because: "not judged: " + small) }
            // Only values the logs identify go into the calibrated scenario.
            for parameter in fit.fitted where parameter.heldBecause == nil && small == nil && fit.convergence.startsAgree {
                parameters[keyPath: parameter.key.keyPath] = parameter.value
            }
            kinds.append(KindCalibration(kind: kind, parameters: withIntervals.fitted, devices: fit.devices, launches: fit.score.launches,
                                         unexplained: fit.score.unexplained, logLikelihood: fit.score.logLikelihood, goodness: goodness,
                                         resamplesAtGridEdge: atGridEdge, convergence: fit.convergence, tooSmall: small))
        }
        var comparison: MetricKitComparison?
        if !metricKit.isEmpty {
            notice("MetricKit: \(metricKit.count) payloads beside the calibrated scenario (\(MetricKitComparison.seeds) phones × \(MetricKitComparison.days) days)")
            var calibrated = base.shiftingDay(byHours: usersDay.hours)
            calibrated.system.heuristic = parameters
            comparison = try MetricKitComparison.compare(metricKit, scenario: calibrated, policies: policies, jobs: jobs)
        }
        let shiftedBase = base.shiftingDay(byHours: usersDay.hours)
        var calibration = LaunchCalibration(kinds: kinds, sources: sources, records: log.records, devices: histories.count,
                                            deviceDays: histories.reduce(0) { $0 + $1.days },
                                            users: LoggedUsers(histories, base: shiftedBase.user), baseName: base.name, parameters: parameters,
                                            usersDay: usersDay, shiftedBase: shiftedBase, metricKit: comparison)
        calibration.devicesStartingMidHistory = histories.count { !$0.startsAtInstall }
        calibration.historiesAfterSilence = histories.count(where: \.followsSilence)
        return calibration
    }

    /// The features that do not fit, over every kind.
    package var misfits: [GoodnessOfFit.Row] { kinds.flatMap { $0.goodness.misfits } }

    /// The MetricKit figures that do not fit.
    package var metricKitMisfits: [MetricKitComparison.Row] { metricKit?.rows.filter { !$0.fits } ?? [] }
}

/// A field log as calibration reads it: each device's history (``DeviceHistory``), in order of
/// the devices' identifiers, each device's last covering it until the log's end
/// (``DeviceHistory/reachingTheLogsEnd(_:)``), and how many records it came from. Read a device at a time, so that
/// memory holds the histories, not the records.
package struct CalibrationLog: Sendable {
    var histories: [DeviceHistory]
    /// The records behind the histories, and the exact duplicates left out of them.
    package var records: Int
    package var duplicatesDropped: Int

    /// The histories of `records` (sorted by device, then time).
    package init(_ records: [FieldLogRecord]) {
        histories = DeviceHistory.histories(records)
        self.records = records.count
        duplicatesDropped = 0
    }

    /// Reads the field logs at `paths` a device at a time (``FieldLogFormat/forEachDevice(paths:jobs:_:)``).
    ///
    /// - Throws: ``ScenarioError`` as ``FieldLogFormat/forEachDevice(paths:jobs:_:)`` does.
    package static func load(paths: [String], jobs: Int, progress: ((FieldLogReader.Step) -> Void)? = nil) throws(ScenarioError) -> CalibrationLog {
        var histories: [DeviceHistory] = []
        let counts = try FieldLogFormat.forEachDevice(paths: paths, jobs: jobs, progress: progress) { device in
            histories.append(contentsOf: DeviceHistory.pieces(device[...]))
        }
        return CalibrationLog(histories: DeviceHistory.reachingTheLogsEnd(histories), records: counts.records,
                              duplicatesDropped: counts.duplicatesDropped)
    }

    private init(histories: [DeviceHistory], records: Int, duplicatesDropped: Int) {
        self.histories = histories
        self.records = records
        self.duplicatesDropped = duplicatesDropped
    }
}
