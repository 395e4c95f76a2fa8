/// A fixed-size histogram of positive values with logarithmic buckets: 32 buckets per doubling,
/// so any quantile it reports is within 2.2 % of the true one (relative), whatever the range.
///
/// Buckets cover 2⁻¹⁰ (about 1 ms, in seconds) to 2²⁴ (about 194 days); smaller values count in
/// the first bucket, larger in the last, and the exact minimum, maximum, count and sum are kept
/// beside them. The bucket of a value comes from its IEEE-754 exponent and top mantissa bits, so
/// it is the same on every platform. Histograms merge by adding counts, so replications can be
/// combined in any order with the same result.
///
///     var latency = LogHistogram()
///     latency.record(42.0)          // seconds
///     latency.quantile(0.9)         // within 2.2 % of the 90th percentile
///
/// - Complexity: O(1) to record; O(buckets) for a quantile. Memory is fixed (about 8.7 KB).
public struct LogHistogram: Sendable, Equatable {
    /// Sub-buckets per doubling, as a power of two.
    static let subBucketBits = 5
    static let subBuckets = 1 << subBucketBits
    /// The smallest and largest power of two covered.
    static let minimumExponent = -10
    static let maximumExponent = 24
    static let bucketCount = (maximumExponent - minimumExponent) * subBuckets

    private var counts = [UInt64](repeating: 0, count: bucketCount)
    /// Values recorded.
    public private(set) var count: UInt64 = 0
    /// Their sum.
    public private(set) var sum = 0.0
    /// The smallest value recorded (+∞ when empty).
    public private(set) var minimum = Double.infinity
    /// The largest value recorded (−∞ when empty).
    public private(set) var maximum = -Double.infinity

    public init() {}

    /// The bucket of `value`.
    static func bucket(of value: Double) -> Int {
        guard value > 0x1p-10 else { return 0 }
        guard value < 0x1p24 else { return bucketCount - 1 }
        let bits = value.bitPattern
        let exponent = Int((bits >> 52) & 0x7FF) - 1023
        let sub = Int((bits >> UInt64(52 - subBucketBits)) & UInt64(subBuckets - 1))
        return (exponent - minimumExponent) * subBuckets + sub
    }

    /// The smallest value of bucket `index`.
    static func lowerBound(of index: Int) -> Double {
        let exponent = index / subBuckets + minimumExponent
        let sub = index % subBuckets
        return Double(sign: .plus, exponent: exponent, significand: 1 + Double(sub) / Double(subBuckets))
    }

    /// Records one value. Negative values and NaN are programmer errors.
    public mutating func record(_ value: Double) {
        precondition(value >= 0, "LogHistogram: values must be non-negative, got \(value)")
        counts[Self.bucket(of: value)] += 1
        count += 1
        sum += value
        minimum = Swift.min(minimum, value)
        maximum = Swift.max(maximum, value)
    }

    /// The mean of the recorded values; 0 when empty.
    public var mean: Double { count > 0 ? sum / Double(count) : 0 }

    /// The value below which a fraction `q` of the recorded values lie, to within 2.2 %:
    /// the geometric middle of the bucket holding the rank-`⌈q·count⌉` value, clamped to the
    /// exact minimum and maximum. `quantile(1)` is the exact maximum; 0 when empty.
    public func quantile(_ q: Double) -> Double {
        guard count > 0 else { return 0 }
        if q >= 1 { return maximum }
        let rank = Swift.max(1, UInt64((Swift.max(0, q) * Double(count)).rounded(.up)))
        var seen: UInt64 = 0
        for index in counts.indices {
            seen += counts[index]
            if seen >= rank {
                let low = Self.lowerBound(of: index)
                let high = index + 1 < Self.bucketCount ? Self.lowerBound(of: index + 1) : low * 2
                return Swift.min(maximum, Swift.max(minimum, (low * high).squareRoot()))
            }
        }
        return maximum
    }

    /// Adds another histogram's values to this one.
    public mutating func merge(_ other: LogHistogram) {
        for index in counts.indices { counts[index] += other.counts[index] }
        count += other.count
        sum += other.sum
        minimum = Swift.min(minimum, other.minimum)
        maximum = Swift.max(maximum, other.maximum)
    }
}
