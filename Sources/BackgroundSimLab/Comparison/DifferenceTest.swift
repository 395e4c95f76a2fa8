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
/// Each test puts two p-values into the comparison's family: min(difference, equivalence) —
/// "no difference" and "at least the margin" cannot both be true (m > 0), so the smaller is a
/// valid p-value for whichever claim it makes — and beyond-the-margin; with m = 0 a real
/// difference is one beyond the margin, and the difference's p-value alone goes in. Holm's correction over
/// the family keeps the chance of any false claim in the comparison at most α. The verdict is
/// the strongest claim standing: **better/worse by at least the margin** when
/// beyond-the-margin stands; otherwise **equivalent** when the equivalence claim stands, or a
/// **real difference, perhaps smaller than the margin** when the difference claim does; otherwise
/// **inconclusive**. Verdicts move with the interval, not with which side of m the mean falls:
/// the same data judged against margins just below and just above |d̄| get the same kind of
/// verdict while the interval straddles both. (The interval the verdict shows is the plain 95 %
/// one; the claims are a little more cautious than it by the allowance.)
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

    /// Whether the margin is zero: then a real difference is one beyond the margin, and the
    /// test puts one p-value in the family, not two.
    private var marginIsZero: Bool

    /// The p-values the test puts in Holm's family: the real-or-equivalent claim's and the
    /// beyond-the-margin claim's; with a zero margin, the difference's alone.
    var familyPValues: [Double] {
        marginIsZero ? [differencePValue] : [Swift.min(differencePValue, equivalencePValue), beyondMarginPValue]
    }

    init(_ difference: SampleSummary, margin: Double, applies: Bool) {
        let mean = difference.mean
        judgement = applies ? .inconclusive : .notApplicable
        differencePValue = 1
        beyondMarginPValue = 1
        equivalencePValue = 1
        isInFamily = applies && difference.count > 0
        meanIsNegative = mean < 0
        marginIsZero = margin == 0
        guard isInFamily else { return }
        if difference.standardDeviation == 0 {
            if mean == 0 {
                // Identical on every seed.
                equivalencePValue = 0
            } else if difference.count >= 2 {
                // The same difference on every seed: no noise, so certain either way.
                differencePValue = 0
                beyondMarginPValue = abs(mean) > margin ? 0 : 1
                equivalencePValue = abs(mean) < margin ? 0 : 1
            }
            // One seed with a difference: nothing is known about its noise; all stay 1.
            return
        }
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
    }

    /// Whether the mean difference is below zero.
    private var meanIsNegative: Bool

    /// Sets the judgement from the Holm-adjusted p-values of the test's claims in the family, in
    /// the order of ``familyPValues``.
    mutating func decide(adjusted: ArraySlice<Double>, alpha: Double, better: ComparedMetric.Better) {
        let realOrEquivalent = adjusted[adjusted.startIndex]
        let beyondMargin = marginIsZero ? realOrEquivalent : adjusted[adjusted.startIndex + 1]
        let side: (beyond: Comparison.Judgement, real: Comparison.Judgement) = switch (better, meanIsNegative) {
        case (.lower, true), (.higher, false): (.better, .perhapsBetter)
        case (.lower, false), (.higher, true): (.worse, .perhapsWorse)
        case (.neither, _): (.different, .perhapsDifferent)
        }
        if beyondMargin < alpha {
            adjustedPValue = beyondMargin
            judgement = side.beyond
        } else if realOrEquivalent < alpha {
            adjustedPValue = realOrEquivalent
            judgement = equivalencePValue <= differencePValue ? .equivalent : side.real
        } else {
            adjustedPValue = Swift.min(realOrEquivalent, beyondMargin)
            judgement = .inconclusive
        }
    }
}
