/// Elementary functions in portable arithmetic, so that a seed gives the same numbers everywhere.
///
/// Platform `log` and `exp` (glibc, Apple's libm) may differ in the last bit, and one differing
/// bit in a random delay can reorder events and change a whole run. These functions use only
/// IEEE-754 `+ − × ÷`, which every platform rounds identically, plus bit manipulation. Swift does
/// not contract `a * b + c` into fused multiply-adds, so the compiler cannot change them either.
///
/// They are transcriptions of fdlibm 5.3 (`e_log.c`, `e_exp.c`, Sun Microsystems, 1993), accurate
/// to within 1 ulp; tests check them against the platform's functions and pin golden values.
public enum PortableMath {
    // fdlibm constants: ln 2 split so that k * ln2High is exact for |k| < 2^11.
    @usableFromInline static let ln2High = 6.93147180369123816490e-01  // 0x3FE62E42_FEE00000
    @usableFromInline static let ln2Low = 1.90821492927058770002e-10   // 0x3DEA39EF_35793C76
    @usableFromInline static let two54 = 1.80143985094819840000e+16    // 0x43500000_00000000

    // log: polynomial for log(1+f) on [sqrt(2)/2 - 1, sqrt(2) - 1].
    @usableFromInline static let lg1 = 6.666666666666735130e-01  // 0x3FE55555_55555593
    @usableFromInline static let lg2 = 3.999999999940941908e-01  // 0x3FD99999_9997FA04
    @usableFromInline static let lg3 = 2.857142874366239149e-01  // 0x3FD24924_94229359
    @usableFromInline static let lg4 = 2.222219843214978396e-01  // 0x3FCC71C5_1D8E78AF
    @usableFromInline static let lg5 = 1.818357216161805012e-01  // 0x3FC74664_96CB03DE
    @usableFromInline static let lg6 = 1.531383769920937332e-01  // 0x3FC39A09_D078C69F
    @usableFromInline static let lg7 = 1.479819860511658591e-01  // 0x3FC2F112_DF3E5244

    // exp: Remez polynomial for the reduced argument on [-0.5 ln 2, 0.5 ln 2].
    @usableFromInline static let p1 = 1.66666666666666019037e-01   // 0x3FC55555_5555553E
    @usableFromInline static let p2 = -2.77777777770155933842e-03  // 0xBF66C16C_16BEBD93
    @usableFromInline static let p3 = 6.61375632143793436117e-05   // 0x3F11566A_AF25DE2C
    @usableFromInline static let p4 = -1.65339022054652515390e-06  // 0xBEBBBD41_C5D26BF1
    @usableFromInline static let p5 = 4.13813679705723846039e-08   // 0x3E663769_72BEA4D0
    @usableFromInline static let expOverflow = 7.09782712893383973096e+02
    @usableFromInline static let expUnderflow = -7.45133219101941108420e+02
    @usableFromInline static let inverseLn2 = 1.44269504088896338700e+00

    /// The natural logarithm of `x`.
    ///
    /// `log(0) = -∞`, `log(+∞) = +∞`, and `log` of a negative number or NaN is NaN.
    @inlinable
    public static func log(_ x: Double) -> Double {
        var x = x
        var high = Int32(truncatingIfNeeded: Int64(bitPattern: x.bitPattern) >> 32)
        let low = UInt32(truncatingIfNeeded: x.bitPattern)
        var k: Int32 = 0
        if high < 0x0010_0000 {  // x < 2^-1022: zero, negative or subnormal
            if (high & 0x7FFF_FFFF) == 0 && low == 0 { return -.infinity }
            if high < 0 { return .nan }
            k -= 54
            x *= two54
            high = Int32(truncatingIfNeeded: Int64(bitPattern: x.bitPattern) >> 32)
        }
        if high >= 0x7FF0_0000 { return x + x }  // +∞ or NaN
        k += (high >> 20) - 1023
        high &= 0x000F_FFFF
        let i = (high &+ 0x95F64) & 0x0010_0000
        // Normalize x to [sqrt(2)/2, sqrt(2)): set the exponent of x or x/2.
        let newHigh = UInt64(UInt32(bitPattern: high | (i ^ 0x3FF0_0000)))
        x = Double(bitPattern: newHigh << 32 | (x.bitPattern & 0xFFFF_FFFF))
        k += i >> 20
        let f = x - 1.0
        let dk = Double(k)
        if (0x000F_FFFF & (2 &+ high)) < 3 {  // |f| < 2^-20
            if f == 0 {
                return k == 0 ? 0 : dk * ln2High + dk * ln2Low
            }
            let r = f * f * (0.5 - 0.33333333333333333 * f)
            return k == 0 ? f - r : dk * ln2High - ((r - dk * ln2Low) - f)
        }
        let s = f / (2.0 + f)
        let z = s * s
        var iBits = high &- 0x6147A
        let w = z * z
        let j = 0x6B851 &- high
        let t1 = w * (lg2 + w * (lg4 + w * lg6))
        let t2 = z * (lg1 + w * (lg3 + w * (lg5 + w * lg7)))
        iBits |= j
        let r = t2 + t1
        if iBits > 0 {
            let hfsq = 0.5 * f * f
            if k == 0 { return f - (hfsq - s * (hfsq + r)) }
            return dk * ln2High - ((hfsq - (s * (hfsq + r) + dk * ln2Low)) - f)
        }
        if k == 0 { return f - s * (f - r) }
        return dk * ln2High - ((s * (f - r) - dk * ln2Low) - f)
    }

    /// e raised to the power `x`.
    ///
    /// Overflows to +∞ above about 709.78 and underflows to 0 below about −745.13.
    @inlinable
    public static func exp(_ x: Double) -> Double {
        let highMagnitude = UInt32(truncatingIfNeeded: x.bitPattern >> 32) & 0x7FFF_FFFF
        let negative = x.sign == .minus
        if highMagnitude >= 0x4086_2E42 {  // |x| >= 709.78 or not finite
            if highMagnitude >= 0x7FF0_0000 {
                return x.isNaN ? x : (negative ? 0 : x)
            }
            if x > expOverflow { return .infinity }
            if x < expUnderflow { return 0 }
        }
        var high = 0.0
        var low = 0.0
        var k = 0
        var r = x
        if highMagnitude > 0x3FD6_2E42 {  // |x| > 0.5 ln 2: reduce to r = x - k ln 2
            if highMagnitude < 0x3FF0_A2B2 {  // and |x| < 1.5 ln 2
                k = negative ? -1 : 1
            } else {
                k = Int(inverseLn2 * x + (negative ? -0.5 : 0.5))
            }
            let dk = Double(k)
            high = x - dk * ln2High
            low = dk * ln2Low
            r = high - low
        } else if highMagnitude < 0x3E30_0000 {  // |x| < 2^-28
            return 1.0 + x
        }
        let t = r * r
        let c = r - t * (p1 + t * (p2 + t * (p3 + t * (p4 + t * p5))))
        if k == 0 { return 1.0 - ((r * c) / (c - 2.0) - r) }
        let y = 1.0 - ((low - (r * c) / (2.0 - c)) - high)
        return scaleByPowerOfTwo(y, k)
    }

    /// `x` raised to the power `y`, for `x > 0`, computed as `exp(y * log(x))`.
    ///
    /// Less accurate than a dedicated `pow` when `y * log(x)` is large (the error grows with it:
    /// a few ulps for results near 1, up to about `|y log x| × 2⁻⁵³` relative in general), and
    /// portable, which is what the distributions need.
    ///
    /// - Precondition: `x > 0`.
    @inlinable
    public static func pow(_ x: Double, _ y: Double) -> Double {
        precondition(x > 0, "PortableMath.pow: the base must be positive, got \(x)")
        if y == 0 || x == 1 { return 1 }
        return exp(y * log(x))
    }

    /// `y × 2^k`, exact whenever the result is normal.
    @inlinable
    static func scaleByPowerOfTwo(_ y: Double, _ k: Int) -> Double {
        if k >= -1021 {
            if k > 1023 {
                // Only reachable when y < 1 and k = 1024 near the overflow threshold.
                return y * 2.0 * Double(bitPattern: UInt64(1023 + 1023) << 52)
            }
            return y * Double(bitPattern: UInt64(1023 + k) << 52)
        }
        // Subnormal result: scale in two steps so the intermediate stays normal.
        return y * Double(bitPattern: UInt64(1023 + k + 1000) << 52) * 0x1p-1000
    }
}
