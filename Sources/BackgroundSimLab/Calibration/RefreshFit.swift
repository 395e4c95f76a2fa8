import BackgroundSim
import SimKernel

/// Fits the heuristic launch model's refresh parameters to field logs by maximum likelihood
/// (``RefreshLikelihood``): `refreshBasePerDay`, `refreshPerAppSession` and
/// `refreshFadeHalfLifeDays`, the others held at `base`'s values.
///
/// The optimiser is ``NelderMead`` on the parameters' logarithms (so they stay positive), from
/// `base`'s values; devices are scored in parallel and summed in device order, so the fit is the
/// same for any number of jobs.
struct RefreshFit: Sendable {
    var parameters: HeuristicLaunchParameters
    var logLikelihood: Double
    var launches: Int
    var unexplained: Int
    var evaluations: Int
    var devices: Int

    /// The fitted parameters' names, in the optimiser's order.
    static let names = ["refreshBasePerDay", "refreshPerAppSession", "refreshFadeHalfLifeDays"]

    static func histories(_ records: [FieldLogRecord]) -> [RefreshLikelihood.History] {
        FieldLogFormat.devices(records).filter { $0.contains { $0.kind == .refresh } }.map(RefreshLikelihood.History.init)
    }

    static func applying(_ point: [Double], to base: HeuristicLaunchParameters) -> HeuristicLaunchParameters {
        var parameters = base
        parameters.refreshBasePerDay = PortableMath.exp(point[0])
        parameters.refreshPerAppSession = PortableMath.exp(point[1])
        parameters.refreshFadeHalfLifeDays = Swift.min(1_000, PortableMath.exp(point[2]))
        return parameters
    }

    /// The summed score of `histories` under `parameters`.
    static func score(_ histories: [RefreshLikelihood.History], _ parameters: HeuristicLaunchParameters, jobs: Int) -> RefreshLikelihood.Score {
        let scores = (try? ParallelRuns.map(count: histories.count, jobs: jobs) { RefreshLikelihood.score(histories[$0], parameters: parameters) }) ?? []
        return scores.reduce(into: RefreshLikelihood.Score()) { total, score in
            total.logLikelihood += score.logLikelihood
            total.launches += score.launches
            total.unexplained += score.unexplained
            total.evaluations += score.evaluations
        }
    }

    /// The maximum-likelihood fit to `records` (sorted by device, then time).
    static func fit(_ records: [FieldLogRecord], base: HeuristicLaunchParameters = HeuristicLaunchParameters(), jobs: Int) -> RefreshFit {
        let histories = histories(records)
        let start = [base.refreshBasePerDay, base.refreshPerAppSession, base.refreshFadeHalfLifeDays].map(PortableMath.log)
        let result = NelderMead.minimise({ -score(histories, applying($0, to: base), jobs: jobs).logLikelihood },
                                         start: start, step: 0.3, tolerance: 1e-4)
        let parameters = applying(result.point, to: base)
        let best = score(histories, parameters, jobs: jobs)
        return RefreshFit(parameters: parameters, logLikelihood: best.logLikelihood, launches: best.launches,
                          unexplained: best.unexplained, evaluations: result.evaluations, devices: histories.count)
    }
}
