/// Sample quantiles: the one way every experiment reads a quantile off a sample.
package enum Quantile {
    /// The `q` quantile of `sorted` (ascending), interpolating linearly between order
    /// statistics (Hyndman and Fan's definition 7, R's and NumPy's default): position
    /// q · (n − 1); `nil` when empty.
    ///
    /// - Precondition: `sorted` is in ascending order and 0 ≤ q ≤ 1.
    package static func interpolated(_ sorted: [Double], _ q: Double) -> Double? {
        precondition(q >= 0 && q <= 1, "Quantile: q must be in [0, 1], got \(q)")
        guard !sorted.isEmpty else { return nil }
        assert(zip(sorted, sorted.dropFirst()).allSatisfy { $0 <= $1 }, "Quantile: the sample is not sorted")
        let position = q * Double(sorted.count - 1)
        let low = Int(position)
        let high = Swift.min(low + 1, sorted.count - 1)
        return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
    }
}
