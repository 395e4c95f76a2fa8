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

    /// The same quantile of `values` in any order, found by selection (linear time on average)
    /// rather than a sort; `values` is left rearranged. Exactly the value
    /// ``interpolated(_:_:)`` gives for the sorted values.
    package static func interpolated(selectingFrom values: inout [Double], _ q: Double) -> Double? {
        precondition(q >= 0 && q <= 1, "Quantile: q must be in [0, 1], got \(q)")
        guard !values.isEmpty else { return nil }
        let position = q * Double(values.count - 1)
        let low = Int(position)
        let lower = select(low, in: &values)
        // After the selection every value past `low` is at least `lower`: the next in order is their least.
        let upper = low + 1 < values.count ? values[(low + 1)...].min()! : lower
        return lower + (upper - lower) * (position - Double(low))
    }

    /// The value of rank `rank` (0 for the least) among `values`, rearranging them so that
    /// those before it are no greater and those after no less: quickselect with a median-of-three
    /// pivot and a three-way partition, so runs of equal values cost one pass (Hoare 1961;
    /// Bentley and McIlroy 1993).
    package static func select(_ rank: Int, in values: inout [Double]) -> Double {
        precondition(values.indices.contains(rank), "Quantile: rank \(rank) outside 0..<\(values.count)")
        var low = 0, high = values.count - 1
        while low < high {
            let a = values[low], b = values[low + (high - low) / 2], c = values[high]
            let pivot = Swift.max(Swift.min(a, b), Swift.min(Swift.max(a, b), c))
            // values[low..<less] < pivot, values[less..<index] == pivot, values[(greater + 1)...high] > pivot.
            var less = low, index = low, greater = high
            while index <= greater {
                if values[index] < pivot {
                    values.swapAt(less, index)
                    less += 1
                    index += 1
                } else if values[index] > pivot {
                    values.swapAt(index, greater)
                    greater -= 1
                } else {
                    index += 1
                }
            }
            if rank < less { high = less - 1 } else if rank > greater { low = greater + 1 } else { return pivot }
        }
        return values[low]
    }
}
