import SimKernel

/// The tests behind one verdict: is a paired difference zero, and is it within the margin?
///
/// From the paired differences d₁ … dₙ (candidate − baseline, seed by seed), with mean d̄ and
/// standard error s/√n, and the metric's margin m:
/// - the **difference** p-value is the paired t-test's, two-sided: 2 · P(T > |d̄| / se), n − 1
///   degrees of freedom;
/// - the **equivalence** p-value is the two one-sided tests' (TOST; Schuirmann, D. J. (1987),
///   "A comparison of the two one-sided tests procedure and the power approach for assessing
///   the equivalence of average bioavailability", *Journal of Pharmacokinetics and
///   Biopharmaceutics* 15(6):657–680): max(P(T > (d̄ + m) / se), P(T < (d̄ − m) / se)).
///
/// Each verdict makes one claim: "within the margin" when |d̄| < m, judged by the equivalence
/// p-value, otherwise "a difference of at least the margin's size", judged by the difference
/// p-value. At most one of the two null hypotheses (the difference is zero; it is at least the
/// margin) can be true, so the claim's p-value is a valid p-value for the null that would make
/// it false, and Holm's correction over all claims keeps the chance of any false claim at most
/// α. Verdicts that fall short are "inconclusive".
public struct DifferenceTest: Sendable, Equatable {
    /// The paired t-test's two-sided p-value for "no difference"; 1 where untestable.
    public var differencePValue: Double
    /// The TOST p-value for "the difference is at least the margin"; 1 where untestable.
    public var equivalencePValue: Double
    /// Whether the claim is equivalence (|d̄| < margin) rather than a difference.
    public var claimsEquivalence: Bool
    /// The claim's p-value after Holm's correction across the comparison; 1 until decided.
    public var adjustedPValue: Double = 1
    public var judgement: Comparison.Judgement

    /// Whether the test enters Holm's family: the metric applies on both sides and there are
    /// at least two pairs, or a difference that is the same on every seed.
    var isInFamily: Bool

    /// The p-value of the claim this test would make.
    var claimPValue: Double { claimsEquivalence ? equivalencePValue : differencePValue }

    init(_ difference: SampleSummary, margin: Double, applies: Bool) {
        let mean = difference.mean
        claimsEquivalence = abs(mean) < margin || mean == 0 && difference.standardDeviation == 0
        judgement = applies ? .inconclusive : .notApplicable
        differencePValue = 1
        equivalencePValue = 1
        isInFamily = applies && difference.count > 0
        meanIsNegative = mean < 0
        guard isInFamily else { return }
        if difference.standardDeviation == 0 {
            if mean == 0 {
                // Identical on every seed.
                equivalencePValue = 0
            } else if difference.count >= 2 {
                // The same difference on every seed: no noise, so certain either way.
                differencePValue = 0
                equivalencePValue = claimsEquivalence ? 0 : 1
            }
            // One seed with a difference: nothing is known about its noise; both stay 1.
            return
        }
        let n = Double(difference.count)
        let standardError = difference.standardDeviation / n.squareRoot()
        let df = n - 1
        differencePValue = StudentT.twoSidedPValue(mean / standardError, degreesOfFreedom: df)
        equivalencePValue = TOST.pValue(mean: mean, standardError: standardError, degreesOfFreedom: df, margin: margin)
    }

    /// Whether the mean difference is below zero.
    private var meanIsNegative: Bool

    /// Sets the judgement from the Holm-adjusted p-value.
    mutating func decide(adjustedPValue: Double, alpha: Double, better: ComparedMetric.Better) {
        self.adjustedPValue = adjustedPValue
        guard adjustedPValue < alpha else { judgement = .inconclusive; return }
        if claimsEquivalence { judgement = .equivalent; return }
        switch (better, meanIsNegative) {
        case (.lower, true), (.higher, false): judgement = .better
        case (.lower, false), (.higher, true): judgement = .worse
        case (.neither, _): judgement = .different
        }
    }
}
