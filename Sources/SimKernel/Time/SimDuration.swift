/// A span of simulated time, held as a whole number of nanoseconds.
///
/// Simulated time is integer time: two runs that add the same durations reach the same instant
/// on every platform, which floating-point seconds would not guarantee. Arithmetic saturates at
/// the bounds of `Int64` (about ±292 years) instead of trapping, so "never" can be written as
/// ``max`` and still be added to.
///
///     let budget = SimDuration.seconds(30)
///     let lead = SimDuration.milliseconds(500)
///     print(budget - lead)          // "0d 00:00:29.500"
///
/// Durations measured from a random draw in seconds convert with ``seconds(_:)-(Double)``, which
/// rounds to the nearest nanosecond.
public struct SimDuration: Sendable, Hashable, Comparable {
    /// The duration's length in nanoseconds; negative for a duration that runs backwards.
    public var nanoseconds: Int64

    /// Creates a duration of the given number of nanoseconds.
    @inlinable
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The empty duration.
    @inlinable public static var zero: SimDuration { SimDuration(nanoseconds: 0) }

    /// The longest representable duration, which saturating arithmetic treats as "forever".
    @inlinable public static var max: SimDuration { SimDuration(nanoseconds: .max) }

    /// The most negative representable duration.
    @inlinable public static var min: SimDuration { SimDuration(nanoseconds: .min) }

    @inlinable
    public static func < (lhs: SimDuration, rhs: SimDuration) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
}

// MARK: - Named constructors

extension SimDuration {
    /// Nanoseconds in one unit of each named constructor.
    @usableFromInline
    enum Unit {
        @usableFromInline static let microsecond: Int64 = 1_000
        @usableFromInline static let millisecond: Int64 = 1_000_000
        @usableFromInline static let second: Int64 = 1_000_000_000
        @usableFromInline static let minute: Int64 = 60 * second
        @usableFromInline static let hour: Int64 = 60 * minute
        @usableFromInline static let day: Int64 = 24 * hour
    }

    /// `count` whole units of `unitNanoseconds`, saturating at the bounds of `Int64`.
    @inlinable
    static func units<T: BinaryInteger>(_ count: T, of unitNanoseconds: Int64) -> SimDuration {
        SimDuration(nanoseconds: Int64(clamping: count).saturatingMultiplied(by: unitNanoseconds))
    }

    /// A duration of `value` nanoseconds.
    @inlinable
    public static func nanoseconds<T: BinaryInteger>(_ value: T) -> SimDuration {
        SimDuration(nanoseconds: Int64(clamping: value))
    }

    /// A duration of `value` microseconds, saturating.
    @inlinable
    public static func microseconds<T: BinaryInteger>(_ value: T) -> SimDuration {
        units(value, of: Unit.microsecond)
    }

    /// A duration of `value` milliseconds, saturating.
    @inlinable
    public static func milliseconds<T: BinaryInteger>(_ value: T) -> SimDuration {
        units(value, of: Unit.millisecond)
    }

    /// A duration of `value` seconds, saturating.
    @inlinable
    public static func seconds<T: BinaryInteger>(_ value: T) -> SimDuration {
        units(value, of: Unit.second)
    }

    /// A duration of `value` minutes, saturating.
    @inlinable
    public static func minutes<T: BinaryInteger>(_ value: T) -> SimDuration {
        units(value, of: Unit.minute)
    }

    /// A duration of `value` hours, saturating.
    @inlinable
    public static func hours<T: BinaryInteger>(_ value: T) -> SimDuration {
        units(value, of: Unit.hour)
    }

    /// A duration of `value` days of 24 hours, saturating.
    @inlinable
    public static func days<T: BinaryInteger>(_ value: T) -> SimDuration {
        units(value, of: Unit.day)
    }

    /// A duration of `value` seconds, rounded to the nearest nanosecond (ties away from zero).
    ///
    /// Values beyond the representable range saturate to ``max`` or ``min``; infinities do too.
    ///
    /// - Precondition: `value` is not NaN.
    @inlinable
    public static func seconds(_ value: Double) -> SimDuration {
        precondition(!value.isNaN, "SimDuration.seconds: NaN is not a duration")
        let nanoseconds = (value * 1e9).rounded(.toNearestOrAwayFromZero)
        // 2^63 is exactly representable; anything at or above it saturates.
        if nanoseconds >= 9_223_372_036_854_775_808.0 { return .max }
        if nanoseconds <= -9_223_372_036_854_775_808.0 { return .min }
        return SimDuration(nanoseconds: Int64(nanoseconds))
    }

    /// A duration of `value` minutes, rounded to the nearest nanosecond.
    @inlinable
    public static func minutes(_ value: Double) -> SimDuration { seconds(value * 60) }

    /// A duration of `value` hours, rounded to the nearest nanosecond.
    @inlinable
    public static func hours(_ value: Double) -> SimDuration { seconds(value * 3_600) }

    /// The duration in seconds, for reports and arithmetic outside the clock.
    ///
    /// Exact for durations up to about 104 days; beyond that the nearest `Double`.
    @inlinable
    public var seconds: Double { Double(nanoseconds) / 1e9 }
}

// MARK: - Saturating arithmetic

extension SimDuration: AdditiveArithmetic {
    @inlinable
    public static func + (lhs: SimDuration, rhs: SimDuration) -> SimDuration {
        SimDuration(nanoseconds: lhs.nanoseconds.saturatingAdding(rhs.nanoseconds))
    }

    @inlinable
    public static func - (lhs: SimDuration, rhs: SimDuration) -> SimDuration {
        SimDuration(nanoseconds: lhs.nanoseconds.saturatingSubtracting(rhs.nanoseconds))
    }

    @inlinable
    public static prefix func - (operand: SimDuration) -> SimDuration {
        .zero - operand
    }

    /// The duration repeated `count` times, saturating.
    @inlinable
    public static func * (lhs: SimDuration, rhs: Int64) -> SimDuration {
        SimDuration(nanoseconds: lhs.nanoseconds.saturatingMultiplied(by: rhs))
    }

    /// The duration divided into `rhs` equal parts, rounded toward zero.
    ///
    /// - Precondition: `rhs` is not zero.
    @inlinable
    public static func / (lhs: SimDuration, rhs: Int64) -> SimDuration {
        precondition(rhs != 0, "SimDuration: division by zero")
        if lhs.nanoseconds == .min && rhs == -1 { return .max }
        return SimDuration(nanoseconds: lhs.nanoseconds / rhs)
    }

    /// How many times `rhs` fits in `lhs`, rounded toward zero.
    ///
    /// - Precondition: `rhs` is not zero.
    @inlinable
    public static func / (lhs: SimDuration, rhs: SimDuration) -> Int64 {
        precondition(rhs.nanoseconds != 0, "SimDuration: division by a zero duration")
        if lhs.nanoseconds == .min && rhs.nanoseconds == -1 { return .max }
        return lhs.nanoseconds / rhs.nanoseconds
    }
}

// MARK: - Saturating integer helpers

extension Int64 {
    @inlinable
    func saturatingAdding(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    @inlinable
    func saturatingSubtracting(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other < 0 ? .max : .min
    }

    @inlinable
    func saturatingMultiplied(by other: Int64) -> Int64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }
}
