import BackgroundSim
import BackgroundSimLab

/// Scores a set of devices' logs of one kind under any launch parameters, as
/// ``LaunchReplay/score(_:kind:parameters:phone:)`` would, device by device.
///
/// For refresh each log is reduced once to a ``RefreshTape`` and the tapes are scored: the fit
/// and the bootstrap score the same logs hundreds of times, and a tape costs a few percent of a
/// replay. Processing replays the logs (its hidden chain of the phone's state depends on the
/// chances being fitted).
struct LaunchScorer: Sendable {
    let histories: [DeviceHistory]
    let kind: FieldLogRecord.Kind
    let phone: PhoneStateProfile
    let jobs: Int
    /// Refresh: each device's tape, recorded under the base parameters.
    private let tapes: [RefreshTape]

    init(_ histories: [DeviceHistory], kind: FieldLogRecord.Kind, base: HeuristicLaunchParameters, phone: PhoneStateProfile, jobs: Int) {
        self.histories = histories
        self.kind = kind
        self.phone = phone
        self.jobs = jobs
        tapes = kind != .refresh ? [] : (try? ParallelRuns.map(count: histories.count, jobs: jobs) {
            LaunchReplay.refreshTape(histories[$0], parameters: base, phone: phone)
        }) ?? []
    }

    var devices: Int { histories.count }

    /// Each device's score under `parameters`, in device order.
    func scores(_ parameters: HeuristicLaunchParameters) -> [LaunchReplay.Score] {
        (try? ParallelRuns.map(count: histories.count, jobs: jobs) { index in
            kind == .refresh ? tapes[index].score(parameters)
                : LaunchReplay.score(histories[index], kind: kind, parameters: parameters, phone: phone)
        }) ?? []
    }

    /// The summed score under `parameters`.
    func score(_ parameters: HeuristicLaunchParameters) -> LaunchReplay.Score {
        scores(parameters).reduce(LaunchReplay.Score(), +)
    }
}
