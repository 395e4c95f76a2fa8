import BackgroundSim
import SimKernel

/// The tests behind one verdict: is a paired difference real, beyond the margin, or within it?
///
/// From the paired differences d₁ … dₙ (candidate − baseline, seed by seed), with mean d̄,
/// standard error se = s/√n and n − 1 degrees of freedom, the metric's margin m, and the
/// skewness allowance δ(n, α) = ``SkewnessAllowance/shift(count:level:)`` (1.01 at n = 10 and
/// α = 0.05, 0.32 at n = 100) by which every one-sided statistic steps toward its null before
/// its tail is read at level α, so that skewed metrics keep the error rates at or below 5 %
/// from 10 seeds (``SkewnessAllowance``). Each p-value is the smallest α at which its claim
/// would be made (``SkewnessAllowance/pValue(tail:)``), for the tail probability:
/// - the **difference** p-value, for "the difference is zero": the paired t-test's, two-sided,
///   2 · P(T > |d̄| / se − δ(n, α/2));
/// - the **beyond-the-margin** p-value, for "the difference is at most the margin either way"
///   (|d| ≤ m): P(T > (|d̄| − m) / se − δ) + P(T > (|d̄| + m) / se − δ), its largest value
///   under that null (at d = ±m), and the difference's when m = 0;
/// - the **equivalence** p-value, for "the difference is at least the margin" (|d| ≥ m): the two
///   one-sided tests' (TOST; Schuirmann, D. J. (1987), "A comparison of the two one-sided tests
///   procedure and the power approach for assessing the equivalence of average
///   bioavailability", *Journal of Pharmacokinetics and Biopharmaceutics* 15(6):657–680),
///   max(P(T > (d̄ + m) / se − δ), P(T < (d̄ − m) / se + δ)).
///
/// Each claim is its own p-value in the comparison's family — the difference's, the
/// equivalence's and beyond-the-margin's; with m = 0 a real difference is one beyond the margin,
/// and the difference's p-value alone goes in. Holm's correction over the family keeps the
/// chance of any false claim in the comparison at most α. The verdict is the strongest claim
/// standing: **better/worse by at least the margin** when beyond-the-margin stands; otherwise
/// **equivalent** when the equivalence claim stands — also when the difference is real, for a
/// difference inside the margin is both; otherwise a **real difference, perhaps smaller than the
/// margin** when the difference claim stands; otherwise **inconclusive**. Verdicts move with the
/// interval, not with which side of m the mean falls: the same data judged against margins just
/// below and just above |d̄| get the same kind of verdict while the interval straddles both. (The
/// interval the verdict shows is the plain 95 % one; the claims are a little more cautious than
/// it by the allowance.)
///
/// Differences that are zero on most seeds — a metric most users do not move, such as work
/// completed when a rare fault loses an item — defeat the t statistics: the zeros understate the
/// spread, and ten seeds with one small difference look "equivalent" to a metric that moves by
/// many margins on the users it moves at all. So when at least half the seeds show no difference
/// at all and fewer than ``fewestDifferingForSpread`` differ, the equivalence claim also needs
/// what the count of seeds that differ shows: were the
/// true mean difference at least m, with no seed's difference larger than R
/// (``largestPerSeedDifference(unit:values:)``), at least a share m/R of users would differ,
/// and k or fewer of n seeds would differ with chance at most P(Binomial(n, m/R) ≤ k). The
/// equivalence p-value is then the larger of the two (an intersection–union test; Berger, R. L.
/// (1982), "Multiparameter hypothesis testing and acceptance sampling", *Technometrics*
/// 24(4):295–300) [Inf]. With no difference on any seed (k = 0) it is (1 − m/R)ⁿ, and no other
/// claim is made (the "rule of three" bounds the same share by 3/n at 95 %; Hanley, J. A. and
/// Lippman-Hand, A. (1983), "If nothing goes wrong, is everything all right?", *JAMA*
/// 249(13):1743–1745).
public struct DifferenceTest: Sendable, Equatable {
    /// The paired t-test's two-sided p-value for "no difference", with the skewness allowance;
    /// 1 where untestable.
    public var differencePValue: Double
    /// The p-value for "the difference is at most the margin"; 1 where untestable.
    public var beyondMarginPValue: Double
    /// The TOST p-value for "the difference is at least the margin", with the skewness
    /// allowance; 1 where untestable.
    public var equivalencePValue: Double
    /// The Holm-adjusted p-value of the claim the verdict makes (or of the nearest one to
    /// standing, when inconclusive); 1 until decided.
    public var adjustedPValue: Double = 1
    public var judgement: Comparison.Judgement

    /// Whether the test enters Holm's family: the metric applies on both sides and there are
    /// at least two pairs, or a difference that is the same on every seed.
    var isInFamily: Bool

    /// The fewest seeds that differ whose spread the equivalence test trusts when most seeds
    /// show no difference: 10, the fewest seeds the skewness allowance is calibrated for
    /// (``SkewnessAllowance``) [Inf].
    static let fewestDifferingForSpread = 10

    /// A claim a test can make; each has its own p-value in Holm's family.
    enum Claim: Sendable, Hashable {
        case difference, equivalence, beyondMargin
    }

    /// The claims the test puts in Holm's family, in the order of ``familyPValues``.
    private(set) var claims: [Claim] = []

    /// A difference of zero on every seed: how many, and the largest difference a seed could
    /// have shown (the R of the rule above).
    public struct ZeroOnEverySeed: Sendable, Equatable {
        public var largestPerSeedDifference: Double
        public var seeds: Int
    }

    /// Set when the difference was zero on every seed.
    public private(set) var zeroOnEverySeed: ZeroOnEverySeed?

    /// The p-values the test puts in Holm's family, one per claim of ``claims``.
    var familyPValues: [Double] {
        claims.map { claim in
            switch claim {
            case .difference: differencePValue
            case .equivalence: equivalencePValue
            case .beyondMargin: beyondMarginPValue
            }
        }
    }

    /// - Parameters:
    ///   - difference: The paired differences' summary.
    ///   - margin: The metric's margin, in its difference unit (≥ 0).
    ///   - applies: Whether the metric has values on both sides.
    ///   - largestPerSeedDifference: The largest difference a seed could have shown
    ///     (``largestPerSeedDifference(unit:values:)``), for differences mostly zero.
    ///   - zeroDifferences: How many of the seeds show no difference at all.
    init(_ difference: SampleSummary, margin: Double, applies: Bool, largestPerSeedDifference: Double = .infinity,
         zeroDifferences: Int = 0) {
        let mean = difference.mean
        judgement = applies ? .inconclusive : .notApplicable
        differencePValue = 1
        beyondMarginPValue = 1
        equivalencePValue = 1
        isInFamily = applies && difference.count > 0
        meanIsNegative = mean < 0
        let allClaims: [Claim] = margin == 0 ? [.difference] : [.difference, .equivalence, .beyondMargin]
        guard isInFamily else { return }
        if difference.standardDeviation == 0 {
            if mean == 0 {
                // Zero on every seed: equivalent only if the seeds could have shown a difference.
                zeroOnEverySeed = ZeroOnEverySeed(largestPerSeedDifference: largestPerSeedDifference, seeds: difference.count)
                equivalencePValue = Self.fewDifferEquivalencePValue(margin: margin, largest: largestPerSeedDifference,
                                                                    seeds: difference.count, differing: 0)
                claims = [.equivalence]
            } else if difference.count >= 2 {
                // The same difference on every seed: no noise, so certain either way.
                differencePValue = 0
                beyondMarginPValue = abs(mean) > margin ? 0 : 1
                equivalencePValue = abs(mean) < margin ? 0 : 1
                claims = allClaims
            } else {
                // One seed with a difference: nothing is known about its noise; all stay 1.
                claims = allClaims
            }
            return
        }
        claims = allClaims
        let n = Double(difference.count)
        let standardError = difference.standardDeviation / n.squareRoot()
        let df = n - 1
        let count = difference.count
        func upperTail(_ statistic: Double, _ level: Double) -> Double {
            SkewnessAllowance.upperTail(statistic, count: count, degreesOfFreedom: df, level: level)
        }
        differencePValue = SkewnessAllowance.pValue { 2 * upperTail(abs(mean) / standardError, $0 / 2) }
        beyondMarginPValue = SkewnessAllowance.pValue {
            upperTail((abs(mean) - margin) / standardError, $0) + upperTail((abs(mean) + margin) / standardError, $0)
        }
        equivalencePValue = TOST.pValue(mean: mean, standardError: standardError, degreesOfFreedom: df, margin: margin, count: count)
        if 2 * zeroDifferences >= count && count - zeroDifferences < Self.fewestDifferingForSpread {
            equivalencePValue = Swift.max(equivalencePValue, Self.fewDifferEquivalencePValue(
                margin: margin, largest: largestPerSeedDifference, seeds: count, differing: count - zeroDifferences))
        }
    }

    /// The equivalence p-value from the count of seeds that differ: P(Binomial(`seeds`, m/R) ≤
    /// `differing`), the largest chance that so few seeds differ when the true mean difference
    /// is at least the margin m and no seed's exceeds R; (1 − m/R)ⁿ with none differing; 0 when
    /// R ≤ m (no seed could differ by more than the margin), 1 when m = 0.
    static func fewDifferEquivalencePValue(margin: Double, largest: Double, seeds: Int, differing: Int) -> Double {
        guard margin > 0 else { return 1 }
        guard largest > margin else { return 0 }
        guard differing < seeds else { return 1 }
        let share = margin / largest
        if differing == 0 { return PortableMath.pow(1 - share, Double(seeds)) }
        // P(X ≤ k) = I₁₋ₚ(n − k, k + 1), the regularised incomplete beta function.
        return IncompleteBeta.regularized(1 - share, Double(seeds - differing), Double(differing + 1))
    }

    /// How many seeds, all showing no difference, would make the equivalence claim at level
    /// `alpha` before any correction: the least n with (1 − m/R)ⁿ < α (a lower bound with Holm).
    static func seedsToShowNoDifference(margin: Double, largest: Double, alpha: Double = Comparison.defaultAlpha) -> Int? {
        guard margin > 0, largest.isFinite else { return nil }
        guard largest > margin else { return 1 }
        return Int((PortableMath.log(alpha) / PortableMath.log(1 - margin / largest)).rounded(.down)) + 1
    }

    /// The largest difference one seed of a metric could plausibly show, for the rule above
    /// [Inf]: 100 points for a percentage (0–100), 1 for a fraction, 2 for a correlation; for
    /// any other unit, the span from zero to both arms' values, max(0, largest) − min(0,
    /// smallest) (a seed's difference of two values of one sign is at most the larger of them),
    /// and at least 1 for a count (a count that moves, moves by 1 or more). With every value 0
    /// and no unit bound, that is 0: the seeds then show a metric that does not move at all on
    /// these users.
    static func largestPerSeedDifference(unit: String, values: [Double]) -> Double {
        switch unit {
        case ReportUnit.percent.rawValue: return 100
        case ReportUnit.fraction.rawValue: return 1
        case ReportUnit.correlation.rawValue: return 2
        default:
            let span = Swift.max(0, values.max() ?? 0) - Swift.min(0, values.min() ?? 0)
            return unit == ReportUnit.count.rawValue ? Swift.max(1, span) : span
        }
    }

    /// Whether the mean difference is below zero.
    private var meanIsNegative: Bool

    /// Sets the judgement from the Holm-adjusted p-values of the test's claims in the family, in
    /// the order of ``claims``.
    mutating func decide(adjusted: ArraySlice<Double>, alpha: Double, better: ComparedMetric.Better) {
        let byClaim = Dictionary(uniqueKeysWithValues: zip(claims, adjusted))
        let side: (beyond: Comparison.Judgement, real: Comparison.Judgement) = switch (better, meanIsNegative) {
        case (.lower, true), (.higher, false): (.better, .perhapsBetter)
        case (.lower, false), (.higher, true): (.worse, .perhapsWorse)
        case (.neither, _): (.different, .perhapsDifferent)
        }
        // With a zero margin, a real difference is one beyond the margin.
        let beyondMargin = claims == [.difference] ? byClaim[.difference] : byClaim[.beyondMargin]
        if let beyondMargin, beyondMargin < alpha {
            adjustedPValue = beyondMargin
            judgement = side.beyond
        } else if let equivalence = byClaim[.equivalence], equivalence < alpha {
            adjustedPValue = equivalence
            judgement = .equivalent
        } else if let difference = byClaim[.difference], difference < alpha {
            adjustedPValue = difference
            judgement = side.real
        } else {
            adjustedPValue = adjusted.min() ?? 1
            judgement = .inconclusive
        }
    }
}
