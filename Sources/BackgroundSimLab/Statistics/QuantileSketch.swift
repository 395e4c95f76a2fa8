/// A histogram of non-negative values in bins of bounded relative width, whose quantiles are
/// within ``relativeError`` of the exact sample quantiles: what a quantile is read from when the
/// values are too many to keep (a field log's millions of launch delays), with weights, so that
/// a Poisson bootstrap (``Bootstrap/poissonWeight(using:)``) resamples it without the values.
///
/// Each power of two is cut into ``binsPerOctave`` bins of equal width, at most 1/128 of their
/// lower edge wide; a value stands for the weighted mean of its bin's values, within 1/128
/// (0.78 %) of it — exactly it where the bin's values are all one value, as whole numbers under
/// 256 and multiples of 15 under 2,048 are (bins there are at most 1 and 8 wide). Values below ``smallestValue`` share one bin that stands for 0. Bins are found from a value's binary exponent and significand, which every
/// machine computes alike (no logarithm). Memory grows with the range of the values — at most
/// 128 bins of 16 bytes for each power of two between the smallest and the largest — not with
/// their number. Quantiles interpolate linearly between order statistics, as
/// ``Quantile/interpolated(_:_:)`` does, over the values the bins stand for, each repeated as
/// many times as its weight (weights are whole numbers).
///
/// The idea is HDR Histogram's (Gil Tene) and DDSketch's (Masson, Rim and Lee, VLDB 2019):
/// bounded relative error from bins that grow with the value.
package struct QuantileSketch: Sendable, Equatable {
    /// Bins per power of two: a bin is at most 1/128 of its lower edge wide.
    package static let binsPerOctave = 128
    /// The largest relative distance from a value to what its bin stands for, 1/128; and so the
    /// largest relative error of a quantile (an interpolation between two such values).
    package static let relativeError = 1.0 / Double(binsPerOctave)
    /// Values below this (2⁻¹⁰) stand for 0: in minutes, 0.06 s.
    package static let smallestValue = 0x1p-10

    /// The weight of the values below ``smallestValue``.
    private var zeroWeight = 0.0
    /// The weights of bins `firstBin ..< firstBin + weights.count`, and the weighted sums of
    /// their values.
    private var firstBin = 0
    private var weights: [Double] = []
    private var sums: [Double] = []
    /// The sum of every value's weight.
    package private(set) var totalWeight = 0.0

    package init() {}

    /// The bin `value` falls in; `nil` for the bin of values below ``smallestValue``.
    ///
    /// - Precondition: `value` is finite and not negative.
    package static func bin(of value: Double) -> Int? {
        precondition(value >= 0 && value.isFinite, "QuantileSketch: expected a finite value ≥ 0, got \(value)")
        guard value >= smallestValue else { return nil }
        // value = significand · 2^exponent, significand in [1, 2): both exact.
        return Int(value.exponent) * binsPerOctave + Int((value.significand - 1) * Double(binsPerOctave))
    }

    /// The lower edge of bin `bin` (``bin(of:)``).
    package static func lowerEdge(ofBin bin: Int) -> Double {
        let octave = bin >= 0 ? bin / binsPerOctave : -((-bin + binsPerOctave - 1) / binsPerOctave)
        let step = bin - octave * binsPerOctave
        return Double(sign: .plus, exponent: octave, significand: 1 + Double(step) / Double(binsPerOctave))
    }

    /// Adds `weight` values `value`, in bin `bin` (``bin(of:)``).
    package mutating func add(_ value: Double, bin: Int?, weight: Double = 1) {
        guard weight > 0 else { return }
        totalWeight += weight
        guard let bin else {
            zeroWeight += weight
            return
        }
        if weights.isEmpty {
            firstBin = bin
            weights = [0]
            sums = [0]
        } else if bin < firstBin {
            weights.insert(contentsOf: repeatElement(0, count: firstBin - bin), at: 0)
            sums.insert(contentsOf: repeatElement(0, count: firstBin - bin), at: 0)
            firstBin = bin
        } else if bin >= firstBin + weights.count {
            weights.append(contentsOf: repeatElement(0, count: bin - firstBin - weights.count + 1))
            sums.append(contentsOf: repeatElement(0, count: bin - firstBin - sums.count + 1))
        }
        weights[bin - firstBin] += weight
        sums[bin - firstBin] += weight * value
    }

    /// Adds `value` with weight `weight`.
    package mutating func add(_ value: Double, weight: Double = 1) {
        add(value, bin: Self.bin(of: value), weight: weight)
    }

    /// The `q` quantile of the values the bins stand for, each repeated as often as its weight:
    /// position q · (n − 1) for n the total weight, interpolating between the two order statistics
    /// around it; `nil` when empty.
    ///
    /// - Precondition: 0 ≤ q ≤ 1.
    package func quantile(_ q: Double) -> Double? {
        precondition(q >= 0 && q <= 1, "QuantileSketch: q must be in [0, 1], got \(q)")
        guard totalWeight > 0 else { return nil }
        let position = q * (totalWeight - 1)
        let low = position.rounded(.down)
        let lower = value(atRank: low)
        let upper = low + 1 < totalWeight ? value(atRank: low + 1) : lower
        return lower + (upper - lower) * (position - low)
    }

    /// The value of rank `rank` (0 for the least) among the values the bins stand for.
    private func value(atRank rank: Double) -> Double {
        var passed = zeroWeight
        if rank < passed { return 0 }
        for (offset, weight) in weights.enumerated() where weight > 0 {
            passed += weight
            if rank < passed { return sums[offset] / weight }
        }
        return weights.last.map { sums[sums.count - 1] / $0 } ?? 0
    }
}
