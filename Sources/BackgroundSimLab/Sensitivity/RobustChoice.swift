import BackgroundSim

/// The arm to choose when the model is uncertain and no value of it is more likely than
/// another: the one with the least maximum regret over every comparison the break-even search
/// ran (``BreakEven``), the numbers set across their plausible ranges (Savage's minimax regret:
/// Savage, L. J. (1951), "The theory of statistical decision", *Journal of the American
/// Statistical Association* 46(253):55–67).
///
/// At each value probed, an arm's regret is how far its objective's mean falls behind the best
/// arm's there that meets the bounds; an arm that misses a bound there has no bounded regret. The
/// robust choice is the arm whose largest regret is least, among the arms that meet the bounds at
/// every value probed; when none does, there is none. It reads means, not the noise around them.
public struct RobustChoice: Sendable, Equatable {
    /// The arm, if one meets the bounds at every value probed.
    public var choice: Int?
    /// Its largest regret over the values probed, in the objective's unit (0: the best at every
    /// value).
    public var maximumRegret: Double?
    /// How many values probed it weighed, every number's and mode's (the plain comparison, which
    /// each number's search at the defaults starts from, counts once for each).
    public var probes: Int

    /// The choice over every probe of `breakEvens` among `arms` arms; `nil` without probes.
    public static func choose(arms: Int, breakEvens: [BreakEven]) -> RobustChoice? {
        let probes = breakEvens.flatMap(\.probes).filter { $0.costs.count == arms }
        guard !probes.isEmpty, arms > 0 else { return nil }
        var worst = [Double?](repeating: 0, count: arms)
        for probe in probes {
            let best = probe.costs.compactMap { $0 }.min()
            for arm in 0..<arms {
                guard let regret = worst[arm], let cost = probe.costs[arm], let best else {
                    worst[arm] = nil
                    continue
                }
                worst[arm] = Swift.max(regret, cost - best)
            }
        }
        let candidates = (0..<arms).compactMap { arm in worst[arm].map { (arm, $0) } }
        let best = candidates.min { ($0.1, $0.0) < ($1.1, $1.0) }
        return RobustChoice(choice: best?.0, maximumRegret: best?.1, probes: probes.count)
    }

    /// "Robust choice (least maximum regret over the 34 values the break-even search probed):
    /// coverdrop-designed, within the bounds at every value probed and at most 230 min behind the
    /// best there"; `unit` is the objective's, `recommended` the recommendation's arm.
    public func line(names: [String], unit: String, recommended: Int?) -> String {
        let head = "Robust choice (least maximum regret over the \(probes) values the break-even search probed): "
        guard let choice, let maximumRegret else {
            return head + "none: every arm misses a bound at some value probed"
        }
        let behind = maximumRegret == 0 ? "the best at every value probed"
            : "at most \(Format.significant(maximumRegret))\(unit.isEmpty ? "" : " " + unit) behind the best there"
        let same = choice == recommended ? "the recommendation too" : "not the recommendation (\(recommended.map { names[$0] } ?? "none"))"
        return head + "\(names[choice]), within the bounds at every value probed and \(behind); \(same)"
    }
}
