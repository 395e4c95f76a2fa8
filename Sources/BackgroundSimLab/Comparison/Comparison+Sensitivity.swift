import BackgroundSim

/// Which of the iOS model's uncertain numbers a comparison's decision hangs on, from runs that
/// drew them per seed (`--model-uncertainty`, ``ModelUncertainty``).
///
/// Each number's **sensitivity** is its largest Spearman rank correlation, in absolute value,
/// over the seeds, with a figure the decision reads: the objective's paired difference between
/// the recommended arm and the best other one, and each bound's metric on the recommended arm.
/// Rank correlations over a Monte Carlo design are a standard global screening measure (Saltelli
/// et al., *Global Sensitivity Analysis: The Primer*, Wiley 2008, ch. 1; Helton & Davis 2003,
/// *Reliability Engineering & System Safety* 81(1):23–69); a number with no effect correlates
/// only by chance (|ρ| ≲ 2/√n).
///
/// The decision is then tested where it is most likely to move: for each of the three most
/// sensitive numbers, the seeds are split into quarters by the value drawn, and the
/// recommendation is made again on each quarter alone. It **depends on the model** when some
/// quarter confidently recommends another arm (the first such quarter is named, with its range
/// of values); it is **robust** when every quarter recommends the same arm as all the seeds;
/// otherwise it is **unsettled**: a quarter leans elsewhere, not confidently, and more seeds
/// would tell.
public struct Sensitivity: Sendable {
    /// One uncertain number and how strongly the decision's figures follow it.
    public struct Entry: Sendable {
        public var path: String
        public var plausible: ClosedRange<Double>
        /// Spearman's ρ with each figure the decision reads, by its label.
        public var correlations: [(figure: String, rho: Double)]
        /// The largest |ρ|.
        public var strength: Double { correlations.map { abs($0.rho) }.max() ?? 0 }
    }

    /// The recommendation on the quarter of the seeds whose draws of `path` lie in `values`.
    public struct Quarter: Sendable {
        public var path: String
        public var values: ClosedRange<Double>
        public var seeds: Int
        public var choice: Int?
        public var confident: Bool
    }

    /// Every uncertain number, the most sensitive first.
    public var entries: [Entry]
    /// The recommendation on each quarter, for the most sensitive numbers.
    public var quarters: [Quarter]
    /// The arm recommended on all seeds, if any.
    public var choice: Int?
    /// "Robust: …" or "Depends on the model: …".
    public var line: String

    /// Numbers tested quarter by quarter.
    public static let testedNumbers = 3
    /// Numbers listed in the reports.
    public static let listed = 8
}

extension Comparison {
    /// The sensitivity of the decision under `objective` to the iOS model's uncertain numbers;
    /// `nil` unless the runs drew them (``modelUncertainty``) on at least 8 seeds.
    public func sensitivity(_ objective: Objective) -> Sensitivity? {
        guard let uncertainty = modelUncertainty, seeds.count >= 8, !uncertainty.varied.isEmpty else { return nil }
        let draws = seeds.map { uncertainty.draw(seed: $0) }
        let recommendation = recommendation(objective)
        let chosen = recommendation.choice
        // The figures the decision reads, per seed.
        var figures: [(label: String, values: [Double?])] = []
        if let objectiveRow = rows.first(where: { $0.metric.key == objective.metric.key }) {
            let arm = chosen ?? 0
            let means = objectiveRow.summaries.map { objective.cost($0.mean) }
            let rival = names.indices.filter { $0 != arm }.min { (means[$0], $0) < (means[$1], $1) } ?? (arm == 0 ? 1 : 0)
            figures.append(("\(objectiveRow.metric.label), \(names[arm]) − \(names[rival])", seeds.indices.map { seed in
                objectiveRow.values[arm][seed].flatMap { a in objectiveRow.values[rival][seed].map { a - $0 } }
            }))
        }
        for bound in objective.bounds {
            guard let row = rows.first(where: { $0.metric.key == bound.metric.key }) else { continue }
            figures.append(("\(row.metric.label), \(names[chosen ?? 0])", row.values[chosen ?? 0]))
        }
        let entries = uncertainty.parameters.indices.filter { !uncertainty.fixedPaths.contains(uncertainty.parameters[$0].path) }.map { index in
            Sensitivity.Entry(path: uncertainty.parameters[index].path, plausible: uncertainty.parameters[index].plausible,
                              correlations: figures.map { figure in
                                  let pairs = zip(draws.map { $0[index] }, figure.values).compactMap { x, y in y.map { (x, $0) } }
                                  return (figure.label, Self.spearman(pairs.map(\.0), pairs.map(\.1)))
                              })
        }.sorted { ($0.strength, $1.path) > ($1.strength, $0.path) }
        // The decision on each quarter of the seeds, by the most sensitive numbers' draws.
        var quarters: [Sensitivity.Quarter] = []
        for entry in entries.prefix(Sensitivity.testedNumbers) {
            let index = uncertainty.parameters.firstIndex { $0.path == entry.path }!
            let order = seeds.indices.sorted { (draws[$0][index], $0) < (draws[$1][index], $1) }
            for quarter in 0..<4 {
                let part = Array(order[(quarter * order.count / 4)..<((quarter + 1) * order.count / 4)])
                guard let first = part.first, let last = part.last else { continue }
                let decision = restricted(toSeedsAt: part.sorted()).recommendation(objective)
                quarters.append(Sensitivity.Quarter(path: entry.path, values: draws[first][index]...draws[last][index],
                                                    seeds: part.count, choice: decision.choice, confident: decision.confident))
            }
        }
        let tested = entries.prefix(Sensitivity.testedNumbers).map { "`\(Self.shortPath($0.path))`" }
        let line: String
        func quarterText(_ quarter: Sensitivity.Quarter) -> String {
            let plausible = entries.first { $0.path == quarter.path }!.plausible
            return "with \(Self.shortPath(quarter.path)) drawn in \(Format.significant(quarter.values.lowerBound))–"
                + "\(Format.significant(quarter.values.upperBound)) (\(quarter.seeds) seeds; plausible "
                + "\(Format.significant(plausible.lowerBound))–\(Format.significant(plausible.upperBound))) the recommendation is "
                + "\(quarter.choice.map { names[$0] } ?? "none"), not \(chosen.map { names[$0] } ?? "none")"
        }
        if let flip = quarters.first(where: { $0.choice != chosen && $0.confident && $0.choice != nil }) {
            line = "Depends on the model: " + quarterText(flip)
        } else if let lean = quarters.first(where: { $0.choice != chosen }) {
            line = "Unsettled: " + quarterText(lean) + ", though not confidently; more seeds would tell whether the decision depends on it"
        } else {
            line = "Robust: the recommendation (\(chosen.map { names[$0] } ?? "none")) holds across the plausible model — the same in every "
                + "quarter of the seeds ordered by each of the \(tested.count) numbers it is most sensitive to (\(tested.joined(separator: ", ")))"
        }
        return Sensitivity(entries: entries, quarters: quarters, choice: chosen, line: line)
    }

    /// `system.heuristic.refreshBasePerDay` → `heuristic.refreshBasePerDay`.
    static func shortPath(_ path: String) -> String {
        path.hasPrefix("system.") ? String(path.dropFirst("system.".count)) : path
    }

    /// Spearman's rank correlation (ties at their mean rank); 0 with fewer than 3 pairs or no spread.
    static func spearman(_ x: [Double], _ y: [Double]) -> Double {
        guard x.count == y.count, x.count >= 3 else { return 0 }
        func ranks(_ values: [Double]) -> [Double] {
            let order = values.indices.sorted { (values[$0], $0) < (values[$1], $1) }
            var result = [Double](repeating: 0, count: values.count)
            var start = 0
            while start < order.count {
                var end = start
                while end + 1 < order.count && values[order[end + 1]] == values[order[start]] { end += 1 }
                for position in start...end { result[order[position]] = Double(start + end) / 2 + 1 }
                start = end + 1
            }
            return result
        }
        let rx = ranks(x), ry = ranks(y)
        let mx = rx.reduce(0, +) / Double(rx.count), my = ry.reduce(0, +) / Double(ry.count)
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for (a, b) in zip(rx, ry) {
            sxy += (a - mx) * (b - my)
            sxx += (a - mx) * (a - mx)
            syy += (b - my) * (b - my)
        }
        return sxx > 0 && syy > 0 ? sxy / (sxx * syy).squareRoot() : 0
    }
}
