import BackgroundSim
import SimKernel
import BackgroundSimLab

/// Whether a fitted launch model reproduces what the field logs show: each
/// ``CalibrationFeature`` computed from the logs and from simulations of the fitted model, with
/// intervals and a verdict.
///
/// The simulations replay each logged phone (``LaunchReplay``): its user's foregrounds, its
/// app's own submissions and what its records say of the phone go in as logged, the launches
/// come from the fitted model, and the app resubmits at each as it did at its own launches.
/// Comparing against phones with the logged users, not the scenario's synthetic user, keeps a
/// difference in users from passing for a fault in the launch model. Each device is replayed
/// ``replicates(devices:)`` times; the model's value of a feature pools them (the spread pools them as
/// devices, so it compares like with like).
///
/// The intervals and the test come from one paired bootstrap over devices (``resamples``
/// resamples): each resample takes the same devices' logs and simulations. A feature's
/// difference is tested by t = (log − model) / (its bootstrap standard error) on the devices'
/// degrees of freedom, and the p-values of one task kind's features are adjusted together by
/// Holm's method. A feature **does not fit** if its adjusted p is below 0.05 and the model is
/// off by at least ``tolerance`` of the logs' value, or if the logs show it and the model never
/// produces it; otherwise it fits ("fits, within ±10 %" when the difference is real but small).
package struct GoodnessOfFit: Sendable {
    /// One feature's comparison.
    package struct Row: Sendable {
        package var feature: CalibrationFeature
        /// The value in the logs and in the simulations, each with its 95 % bootstrap interval.
        package var data: FieldLogFeatures.Estimate
        package var model: FieldLogFeatures.Estimate
        /// (model − log) ÷ log: how far the model is off, relative to the logs (positive: it
        /// overestimates); `nil` without both values or with a log value of 0.
        package var relativeDifference: Double?
        /// The 95 % bootstrap interval of the relative difference.
        package var relativeLow: Double?
        package var relativeHigh: Double?
        /// Holm-adjusted p of the difference.
        package var adjustedP: Double?
        package var fits: Bool
        /// The verdict in words: "fits", or "the model underestimates night launches (00–06)
        /// per day by 34 %".
        package var verdict: String
    }

    package var kind: FieldLogRecord.Kind
    package var rows: [Row]
    package var devices: Int
    /// Launches per device-day in each local hour, 0 … 23, in the logs and in the simulations.
    package var hourlyData: [Double]
    package var hourlyModel: [Double]

    /// Replays of each device: 10, or as many as make 1,000 replayed devices when that is fewer
    /// (at least 4). The model's side of a feature then has at most a tenth of the data's
    /// sampling variance (a fourth at 250 devices or more, where it adds 12 % to the standard
    /// error); replaying 250 phones 10 times cost more than simulating them once.
    package static func replicates(devices: Int) -> Int { Swift.max(4, Swift.min(maximumReplicates, 1_000 / Swift.max(1, devices))) }
    package static let maximumReplicates = 10
    /// Bootstrap resamples, the seed, and the practical tolerance.
    package static let resamples = 200
    package static let seed: UInt64 = 20_261_125
    package static let tolerance = 0.10

    /// The features that do not fit.
    package var misfits: [Row] { rows.filter { !$0.fits } }
    /// Why no feature was judged (``notJudged(because:)``); `nil` when they were.
    package var notJudgedBecause: String?

    /// The same comparison with no feature judged: each row keeps its values and intervals, with
    /// `verdict` as its verdict (logs too small for the test to mean anything).
    func notJudged(because verdict: String) -> GoodnessOfFit {
        var result = self
        result.notJudgedBecause = verdict
        for index in result.rows.indices {
            result.rows[index].fits = true
            result.rows[index].adjustedP = nil
            result.rows[index].verdict = verdict
        }
        return result
    }

    /// Compares `histories`' launches of `kind` with replays under `parameters`. A device
    /// given chances of each amount of earlier use (`earlierUse`, for a log that began after
    /// install: ``LaunchScorer/earlierUsePosteriors(_:)``) has each replay draw its amount from them.
    static func check(_ histories: [DeviceHistory], kind: FieldLogRecord.Kind, parameters: HeuristicLaunchParameters,
                      phone: PhoneStateProfile, earlierUse: [[Double]?] = [], jobs: Int) -> GoodnessOfFit {
        let fallback = LaunchReplay.Resubmission.fallback(histories, kind: kind)
        let replicates = Self.replicates(devices: histories.count)
        let summaries = (try? ParallelRuns.map(count: histories.count, jobs: jobs) { index -> (logged: DeviceLaunchSummary, simulated: [DeviceLaunchSummary]) in
            let history = histories[index]
            let logged = DeviceLaunchSummary(logged: history, kind: kind)
            let resubmission = LaunchReplay.Resubmission(history, kind: kind, fallback: fallback)
            let simulated = (0..<replicates).map { replicate -> DeviceLaunchSummary in
                var random = RandomStream(seed: seed, label: StreamLabel(kind == .refresh ? "calibration.fit-check.refresh" : "calibration.fit-check.processing"),
                                          entity: UInt64(index * maximumReplicates + replicate))
                var fraction = 1.0
                if index < earlierUse.count, let chances = earlierUse[index] {
                    var draw = random.unit()
                    let node = chances.indices.first { draw -= chances[$0]; return draw < 0 } ?? chances.count - 1
                    fraction = RefreshTape.Prehistory.fractions[node]  // the bin's midpoint
                }
                let launches = LaunchReplay.simulate(history, kind: kind, parameters: parameters, phone: phone,
                                                     resubmission: resubmission, random: &random, earlierUse: fraction)
                return DeviceLaunchSummary(events: simulatedEvents(history, kind: kind, launches: launches), start: history.start, end: history.end)
            }
            return (logged, simulated)
        }) ?? []
        return compare(kind: kind, logged: summaries.map(\.logged), simulated: summaries.map(\.simulated), jobs: jobs)
    }

    /// The comparison of per-device summaries of the logs and of their replicated simulations.
    /// The resamples are drawn in order from one stream and computed on `jobs` threads.
    static func compare(kind: FieldLogRecord.Kind, logged: [DeviceLaunchSummary], simulated: [[DeviceLaunchSummary]], jobs: Int = 1) -> GoodnessOfFit {
        let features = CalibrationFeature.allCases
        let dataPoint = CalibrationFeature.values(logged)
        let modelPoint = CalibrationFeature.values(simulated.flatMap { $0 })
        var dataDraws = [[Double]](repeating: [], count: features.count)
        var modelDraws = dataDraws, differenceDraws = dataDraws
        var stream = RandomStream(seed: seed, label: StreamLabel("calibration.fit-check.bootstrap"), entity: kind == .refresh ? 0 : 1)
        if logged.count > 1 {
            let samples = (0..<resamples).map { _ in Bootstrap.resample(logged.count, using: &stream) }
            let values = (try? ParallelRuns.map(count: samples.count, jobs: jobs) { index in
                (data: CalibrationFeature.values(samples[index].map { logged[$0] }),
                 model: CalibrationFeature.values(samples[index].flatMap { simulated[$0] }))
            }) ?? []
            for (data, model) in values {
                for index in features.indices {
                    if let value = data[index] { dataDraws[index].append(value) }
                    if let value = model[index] { modelDraws[index].append(value) }
                    if let a = data[index], let b = model[index] { differenceDraws[index].append(a - b) }
                }
            }
        }
        func estimate(_ value: Double?, _ draws: [Double]) -> FieldLogFeatures.Estimate {
            guard value != nil, let interval = Bootstrap.percentileInterval95(draws) else {
                return FieldLogFeatures.Estimate(value: value, low: nil, high: nil)
            }
            return FieldLogFeatures.Estimate(value: value, low: interval.low, high: interval.high)
        }
        // The tests, then Holm over the features that have one.
        let degrees = Double(Swift.max(1, logged.count - 1))
        let pValues = features.indices.map { index -> Double? in
            guard let data = dataPoint[index], let model = modelPoint[index], differenceDraws[index].count >= Bootstrap.minimumDraws else { return nil }
            let draws = differenceDraws[index]
            let mean = draws.reduce(0, +) / Double(draws.count)
            let sd = (draws.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(draws.count - 1)).squareRoot()
            let difference = data - model
            // No spread across resamples: too few devices carry the feature to test it.
            if sd == 0 { return nil }
            return StudentT.twoSidedPValue(difference / sd, degreesOfFreedom: degrees)
        }
        let tested = pValues.indices.filter { pValues[$0] != nil }
        let adjusted = HolmCorrection.adjusted(tested.map { pValues[$0]! })
        var adjustedByIndex = [Double?](repeating: nil, count: features.count)
        for (position, index) in tested.enumerated() { adjustedByIndex[index] = adjusted[position] }
        let rows = features.indices.map { index -> Row in
            let feature = features[index]
            let relative = dataPoint[index].flatMap { data in modelPoint[index].flatMap { data != 0 ? ($0 - data) / data : nil } }
            let significant = (adjustedByIndex[index] ?? 1) < 0.05
            let large = relative.map { abs($0) >= tolerance } ?? true
            let verdict: String
            switch (dataPoint[index], modelPoint[index]) {
            case (nil, _): verdict = "no data in the logs"
            case (_, nil): verdict = "the model never produces \(feature.title)"
            case (_, let model?):
                if significant && large {
                    verdict = relative.map { "the model \($0 > 0 ? "overestimates" : "underestimates") \(feature.title) by \(Self.percent(abs($0)))" }
                        ?? "the logs show none of \(feature.title); the model gives \(Format.significant(model))"
                } else if significant, let relative {
                    verdict = "fits, within ±\(Int(tolerance * 100)) % (off by \(Self.percent(abs(relative))))"
                } else {
                    verdict = "fits"
                }
            }
            let fits = !(significant && large) && !(dataPoint[index] != nil && modelPoint[index] == nil)
            // The relative difference's interval: the difference's, over the logs' value.
            let interval = Bootstrap.percentileInterval95(differenceDraws[index])
            let scale = dataPoint[index].flatMap { $0 != 0 ? $0 : nil }
            return Row(feature: feature, data: estimate(dataPoint[index], dataDraws[index]), model: estimate(modelPoint[index], modelDraws[index]),
                       relativeDifference: relative, relativeLow: scale.flatMap { s in interval.map { -$0.high / s } },
                       relativeHigh: scale.flatMap { s in interval.map { -$0.low / s } }, adjustedP: adjustedByIndex[index], fits: fits, verdict: verdict)
        }
        func hourly(_ summaries: [DeviceLaunchSummary]) -> [Double] {
            let days = summaries.reduce(0) { $0 + $1.days }
            return (0..<24).map { hour in days > 0 ? Double(summaries.reduce(0) { $0 + $1.launchesByHour[hour] }) / days : 0 }
        }
        return GoodnessOfFit(kind: kind, rows: rows, devices: logged.count, hourlyData: hourly(logged), hourlyModel: hourly(simulated.flatMap { $0 }))
    }

    /// "34 %", with one decimal under 10 %, and "< 0.1 %" below that.
    static func percent(_ share: Double) -> String {
        let value = share * 100
        if value > 0 && value < 0.05 { return "< 0.1 %" }
        return value < 10 ? "\(Format.number((value * 10).rounded() / 10)) %" : "\(Int(value.rounded())) %"
    }

    /// A device's logged foregrounds and the submissions of `kind` its user caused, with the
    /// simulated launches and the resubmissions made at them.
    static func simulatedEvents(_ history: DeviceHistory, kind: FieldLogRecord.Kind,
                                launches: [LaunchReplay.SimulatedLaunch]) -> [(time: Double, event: DeviceLaunchSummary.Event)] {
        var events: [(time: Double, order: Int, event: DeviceLaunchSummary.Event)] = []
        for (time, step) in history.steps {
            switch step {
            case .foreground: events.append((time, 1, .foreground))
            case .background: events.append((time, 1, .background))
            case .submitted(let submission) where submission.kind == kind && !submission.duringLaunch:
                events.append((time, 1, .submitted(identifier: submission.identifier, readyAt: submission.earliest)))
            default: break
            }
        }
        for launch in launches {
            events.append((launch.time, 0, .launched(identifier: launch.identifier, charging: launch.state.charging)))
            for submission in launch.resubmissions {
                events.append((launch.time, 0, .submitted(identifier: submission.identifier, readyAt: submission.earliest)))
            }
        }
        return events.enumerated().sorted { ($0.element.time, $0.element.order, $0.offset) < ($1.element.time, $1.element.order, $1.offset) }
            .map { ($0.element.time, $0.element.event) }
    }
}
