import SimKernel

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
