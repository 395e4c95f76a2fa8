import SimKernel

/// Student's t distribution: the two-sided 95 % critical value.
package enum StudentT {
    /// t₀.₉₇₅ for 1 … 30 degrees of freedom (standard tables, to 6 decimals).
    static let table: [Double] = [
        12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
        2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
        2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272,
    ]

    /// The value t such that P(|T| ≤ t) = 0.95 with `degreesOfFreedom` degrees of freedom.
    ///
    /// Exact (to 6 decimals) up to 30; beyond, the Cornish–Fisher expansion around the normal
    /// quantile 1.959964, accurate to about 1e-5 there.
    package static func quantile975(degreesOfFreedom df: Int) -> Double {
        precondition(df >= 1, "StudentT: degrees of freedom must be at least 1")
        if df <= table.count { return table[df - 1] }
        let z = 1.959_963_984_540_054
        let n = Double(df)
        let z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z
        return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n)
            + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * n * n * n)
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

/// The regularised incomplete beta function I_x(a, b), in portable arithmetic.
enum IncompleteBeta {
    /// I_x(a, b) for a, b > 0 and 0 ≤ x ≤ 1 (*Numerical Recipes*, 3rd ed., §6.4: the continued
    /// fraction where it converges fast, the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) elsewhere).
    static func regularized(_ x: Double, _ a: Double, _ b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let front = PortableMath.exp(logGamma(a + b) - logGamma(a) - logGamma(b)
                                     + a * PortableMath.log(x) + b * PortableMath.log(1 - x))
        if x < (a + 1) / (a + b + 2) { return front * continuedFraction(x, a, b) / a }
        return 1 - front * continuedFraction(1 - x, b, a) / b
    }

    /// The continued fraction for I_x(a, b) by the modified Lentz method.
    static func continuedFraction(_ x: Double, _ a: Double, _ b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        for m in 1...10_000 {
            let m = Double(m)
            let even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 + even * d; if abs(d) < tiny { d = tiny }
            c = 1 + even / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            let odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 + odd * d; if abs(d) < tiny { d = tiny }
            c = 1 + odd / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            let step = d * c
            h *= step
            if abs(step - 1) < 1e-15 { break }
        }
        return h
    }

    /// ln Γ(x) for x > 0: Lanczos' approximation with g = 7 and nine coefficients (Godfrey's),
    /// relative error about 1e-15, after the reflection-free shift x → x + 1 below ½.
    static func logGamma(_ x: Double) -> Double {
        if x < 0.5 { return logGamma(x + 1) - PortableMath.log(x) }
        let coefficients = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
                            -176.61502916214059, 12.507343278686905, -0.13857109526572012,
                            9.9843695780195716e-6, 1.5056327351493116e-7]
        let z = x - 1
        var sum = coefficients[0]
        for index in 1..<coefficients.count { sum += coefficients[index] / (z + Double(index)) }
        let t = z + 7.5
        // ln √(2π) = 0.91893853320467274178.
        return 0.918_938_533_204_672_741_78 + (z + 0.5) * PortableMath.log(t) - t + PortableMath.log(sum)
    }
}
