/// The two one-sided tests of equivalence (TOST; Schuirmann, D. J. (1987), "A comparison of the
/// two one-sided tests procedure and the power approach for assessing the equivalence of average
/// bioavailability", *Journal of Pharmacokinetics and Biopharmaceutics* 15(6):657–680).
package enum TOST {
    /// The p-value for "the true mean difference is at least `margin` away from zero", from a
    /// mean difference of `count` paired values, its standard error and degrees of freedom
    /// (Student's t), each one-sided statistic stepped back toward its null by the skewness
    /// allowance δ(n, α) at the level α in question (``SkewnessAllowance``): the larger of the
    /// two one-sided p-values, for P(T > (d̄ + m) / se − δ) and P(T < (d̄ − m) / se + δ). Small
    /// when the difference is shown to lie within ±margin.
    ///
    /// - Precondition: `standardError` > 0 and `margin` ≥ 0.
    package static func pValue(mean: Double, standardError: Double, degreesOfFreedom df: Double, margin: Double, count: Int) -> Double {
        precondition(standardError > 0 && margin >= 0, "TOST: a positive standard error and a margin of at least 0")
        func upperTail(_ statistic: Double) -> Double {
            SkewnessAllowance.pValue { SkewnessAllowance.upperTail(statistic, count: count, degreesOfFreedom: df, level: $0) }
        }
        return Swift.max(upperTail((mean + margin) / standardError), upperTail(-(mean - margin) / standardError))
    }
}
