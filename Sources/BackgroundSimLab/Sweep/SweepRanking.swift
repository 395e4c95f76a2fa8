import SimKernel

/// Rankings of a sweep's cells that take the noise into account: the Pareto front of two
/// objectives with the cells that cannot be ruled off it, and the best cell per objective with
/// the cells that cannot be told apart from it.
///
/// Cells run on the same seeds, so two cells compare by the paired differences of their costs
/// (values oriented so that lower is better), seed by seed, over the seeds where both apply.
/// With k cells and α = 0.05, and one-sided confidence limits widened for skewed metrics
/// (``SampleSummary/confidenceLimit(_:level:upper:quantiles:)``, ``SkewnessAllowance``):
/// - Cell i is **confidently dominated** when some cell j is better on both objectives with
///   confidence: for each objective, the upper one-sided confidence limit of the mean of
///   cost_j − cost_i, at level α / (2(k − 1)), is below zero. Claiming that i is dominated
///   involves at most 2(k − 1) such statements, so by Bonferroni it is wrong with probability
///   at most α. The **possible front** is every cell not confidently dominated; it contains the
///   front of the means.
/// - A cell l **cannot be told apart** from the best b on an objective when the lower one-sided
///   confidence limit of the mean of cost_l − cost_b, at level α / (k − 1), is not above zero
///   (comparisons with the best, Hsu 1984).
package struct SweepRanking: Sendable {
    /// Each cell's costs on each seed for the two objectives, `costs[objective][cell][seed]`.
    package var costs: [[[Double?]]]

    package static let alpha = 0.05

    package init(costs: [[[Double?]]]) {
        self.costs = costs
    }

    var cellCount: Int { costs.first?.count ?? 0 }

    /// The mean cost of `cell` on `objective`; `nil` with no values.
    func mean(_ objective: Int, _ cell: Int) -> Double? {
        let present = costs[objective][cell].compactMap { $0 }
        return present.isEmpty ? nil : SampleSummary(present).mean
    }

    /// The paired differences `a − b` on `objective`.
    func differences(_ objective: Int, _ a: Int, _ b: Int) -> [Double] {
        zip(costs[objective][a], costs[objective][b]).compactMap { x, y in x.flatMap { x in y.map { x - $0 } } }
    }

    /// The front of the means (no cell's means are at least as good on both and better on one).
    package var front: [Int] {
        ParetoFront.indices((0..<cellCount).map { cell in
            guard let a = mean(0, cell), let b = mean(1, cell) else { return nil }
            return [a, b]
        })
    }

    /// Whether `cell` is confidently dominated, and by which cell (the first found).
    package func dominator(of cell: Int) -> Int? {
        var quantiles: [Int: Double] = [:]
        return dominator(of: cell, quantiles: &quantiles)
    }

    private func dominator(of cell: Int, quantiles: inout [Int: Double]) -> Int? {
        guard mean(0, cell) != nil, mean(1, cell) != nil else { return nil }
        let level = Self.alpha / Double(2 * Swift.max(1, cellCount - 1))
        for other in 0..<cellCount where other != cell {
            let both = (0..<2).allSatisfy { objective in
                SampleSummary.confidenceLimit(differences(objective, other, cell), level: level, upper: true, quantiles: &quantiles).map { $0 < 0 } ?? false
            }
            if both { return other }
        }
        return nil
    }

    /// The cells not confidently dominated (among those with values on both objectives).
    package var possibleFront: [Int] {
        var quantiles: [Int: Double] = [:]
        return (0..<cellCount).filter { mean(0, $0) != nil && mean(1, $0) != nil && dominator(of: $0, quantiles: &quantiles) == nil }
    }

    /// The cell with the lowest mean cost on `objective` (the lowest index on ties).
    package func best(_ objective: Int) -> Int? {
        (0..<cellCount).filter { mean(objective, $0) != nil }.min { (mean(objective, $0)!, $0) < (mean(objective, $1)!, $1) }
    }

    /// The cells that cannot be told apart from the best on `objective`, in order.
    package func indistinguishable(fromBest objective: Int) -> [Int] {
        guard let best = best(objective) else { return [] }
        let level = Self.alpha / Double(Swift.max(1, cellCount - 1))
        var quantiles: [Int: Double] = [:]
        return (0..<cellCount).filter { cell in
            guard cell != best, mean(objective, cell) != nil else { return false }
            let lower = SampleSummary.confidenceLimit(differences(objective, cell, best), level: level, upper: false, quantiles: &quantiles)
            return !(lower.map { $0 > 0 } ?? false)
        }
    }
}
