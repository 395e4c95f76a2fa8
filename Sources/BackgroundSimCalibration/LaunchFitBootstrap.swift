import BackgroundSim
import SimKernel
import BackgroundSimLab

/// 95 % intervals for a ``LaunchFit``'s parameters by a bootstrap over devices (Efron &
/// Tibshirani 1993, ch. 13): devices are independent, the launches on one device are not, so
/// resampling devices with replacement and refitting shows how much the fit would move with
/// other users.
///
/// Refitting each resample from scratch would take hundreds of likelihood evaluations per
/// resample. Instead each device's log-likelihood is computed once on a grid around the
/// maximum (in the optimiser's coordinates: logarithms, or logits for chances), and a
/// resample's fit is the grid point where its devices' summed log-likelihoods, each device
/// counted as often as it was drawn, are highest. The grid spans ±``gridHalfWidth`` steps each
/// way, a step being one standard error (at least ``minimumStep``): the error from a sandwich
/// estimate (Huber 1967; the outer product of the devices' score vectors between inverse
/// Hessians, by finite differences), itself robust to a model that does not fit.
///
/// The interval is the resampled fits' 2.5 and 97.5 percentiles, resolved to the grid (a full
/// step beyond the outermost points chosen, two where the step is ``minimumStep``: the
/// standard error is then below what the grid resolves, and one step covered the refresh base
/// budget in 183 of 200 replications) and never excluding the fit itself. That is
/// deliberately conservative: the likelihood is not smooth — a budget just too small to pay for
/// a logged launch makes it impossible — so the maximum can sit at such an edge, where the
/// bootstrap's percentiles alone are known to mislead (Andrews 2000): there, most resamples
/// pick the same grid point, and half a step each way covered the refresh base budget in only
/// 16 of 20 replications (docs/CALIBRATION.md). A resample whose best point is on the grid's
/// edge means the interval may be wider: while more than 5 % do, the grid's steps are doubled
/// and the bootstrap run again (at most ``maximumWidenings`` times); those left are counted.
/// Calibration then joins each interval with the likelihood-ratio one along its axis
/// (``LaunchFit/spanningLikelihoodRatio(scorer:base:)``), which holds where the maximum sits on
/// the edge of a parameter's range.
enum LaunchFitBootstrap {
    /// Resamples: 200, from a fixed seed, so the same logs give the same intervals.
    static let resamples = 200
    static let seed: UInt64 = 20_261_124
    /// Grid points each way from the maximum along each axis (7 per axis).
    static let gridHalfWidth = 3
    /// The finite-difference step for the sandwich estimate, in the optimiser's coordinates.
    static let differenceStep = 0.1
    /// The smallest grid step: 0.01 in the optimiser's coordinates, 1 % of a value.
    static let minimumStep = 0.01

    /// `fit` with its free parameters' intervals set, and how many resamples' best point was on
    /// the grid's edge along some axis.
    static func intervals(for fit: LaunchFit, scorer: LaunchScorer, base: HeuristicLaunchParameters) -> (fit: LaunchFit, resamplesAtGridEdge: Int) {
        let coordinates = fit.coordinates
        let k = coordinates.keys.count
        guard k > 0, scorer.devices > 1 else { return (fit, 0) }
        let center = coordinates.start(fit.parameters)
        // Each point's per-device log-likelihoods, kept: the axes' lines are part of the grid.
        var computed: [[Double]: DeviceLogLikelihoods] = [:]
        func perDevice(_ point: [Double]) -> DeviceLogLikelihoods {
            if let known = computed[point] { return known }
            let values = scorer.deviceLogLikelihoods(coordinates.applying(point, to: base))
            computed[point] = values
            return values
        }
        func shifted(_ moves: [(axis: Int, by: Double)]) -> [Double] {
            var point = center
            for move in moves { point[move.axis] += move.by }
            return point
        }
        var steps = gridSteps(center: perDevice(center).perDevice, k: k, h: differenceStep, at: { perDevice(shifted($0)).perDevice })
        let tooMany = LaunchCalibration.KindCalibration.gridEdgeWarningShare * Double(resamples)
        // Each axis's line alone first (7 of the grid's points): where the resamples' best
        // points along it crowd its ends, its step is doubled before the whole grid is computed.
        for axis in 0..<k {
            for _ in 0..<maximumWidenings {
                let line = resample(fit: fit, k: 1, devices: scorer.devices, steps: [steps[axis]],
                                    at: { moves in perDevice(shifted(moves.map { (axis, $0.by) })) })
                guard Double(line.atEdge) > tooMany else { break }
                steps[axis] = Swift.min(4, 2 * steps[axis])
            }
        }
        // The grid must hold the resamples' fits: while too many end on its edge, double it.
        var outcome = resample(fit: fit, k: k, devices: scorer.devices, steps: steps, at: { perDevice(shifted($0)) })
        for _ in 0..<maximumWidenings where Double(outcome.atEdge) > tooMany {
            steps = steps.map { Swift.min(4, 2 * $0) }
            outcome = resample(fit: fit, k: k, devices: scorer.devices, steps: steps, at: { perDevice(shifted($0)) })
        }
        let draws = outcome.draws
        var result = fit
        for (axis, key) in coordinates.keys.enumerated() {
            let sorted = draws[axis].sorted()
            guard let index = result.fitted.firstIndex(where: { $0.key == key }),
                  let low = Quantile.interpolated(sorted, 0.025), let high = Quantile.interpolated(sorted, 0.975) else { continue }
            // Resolved to the grid: a step beyond the outermost points (two where the step is the
            // minimum, finer than the grid can resolve), and never excluding the fit itself.
            let margin = steps[axis] <= minimumStep ? 2.0 : 1.0
            result.fitted[index].low = LaunchFit.Coordinates.value(key, at: center[axis] + (Swift.min(0, low.rounded(.down)) - margin) * steps[axis])
            result.fitted[index].high = LaunchFit.Coordinates.value(key, at: center[axis] + (Swift.max(0, high.rounded(.up)) + margin) * steps[axis])
        }
        return (result, outcome.atEdge)
    }

    /// Times the grid may be doubled when too many resamples end on its edge.
    static let maximumWidenings = 3

    /// The bootstrap on one grid: each resample's best grid point (as offsets along each axis,
    /// in steps) and how many resamples' best point was on the grid's edge. `at` gives every
    /// device's log-likelihood at the centre moved along axes; a resample's total at a point
    /// fits the mixture of earlier use, if any, again to the resample
    /// (``DeviceLogLikelihoods/total(_:)``).
    static func resample(fit: LaunchFit, k: Int, devices: Int, steps: [Double],
                         at: ([(axis: Int, by: Double)]) -> DeviceLogLikelihoods) -> (draws: [[Double]], atEdge: Int) {
        // Every device's log-likelihood at every grid point.
        let side = 2 * gridHalfWidth + 1
        let offsets = (0..<[Int](repeating: side, count: k).reduce(1, *)).map { index -> [Int] in
            var rest = index
            return (0..<k).map { _ in
                defer { rest /= side }
                return rest % side - gridHalfWidth
            }
        }
        let grid = offsets.map { offset in at((0..<k).map { ($0, Double(offset[$0]) * steps[$0]) }) }

        var stream = RandomStream(seed: seed, label: StreamLabel("calibration.fit-bootstrap"), entity: fit.kind == .refresh ? 0 : 1)
        var draws = [[Double]](repeating: [], count: k)
        var atEdge = 0
        for _ in 0..<resamples {
            var weights = [Double](repeating: 0, count: devices)
            for index in Bootstrap.resample(devices, using: &stream) { weights[index] += 1 }
            let totals = grid.map { $0.total(weights) }
            let best = totals.indices.max { (totals[$0], $1) < (totals[$1], $0) }!
            let offset = offsets[best]
            if offset.contains(where: { abs($0) == gridHalfWidth }) { atEdge += 1 }
            for axis in 0..<k { draws[axis].append(Double(offset[axis])) }
        }
        return (draws, atEdge)
    }

    /// The grid's step along each axis: the sandwich standard error, from per-device
    /// log-likelihoods at the centre and at moves of `h` along and between axes (`at`), within
    /// ``minimumStep`` … 1; 0.1 along every axis if the Hessian is not negative definite.
    static func gridSteps(center: [Double], k: Int, h: Double, at: ([(axis: Int, by: Double)]) -> [Double]) -> [Double] {
        // `center` and what `at` returns are per-device log-likelihoods.
        let plus = (0..<k).map { at([($0, h)]) }, minus = (0..<k).map { at([($0, -h)]) }
        let total = { (values: [Double]) in values.reduce(0, +) }
        var hessian = [[Double]](repeating: [Double](repeating: 0, count: k), count: k)
        for j in 0..<k {
            hessian[j][j] = (total(plus[j]) - 2 * total(center) + total(minus[j])) / (h * h)
            for l in (j + 1)..<Swift.max(j + 1, k) {
                let value = (total(at([(j, h), (l, h)])) - total(at([(j, h), (l, -h)])) - total(at([(j, -h), (l, h)])) + total(at([(j, -h), (l, -h)]))) / (4 * h * h)
                hessian[j][l] = value
                hessian[l][j] = value
            }
        }
        // The devices' scores, and their outer products summed.
        var meat = [[Double]](repeating: [Double](repeating: 0, count: k), count: k)
        for device in center.indices {
            let score = (0..<k).map { (plus[$0][device] - minus[$0][device]) / (2 * h) }
            for j in 0..<k { for l in 0..<k { meat[j][l] += score[j] * score[l] } }
        }
        guard let inverse = SmallMatrix.inverse(hessian), SmallMatrix.isNegativeDefinite(hessian) else {
            return [Double](repeating: 0.1, count: k)
        }
        let covariance = SmallMatrix.product(SmallMatrix.product(inverse, meat), inverse)
        return (0..<k).map { j in
            let variance = covariance[j][j]
            return variance.isFinite && variance > 0 ? Swift.min(1, Swift.max(minimumStep, variance.squareRoot())) : 0.1
        }
    }
}

/// The few operations on small square matrices (k ≤ 3) the bootstrap needs.
enum SmallMatrix {
    static func product(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        a.indices.map { i in b[0].indices.map { j in a[i].indices.reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
    }

    /// The inverse by Gauss–Jordan elimination with partial pivoting; `nil` if singular.
    static func inverse(_ matrix: [[Double]]) -> [[Double]]? {
        let n = matrix.count
        var a = matrix.enumerated().map { row in row.element + (0..<n).map { $0 == row.offset ? 1.0 : 0 } }
        for column in 0..<n {
            let pivot = (column..<n).max { abs(a[$0][column]) < abs(a[$1][column]) }!
            guard abs(a[pivot][column]) > 1e-300 else { return nil }
            a.swapAt(column, pivot)
            let divisor = a[column][column]
            a[column] = a[column].map { $0 / divisor }
            for row in 0..<n where row != column {
                let factor = a[row][column]
                a[row] = zip(a[row], a[column]).map { $0 - factor * $1 }
            }
        }
        return a.map { Array($0[n...]) }
    }

    /// Whether the symmetric `matrix` is negative definite (Sylvester's criterion on −matrix).
    static func isNegativeDefinite(_ matrix: [[Double]]) -> Bool {
        let negated = matrix.map { $0.map { -$0 } }
        return (1...negated.count).allSatisfy { size in determinant(negated.prefix(size).map { Array($0.prefix(size)) }) > 0 }
    }

    static func determinant(_ m: [[Double]]) -> Double {
        switch m.count {
        case 1: return m[0][0]
        case 2: return m[0][0] * m[1][1] - m[0][1] * m[1][0]
        default:
            return m[0].indices.reduce(0) { sum, column in
                let minor = m.dropFirst().map { row in row.enumerated().filter { $0.offset != column }.map(\.element) }
                return sum + (column % 2 == 0 ? 1 : -1) * m[0][column] * determinant(minor)
            }
        }
    }
}
