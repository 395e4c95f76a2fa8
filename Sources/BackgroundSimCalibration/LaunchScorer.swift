import BackgroundSim
import BackgroundSimLab

/// Scores a set of devices' logs of one kind under any launch parameters, as
/// ``LaunchReplay/score(_:kind:parameters:phone:)`` would, device by device.
///
/// Each log is reduced once to a tape (``RefreshTape``, ``ProcessingTape``) and the tapes are
/// scored: the fit and the bootstrap score the same logs hundreds of times, and a tape costs a
/// fraction of a replay.
struct LaunchScorer: Sendable {
    let histories: [DeviceHistory]
    let kind: FieldLogRecord.Kind
    let phone: PhoneStateProfile
    let jobs: Int
    /// Each device's tape of the kind, recorded under the base parameters.
    private let refreshTapes: [RefreshTape]
    private let processingTapes: [ProcessingTape]

    init(_ histories: [DeviceHistory], kind: FieldLogRecord.Kind, base: HeuristicLaunchParameters, phone: PhoneStateProfile, jobs: Int) {
        self.histories = histories
        self.kind = kind
        self.phone = phone
        self.jobs = jobs
        refreshTapes = kind != .refresh ? [] : (try? ParallelRuns.map(count: histories.count, jobs: jobs) {
            LaunchReplay.refreshTape(histories[$0], parameters: base, phone: phone)
        }) ?? []
        processingTapes = kind != .processing ? [] : (try? ParallelRuns.map(count: histories.count, jobs: jobs) {
            LaunchReplay.processingTape(histories[$0], parameters: base, phone: phone)
        }) ?? []
        integratesEarlierUse = refreshTapes.contains { $0.prehistory != nil }
    }

    var devices: Int { histories.count }

    /// Whether some device's likelihood integrates out the use learnt before its log began
    /// (refresh logs that began after install: ``EarlierUseMixture``).
    let integratesEarlierUse: Bool

    /// Evaluations, over every device, at which a request of the kind was pending and due,
    /// whatever the model decided there.
    var dueEvaluations: Int {
        refreshTapes.reduce(0) { $0 + $1.dueEvaluations } + processingTapes.reduce(0) { $0 + $1.dueEvaluations }
    }

    /// Evaluations, over every device, that the model's rules before any fitted number let
    /// through (refresh: the app used recently, use learnt for the hour ahead, the spacing;
    /// processing: the app out of the foreground, a chance open on or off the charger): where
    /// the fitted numbers can change the likelihood. None of it depends on the fitted values.
    var informativeEvaluations: Int {
        refreshTapes.reduce(0) { total, tape in total + tape.points.count { $0.use != nil } }
            + processingTapes.reduce(0) { total, tape in
                total + tape.operations.count { operation in
                    guard case .evaluate(let evaluation) = operation else { return false }
                    return evaluation.batteryOpen || evaluation.chargerOpen
                }
            }
    }

    /// Each device's score under `parameters`, in device order. Refresh devices whose logs
    /// began after install score the mixture over their earlier use (``EarlierUseMixture``).
    func scores(_ parameters: HeuristicLaunchParameters) -> [LaunchReplay.Score] {
        guard integratesEarlierUse else {
            return (try? ParallelRuns.map(count: histories.count, jobs: jobs) { index in
                kind == .refresh ? refreshTapes[index].score(parameters) : processingTapes[index].score(parameters, phone: phone)
            }) ?? []
        }
        let (components, mixture) = refreshComponents(parameters)
        return components.map(mixture.score)
    }

    /// Refresh: for each device whose log began after install, the chances of each bin of
    /// earlier use (``RefreshTape/Prehistory/bins``) under `parameters`; `nil` for the
    /// others and for processing, in device order.
    func earlierUsePosteriors(_ parameters: HeuristicLaunchParameters) -> [[Double]?] {
        guard integratesEarlierUse else { return Array(repeating: nil, count: histories.count) }
        let (components, mixture) = refreshComponents(parameters)
        return components.map(mixture.posterior)
    }

    /// Each device's log-likelihood under `parameters`, in a form a bootstrap over devices can
    /// reweight: with the mixture of earlier use fitted again to each resample.
    func deviceLogLikelihoods(_ parameters: HeuristicLaunchParameters) -> DeviceLogLikelihoods {
        guard integratesEarlierUse else { return DeviceLogLikelihoods(perDevice: scores(parameters).map(\.logLikelihood)) }
        let (components, mixture) = refreshComponents(parameters)
        return DeviceLogLikelihoods(perDevice: components.map { mixture.score($0).logLikelihood }, components: components, mixture: mixture)
    }

    /// Every refresh device's component scores, and the mixture fitted to those with several.
    private func refreshComponents(_ parameters: HeuristicLaunchParameters) -> ([[LaunchReplay.Score]], EarlierUseMixture) {
        let components = (try? ParallelRuns.map(count: histories.count, jobs: jobs) { refreshTapes[$0].componentScores(parameters) }) ?? []
        return (components, EarlierUseMixture(fitting: components.filter { $0.count > 1 }))
    }

    /// The summed score under `parameters`.
    func score(_ parameters: HeuristicLaunchParameters) -> LaunchReplay.Score {
        scores(parameters).reduce(LaunchReplay.Score(), +)
    }
}

/// Every device's log-likelihood at one point, for a bootstrap over devices
/// (``LaunchFitBootstrap``).
struct DeviceLogLikelihoods: Sendable {
    /// Each device's log-likelihood; the mixture's devices' under the weights fitted to all.
    let perDevice: [Double]
    /// ``perDevice`` with 0 for the mixture's devices, whose part a resample refits.
    private let outsideMixture: [Double]
    /// The devices whose likelihood is a mixture over their earlier use, their likelihoods of
    /// each bin of earlier use, and the weights fitted to all of them (``EarlierUseMixture``); `nil` if none.
    private let mixture: (indices: [Int], devices: EarlierUseMixture.Devices, weights: [Double])?

    /// Log-likelihoods with no mixture.
    init(perDevice: [Double]) {
        self.perDevice = perDevice
        outsideMixture = perDevice
        mixture = nil
    }

    /// Log-likelihoods where the devices with several `components` (one score per bin of
    /// earlier use) are a mixture, fitted to all of them as `mixture`.
    init(perDevice: [Double], components: [[LaunchReplay.Score]], mixture: EarlierUseMixture) {
        self.perDevice = perDevice
        let indices = components.indices.filter { components[$0].count > 1 }
        var outside = perDevice
        for index in indices { outside[index] = 0 }
        outsideMixture = outside
        self.mixture = (indices, EarlierUseMixture.Devices(indices.map { components[$0].map(\.logLikelihood) }), mixture.weights)
    }

    /// The summed log-likelihood with device `d` counted `counts[d]` times: the mixture's
    /// weights fitted again to the resample, as a refit of the resample would, so that the
    /// intervals hold how much they can trade off against the launch parameters. The refit is
    /// ``resampleIterations`` steps of EM from the weights fitted to all devices (each step
    /// raises the likelihood; a bootstrap makes one at every grid point of every resample).
    func total(_ counts: [Double]) -> Double {
        let outside = zip(outsideMixture, counts).reduce(0) { $0 + $1.0 * $1.1 }
        guard let mixture else { return outside }
        return outside + mixture.devices.fit(counts: mixture.indices.map { counts[$0] }, from: mixture.weights, tolerance: 0,
                                             iterations: Self.resampleIterations).logLikelihood
    }

    /// Steps of EM a resample's refit of the mixture takes.
    static let resampleIterations = 5
}
