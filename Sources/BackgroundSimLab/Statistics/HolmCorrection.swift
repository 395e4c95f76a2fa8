/// Holm's step-down correction for testing several hypotheses at once.
///
/// With m p-values sorted ascending, p₍₁₎ ≤ … ≤ p₍ₘ₎, the adjusted value of the j-th is
/// max over i ≤ j of min(1, (m − i + 1) · p₍ᵢ₎). Rejecting every hypothesis whose adjusted value
/// is below α keeps the chance of rejecting any true one at most α, whatever the dependence
/// between the tests (Holm, S. (1979), "A simple sequentially rejective multiple test
/// procedure", *Scandinavian Journal of Statistics* 6(2):65–70). It is uniformly more powerful
/// than Bonferroni's min(1, m · p).
package enum HolmCorrection {
    /// The adjusted p-values, in the order given. Ties are broken by position, so the result
    /// does not depend on how a sort orders equal values.
    ///
    /// - Precondition: every p-value is in [0, 1].
    package static func adjusted(_ pValues: [Double]) -> [Double] {
        precondition(pValues.allSatisfy { (0...1).contains($0) }, "HolmCorrection: p-values must be in [0, 1]")
        let m = pValues.count
        let order = pValues.indices.sorted { (pValues[$0], $0) < (pValues[$1], $1) }
        var adjusted = [Double](repeating: 1, count: m)
        var running = 0.0
        for (rank, index) in order.enumerated() {
            running = Swift.max(running, Swift.min(1, Double(m - rank) * pValues[index]))
            adjusted[index] = running
        }
        assert(zip(adjusted, pValues).allSatisfy { $0 >= $1 && $0 <= 1 }, "HolmCorrection: an adjusted p-value below its own")
        return adjusted
    }
}
