import SimKernel

/// Student's t distribution, in portable arithmetic: its distribution function and quantile,
/// the one place both are computed (confidence intervals, paired tests, TOST, tuning's sizes).
package enum StudentT {
    /// t₀.₉₇₅: the value t with P(|T| ≤ t) = 0.95, for the 95 % intervals.
    package static func quantile975(degreesOfFreedom df: Int) -> Double {
        precondition(df >= 1, "StudentT: degrees of freedom must be at least 1")
        return quantile(0.975, degreesOfFreedom: Double(df))
    }

    /// P(T ≤ t) for Student's t with `degreesOfFreedom` degrees of freedom (which may be
    /// fractional, as Welch's are).
    ///
    /// Through the regularised incomplete beta function: P(|T| > |t|) = I_x(ν/2, 1/2) with
    /// x = ν / (ν + t²) (Abramowitz & Stegun 26.7.1 and 26.5.27), evaluated by Lentz's continued
    /// fraction (Press et al., *Numerical Recipes*, 3rd ed., §6.4). Only portable arithmetic is
    /// used (``PortableMath``), so a p-value is the same on every machine. Accurate to about
    /// 1e-10 in the tail probabilities that decide verdicts.
    package static func cdf(_ t: Double, degreesOfFreedom df: Double) -> Double {
        precondition(df > 0, "StudentT: degrees of freedom must be positive")
        if t.isNaN { return .nan }
        if t == .infinity { return 1 }
        if t == -.infinity { return 0 }
        let x = df / (df + t * t)
        let twoSidedTail = IncompleteBeta.regularized(x, df / 2, 0.5)
        return t > 0 ? 1 - twoSidedTail / 2 : twoSidedTail / 2
    }

    /// The two-sided p-value of a t statistic: P(|T| ≥ |t|), for the paired t-test of a
    /// comparison's verdicts and Welch's and the bootstrap's tests in calibration.
    package static func twoSidedPValue(_ t: Double, degreesOfFreedom df: Double) -> Double {
        Swift.min(1, 2 * cdf(-abs(t), degreesOfFreedom: df))
    }

    /// The value t with P(T ≤ t) = `p`, for 0 < p < 1: by bisection on ``cdf(_:degreesOfFreedom:)``
    /// to a relative precision of 1e-12 (deterministic: a fixed number of halvings).
    package static func quantile(_ p: Double, degreesOfFreedom df: Double) -> Double {
        precondition(p > 0 && p < 1, "StudentT: the probability must be in (0, 1)")
        if p == 0.5 { return 0 }
        if p < 0.5 { return -quantile(1 - p, degreesOfFreedom: df) }
        var low = 0.0, high = 1.0
        while cdf(high, degreesOfFreedom: df) < p { high *= 2 }
        for _ in 0..<200 where high - low > 1e-12 * high {
            let middle = (low + high) / 2
            if cdf(middle, degreesOfFreedom: df) < p { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}
