/// A distribution restricted to a range by redrawing values that fall outside it.
///
/// The result has the base distribution's shape, renormalized to the range. If the range holds
/// so little probability that ``maximumAttempts`` draws all miss, the last draw is clamped into
/// the range instead, so sampling always ends.
///
///     let nap = NormalDistribution(mean: 30, standardDeviation: 20).truncated(to: 5...90)
public struct TruncatedDistribution<Base: RandomDistribution>: RandomDistribution where Base.Value == Double {
    /// The distribution before truncation.
    public let base: Base
    /// The values that may be returned.
    public let range: ClosedRange<Double>
    /// How many draws to try before clamping.
    public let maximumAttempts: Int

    /// Creates a truncated distribution.
    ///
    /// - Precondition: `range` has finite or infinite bounds (not NaN); `maximumAttempts > 0`.
    public init(_ base: Base, to range: ClosedRange<Double>, maximumAttempts: Int = 64) {
        precondition(!range.lowerBound.isNaN && !range.upperBound.isNaN, "TruncatedDistribution: range bounds must not be NaN")
        precondition(maximumAttempts > 0, "TruncatedDistribution: needs at least one attempt")
        self.base = base
        self.range = range
        self.maximumAttempts = maximumAttempts
    }

    @inlinable
    public func sample(using stream: inout RandomStream) -> Double {
        var value = base.sample(using: &stream)
        var attempts = 1
        while !range.contains(value) && attempts < maximumAttempts {
            value = base.sample(using: &stream)
            attempts += 1
        }
        return Swift.min(Swift.max(value, range.lowerBound), range.upperBound)
    }
}

extension TruncatedDistribution: Sendable where Base: Sendable {}

/// A distribution whose values are clamped into a range: values outside it become its bounds.
///
/// Unlike truncation, clamping puts the outside probability on the bounds themselves, which is
/// right for physical limits ("a session lasts at most 2 hours").
public struct ClampedDistribution<Base: RandomDistribution>: RandomDistribution where Base.Value == Double {
    /// The distribution before clamping.
    public let base: Base
    /// The values that may be returned.
    public let range: ClosedRange<Double>

    /// Creates a clamped distribution.
    public init(_ base: Base, to range: ClosedRange<Double>) {
        precondition(!range.lowerBound.isNaN && !range.upperBound.isNaN, "ClampedDistribution: range bounds must not be NaN")
        self.base = base
        self.range = range
    }

    @inlinable
    public func sample(using stream: inout RandomStream) -> Double {
        Swift.min(Swift.max(base.sample(using: &stream), range.lowerBound), range.upperBound)
    }
}

extension ClampedDistribution: Sendable where Base: Sendable {}

extension RandomDistribution where Value == Double {
    /// This distribution restricted to `range` by redrawing; see ``TruncatedDistribution``.
    public func truncated(to range: ClosedRange<Double>) -> TruncatedDistribution<Self> {
        TruncatedDistribution(self, to: range)
    }

    /// This distribution with values clamped into `range`; see ``ClampedDistribution``.
    public func clamped(to range: ClosedRange<Double>) -> ClampedDistribution<Self> {
        ClampedDistribution(self, to: range)
    }
}
