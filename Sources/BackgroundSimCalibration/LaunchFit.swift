import BackgroundSim
import SimKernel
import BackgroundSimLab

/// The heuristic launch model's parameters for one task kind, fitted to field logs by maximum
/// likelihood (``LaunchReplay``), with intervals from a bootstrap over devices
/// (``LaunchFitBootstrap``).
///
/// The numbers fitted for each kind, and the scales they are climbed on, are ``FittedKey``'s;
/// for processing, what a log cannot say of the phone is taken from the base scenario
/// (``PhoneStateProfile``).
///
/// A parameter the logs cannot inform is held at its base value and said to be: the battery
/// chance when no evaluation found the phone off the charger, the charging one when none found
/// it on. The search (``search(coordinates:base:objective:)``) climbs from the base values and
/// from the best points of a coarse global grid and says whether they agree; devices are scored
/// in parallel and summed in device order, so a fit is the same for any number of jobs.
package struct LaunchFit: Sendable {
    typealias Parameter = FittedParameter

    var kind: FieldLogRecord.Kind
    var parameters: HeuristicLaunchParameters
    var fitted: [Parameter]
    var score: LaunchReplay.Score
    var devices: Int
    /// Likelihood evaluations the optimiser made.
    var optimiserEvaluations: Int
    /// How the search's starts ended, and whether they agree.
    var convergence: Convergence

    /// How a kind's free parameters map to and from the optimiser's unbounded coordinates.
    struct Coordinates: Sendable {
        var kind: FieldLogRecord.Kind
        var keys: [FittedKey]

        static func value(_ key: FittedKey, of parameters: HeuristicLaunchParameters) -> Double { parameters[keyPath: key.keyPath] }

        /// The optimiser's coordinate for `value` of `key`: a logit for chances, else a logarithm.
        static func coordinate(_ key: FittedKey, _ value: Double) -> Double {
            if key.isChance {
                let p = Swift.min(1 - 1e-9, Swift.max(1e-9, value))
                return PortableMath.log(p / (1 - p))
            }
            return PortableMath.log(value)
        }

        /// The value of `key` at `coordinate`, within the values the fit may take (``FittedKey/range``).
        static func value(_ key: FittedKey, at coordinate: Double) -> Double {
            let clamped = Swift.min(30, Swift.max(-30, coordinate))
            let value = key.isChance ? 1 / (1 + PortableMath.exp(-clamped)) : PortableMath.exp(clamped)
            let range = key.range
            return Swift.min(range.upperBound, Swift.max(range.lowerBound, value))
        }

        func start(_ base: HeuristicLaunchParameters) -> [Double] { keys.map { Self.coordinate($0, Self.value($0, of: base)) } }

        func applying(_ point: [Double], to base: HeuristicLaunchParameters) -> HeuristicLaunchParameters {
            var parameters = base
            for (key, coordinate) in zip(keys, point) { parameters[keyPath: key.keyPath] = Self.value(key, at: coordinate) }
            return parameters
        }
    }

    /// The summed score of `histories` under `parameters`.
    static func score(_ histories: [DeviceHistory], kind: FieldLogRecord.Kind, _ parameters: HeuristicLaunchParameters,
                      phone: PhoneStateProfile, jobs: Int) -> LaunchReplay.Score {
        LaunchScorer(histories, kind: kind, base: parameters, phone: phone, jobs: jobs).score(parameters)
    }

    /// The maximum-likelihood fit for `kind` to `histories` (those that involve the kind).
    static func fit(_ histories: [DeviceHistory], kind: FieldLogRecord.Kind, base: HeuristicLaunchParameters,
                    phone: PhoneStateProfile, jobs: Int) -> LaunchFit {
        fit(LaunchScorer(histories, kind: kind, base: base, phone: phone, jobs: jobs), base: base)
    }

    /// The maximum-likelihood fit to the logs `scorer` scores, from `base`.
    static func fit(_ scorer: LaunchScorer, base: HeuristicLaunchParameters) -> LaunchFit {
        let kind = scorer.kind
        let atBase = scorer.score(base)
        var held: [FittedKey: String] = [:]
        if kind == .processing {
            if atBase.chargerWeight < 1 { held[.processingChargingChancePerEvaluation] = "no evaluation found a request eligible on the charger" }
            if atBase.batteryWeight < 1 {
                held[.processingBatteryChancePerEvaluation] = "no evaluation found a request eligible off the charger"
            }
        }
        if scorer.dueEvaluations == 0 {
            for key in FittedKey.keys(of: kind) { held[key] = "no evaluation found a request of this kind pending and due" }
        } else if scorer.informativeEvaluations == 0 {
            // Requests were due, but the model denied every such evaluation before any fitted
            // number could matter: the likelihood is flat in all of them. (A base budget too
            // small to launch is not that: other values of the fitted numbers do launch.)
            for key in FittedKey.keys(of: kind) {
                held[key] = "requests were due at \(scorer.dueEvaluations) evaluations, but the model denied every one before this number "
                    + "mattered (the app not used recently, no use learnt for the hour ahead, the spacing, the phone in use): the logs cannot inform it"
            }
        }
        let coordinates = Coordinates(kind: kind, keys: FittedKey.keys(of: kind).filter { held[$0] == nil })
        var parameters = base
        var evaluations = 0
        // Nothing to climb is not a converged fit.
        var convergence = Convergence(starts: [], problem: "nothing was fitted: every parameter is held at the base value", startsAgree: false)
        if !coordinates.keys.isEmpty {
            let result = search(coordinates: coordinates, base: base) {
                scorer.score(coordinates.applying($0, to: base)).logLikelihood
            }
            parameters = coordinates.applying(result.point, to: base)
            evaluations = result.evaluations
            convergence = result.convergence
        }
        let fitted = FittedKey.keys(of: kind).map { key in
            Parameter(key: key, value: Coordinates.value(key, of: parameters), heldBecause: held[key])
        }
        let fittedScore = scorer.score(parameters)
        precondition(fitted.allSatisfy { $0.heldBecause != nil || $0.key.range.contains($0.value) },
                     "LaunchFit: a fitted value outside its range")
        precondition(!(fittedScore.logLikelihood < atBase.logLikelihood - 1e-9 * abs(atBase.logLikelihood)),
                     "LaunchFit: the fit ended below the likelihood of its own start")
        return LaunchFit(kind: kind, parameters: parameters, fitted: fitted, score: fittedScore,
                         devices: scorer.devices, optimiserEvaluations: evaluations, convergence: convergence)
    }

    /// Whether `a` and `b` differ at most in `kind`'s fitted parameters: what a tape recorded
    /// under `b` can score `a` for.
    static func differOnlyInFitted(_ a: HeuristicLaunchParameters, _ b: HeuristicLaunchParameters, kind: FieldLogRecord.Kind) -> Bool {
        var unfitted = a
        for key in FittedKey.keys(of: kind) { unfitted[keyPath: key.keyPath] = b[keyPath: key.keyPath] }
        return unfitted == b
    }

    /// The free parameters' coordinates.
    var coordinates: Coordinates { Coordinates(kind: kind, keys: fitted.filter { $0.heldBecause == nil }.map(\.key)) }

    /// This fit with each interval widened, if need be, to span the values of every start that
    /// ended within ``agreement`` of the best (maxima the logs cannot tell apart).
    func spanningAgreeingMaxima(base: HeuristicLaunchParameters) -> LaunchFit {
        var result = self
        let coordinates = self.coordinates
        for end in convergence.agreeing {
            let parameters = coordinates.applying(end.point, to: base)
            for index in result.fitted.indices where result.fitted[index].heldBecause == nil {
                let value = Coordinates.value(result.fitted[index].key, of: parameters)
                if let low = result.fitted[index].low { result.fitted[index].low = Swift.min(low, value) }
                if let high = result.fitted[index].high { result.fitted[index].high = Swift.max(high, value) }
            }
        }
        return result
    }
}

/// A launch-model parameter fitted to field logs, with its interval.
package struct FittedParameter: Sendable, Equatable {
    /// The parameter: its key under `system.heuristic` in a scenario is its raw value.
    package var key: FittedKey
    package var value: Double
    /// The 95 % interval: the bootstrap over devices joined with the likelihood-ratio interval
    /// along the parameter's axis (``LaunchFit/spanningLikelihoodRatio(scorer:base:)``); `nil`
    /// when the parameter is held, the fit is not identified, or with one device.
    package var low: Double?
    package var high: Double?
    /// Why the logs cannot inform it (it is then held at the base scenario's value); `nil` if
    /// fitted.
    package var heldBecause: String?
    /// Whether the fit lies on the edge of the parameter's valid range, the starts agreeing
    /// (``LaunchFit/Convergence/startsAgree``): the logs bound it from one side only, and its
    /// interval runs to the range's end (``LaunchFit/withIntervals(scorer:base:)``).
    package var onRangeEdge = false
}
