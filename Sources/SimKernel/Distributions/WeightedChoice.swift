/// Chooses one of several elements with probabilities proportional to their weights.
///
///     let network = WeightedChoice([("wifi", 55), ("cellular", 43), ("none", 2)])
///     let kind = network.sample(using: &stream)
///
/// Weights are summed once, in order, into cumulative bounds; a sample scales one uniform draw by
/// the total and finds its bound by binary search.
public struct WeightedChoice<Element>: RandomDistribution {
    /// The elements, in the order given.
    public let elements: [Element]
    /// `cumulativeWeights[i]` is the sum of the weights of elements `0...i`.
    @usableFromInline let cumulativeWeights: [Double]

    /// Creates a weighted choice from `(element, weight)` pairs.
    ///
    /// Elements with weight 0 are never chosen.
    ///
    /// - Precondition: at least one pair; weights finite and non-negative, with a positive sum.
    public init(_ weightedElements: [(Element, Double)]) {
        precondition(!weightedElements.isEmpty, "WeightedChoice: needs at least one element")
        var total = 0.0
        var cumulative: [Double] = []
        cumulative.reserveCapacity(weightedElements.count)
        for (_, weight) in weightedElements {
            precondition(weight >= 0 && weight.isFinite, "WeightedChoice: weights must be finite and non-negative, got \(weight)")
            total += weight
            cumulative.append(total)
        }
        precondition(total > 0 && total.isFinite, "WeightedChoice: the weights must have a positive, finite sum")
        elements = weightedElements.map(\.0)
        cumulativeWeights = cumulative
    }

    /// The index of the element a sample would choose; useful when the elements are parallel to
    /// another array.
    @inlinable
    public func sampleIndex(using stream: inout RandomStream) -> Int {
        let target = stream.unit() * cumulativeWeights[cumulativeWeights.count - 1]
        // The first index whose cumulative weight exceeds the target; zero weights are skipped
        // because their cumulative weight equals the previous one.
        var low = 0
        var high = cumulativeWeights.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulativeWeights[middle] > target {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return low
    }

    @inlinable
    public func sample(using stream: inout RandomStream) -> Element {
        elements[sampleIndex(using: &stream)]
    }
}

extension WeightedChoice: Sendable where Element: Sendable {}
