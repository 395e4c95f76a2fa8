import BackgroundSim

/// Which of the iOS model's uncertain numbers a decision hangs on — a comparison's, a sweep's or
/// a tuning's recommendation — from runs that drew them per seed (`--model-uncertainty`,
/// ``ModelUncertainty``).
///
/// Each number's **sensitivity** is its largest Spearman rank correlation, in absolute value,
/// over the seeds, with a figure the decision reads: the objective's paired difference between
/// the recommended arm and the best other one (by mean), and each bound's metric on the
/// recommended arm.
/// Rank correlations over a Monte Carlo design are a standard global screening measure (Saltelli
/// et al., *Global Sensitivity Analysis: The Primer*, Wiley 2008, ch. 1; Helton & Davis 2003,
/// *Reliability Engineering & System Safety* 81(1):23–69); a number with no effect correlates
/// only by chance (|ρ| ≲ 2/√n).
///
/// The decision is then tested where it is most likely to move. For each of the three most
/// sensitive numbers, the seeds are split into quarters by the value drawn, and the
/// recommendation is made again on each quarter alone (``Recommendation``'s test, over the
/// arms the decision was among). A comparison also searches each of them for its break-even
/// points, the values inside its plausible range at which the recommendation changes
/// (``BreakEven``). The decision **depends on the model** when a break-even point makes another
/// arm the confident recommendation, or a quarter confidently recommends another arm (each
/// named, with its values). It is **robust** only when no number has a break-even point and every
/// quarter recommends the same arm as all the seeds, with confidence. Otherwise it is
/// **unsettled**: the recommendation changes somewhere, or a quarter leans elsewhere or holds
/// without confidence, and more seeds would tell. A sweep, a tuning or a what-if does not search
/// for break-even points, so the most it says is that the recommendation **holds in every
/// quarter**, confidently, and that the ranges were not searched: never "robust".
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
    /// The break-even points searched, for a comparison (``BreakEven``); empty otherwise.
    public var breakEvens: [BreakEven] = []
    /// The arm with the least maximum regret over the break-even search's comparisons
    /// (``RobustChoice``); `nil` without a search.
    public var robustChoice: RobustChoice?
    /// What the analysis concludes.
    public var verdict: Verdict
    /// What the verdict rests on: the numbers, values and arms.
    public var detail: String
    /// The verdict and its detail, as printed: "Robust: the recommendation (B) holds …".
    public var line: String { verdict.rawValue + ": " + detail }

    /// What a sensitivity analysis can conclude about a recommendation, as the reports word it.
    public enum Verdict: String, Sendable, CaseIterable {
        /// No break-even point in any range searched, and every quarter recommends the same arm
        /// with confidence.
        case robust = "Robust"
        /// A break-even point or a quarter makes another arm the confident recommendation.
        case dependsOnTheModel = "Depends on the model"
        /// The recommendation changes somewhere without confidence, or a quarter leans elsewhere
        /// or holds without confidence: more seeds would tell.
        case unsettled = "Unsettled"
        /// Every quarter recommends the same arm with confidence, but no break-even point was
        /// searched (a sweep, a tuning, a what-if).
        case holdsInEveryQuarter = "Holds in every quarter"
        /// One scenario: no decision to test, only what its figure follows.
        case oneScenario = "One scenario, so no decision to test"
    }

    /// Numbers tested quarter by quarter.
    public static let testedNumbers = 3
    /// Numbers listed in the reports.
    public static let listed = 8
}
