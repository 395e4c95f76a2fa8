import BackgroundSim

/// How many seeds an inconclusive verdict would need, said truthfully.
///
/// If the paired differences keep their mean d̄ and standard deviation s, a claim is decided
/// once the interval clears what separates it: zero for a real difference (a gap of |d̄|), the
/// margin for equivalence (m − |d̄|) or for a difference beyond it (|d̄| − m). The nearest claim
/// has the widest gap g. The usual sample-size formula for a paired t-test, n = ((z₀.₉₇₅ +
/// z₀.₈₀) · s / g)², gives it an 80 % chance; the claims also step back by the skewness
/// allowance, at the 5 % level δ(n) = K / √n standard errors (``SkewnessAllowance``,
/// K = γ (2z₀.₉₅² + 1) / 6 = 3.21), so n solves g = (z₀.₉₇₅ + z₀.₈₀) s / √n + K s / n: with u = 1/√n,
/// u = (√(b² + 4ag) − b) / (2a), a = K s, b = (z₀.₉₇₅ + z₀.₈₀) s (before the correction for
/// multiple claims, so a lower bound). Above ``affordable`` seeds no run is worth it, and the verdict says
/// so rather than "more seeds would decide".
enum SeedsToDecide {
    /// z₀.₉₇₅ + z₀.₈₀: a two-sided 5 % test with 80 % power.
    static let z = 1.959_963_984_540_054 + 0.841_621_233_572_914_3
    /// K: the skewness allowance at the 5 % level times √n, in standard errors
    /// (``SkewnessAllowance/shift(count:level:)``).
    static let allowancePerSeed = SkewnessAllowance.perRootCount(level: 0.05)

    /// More seeds than this are not a run anyone makes: 10,000 [Inf] (the comparison's
    /// `--max-seeds` is 640 by default).
    static let affordable = 10_000.0

    /// The seeds the nearest claim needs; `nil` when no number would do (no spread, or the mean
    /// sits exactly on zero and on the margin).
    static func needed(_ difference: SampleSummary, margin: Double) -> Double? {
        let size = abs(difference.mean)
        let gap = Swift.max(size, abs(margin - size))
        guard difference.standardDeviation > 0, gap > 0 else { return nil }
        let a = allowancePerSeed * difference.standardDeviation, b = z * difference.standardDeviation
        let u = ((b * b + 4 * a * gap).squareRoot() - b) / (2 * a)
        return (1 / (u * u)).rounded(.up)
    }

    /// Why the verdict is inconclusive, and what would decide it: "about 80 seeds would decide
    /// (here 20; margin ±1 min)".
    static func reason(_ difference: SampleSummary, margin: Double, seeds: Int, marginText text: String) -> String {
        guard difference.count >= 2 else { return "one seed shows no spread; more seeds would decide (margin \(text))" }
        guard let needed = needed(difference, margin: margin) else { return "more seeds would decide (margin \(text))" }
        if needed > affordable {
            return "no affordable number of seeds would decide: about \(Format.significant(needed)) would (here \(seeds); margin \(text))"
        }
        if needed <= Double(seeds) {
            // The formula is a lower bound: it leaves out Holm's correction, which asks more of
            // each claim the more claims there are.
            return "the sample-size formula gives \(Format.significant(needed)) seeds an 80 % chance before the correction for "
                + "the comparison's many claims, and these \(seeds) fell short: more seeds would decide (margin \(text))"
        }
        return "about \(Format.significant(needed)) seeds would decide (here \(seeds); margin \(text))"
    }
}
