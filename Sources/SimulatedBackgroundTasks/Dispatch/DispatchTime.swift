import Dispatch
import Foundation
import SimKernel

/// `DispatchTime`: a point on the uptime clock. In the app's simulated code, ``now()`` is the
/// simulation's time (nanoseconds since it started), so `asyncAfter(deadline: .now() + 5)`
/// runs 5 s of simulated time later; elsewhere it is the machine's uptime, as Dispatch's.
public struct DispatchTime: Comparable, Sendable, Hashable {
    /// Nanoseconds on the uptime clock.
    public let uptimeNanoseconds: UInt64

    public init(uptimeNanoseconds: UInt64) {
        self.uptimeNanoseconds = uptimeNanoseconds
    }

    /// Now: the simulation's time in the app's code, the machine's uptime elsewhere.
    public static func now() -> DispatchTime {
        guard let process = SimulatedProcess.current else {
            return DispatchTime(uptimeNanoseconds: Dispatch.DispatchTime.now().uptimeNanoseconds)
        }
        return DispatchTime(uptimeNanoseconds: UInt64(Swift.max(0, process.state.instant.nanosecondsSinceStart)))
    }

    /// Never.
    public static let distantFuture = DispatchTime(uptimeNanoseconds: .max)

    public static func < (lhs: DispatchTime, rhs: DispatchTime) -> Bool { lhs.uptimeNanoseconds < rhs.uptimeNanoseconds }

    public static func + (time: DispatchTime, interval: DispatchTimeInterval) -> DispatchTime {
        DispatchTime(uptimeNanoseconds: adding(interval.nanoseconds, to: time.uptimeNanoseconds))
    }

    public static func - (time: DispatchTime, interval: DispatchTimeInterval) -> DispatchTime {
        DispatchTime(uptimeNanoseconds: adding(-interval.nanoseconds, to: time.uptimeNanoseconds))
    }

    public static func + (time: DispatchTime, seconds: Double) -> DispatchTime {
        DispatchTime(uptimeNanoseconds: adding(nanoseconds(seconds), to: time.uptimeNanoseconds))
    }

    public static func - (time: DispatchTime, seconds: Double) -> DispatchTime {
        DispatchTime(uptimeNanoseconds: adding(-nanoseconds(seconds), to: time.uptimeNanoseconds))
    }

    /// The simulated delay from the app's now until this time (zero for a time past).
    var delayFromNow: SimDuration {
        let now = DispatchTime.now().uptimeNanoseconds
        guard uptimeNanoseconds > now else { return .zero }
        return .nanoseconds(Int64(clamping: uptimeNanoseconds - now))
    }

    /// This time as Dispatch's, for work outside the simulation.
    var dispatch: Dispatch.DispatchTime {
        self == .distantFuture ? .distantFuture : Dispatch.DispatchTime(uptimeNanoseconds: uptimeNanoseconds)
    }

    private static func nanoseconds(_ seconds: Double) -> Int64 {
        guard seconds.isFinite else { return seconds > 0 ? .max : .min }
        return Int64(clamping: Int64(exactly: (seconds * 1e9).rounded()) ?? (seconds > 0 ? .max : .min))
    }

    private static func adding(_ nanoseconds: Int64, to uptime: UInt64) -> UInt64 {
        guard uptime != .max else { return .max }
        if nanoseconds >= 0 {
            let (sum, overflow) = uptime.addingReportingOverflow(UInt64(nanoseconds))
            return overflow ? .max : sum
        }
        let magnitude = nanoseconds.magnitude
        return uptime > magnitude ? uptime - magnitude : 0
    }
}

/// `DispatchWallTime`: a point on the wall clock. In the app's simulated code, ``now()`` is the
/// simulated phone's clock.
public struct DispatchWallTime: Comparable, Sendable, Hashable {
    /// Nanoseconds since 1970.
    let nanosecondsSince1970: Int64

    /// Now, on the phone's clock in the app's code, the machine's elsewhere.
    public static func now() -> DispatchWallTime {
        DispatchWallTime(nanosecondsSince1970: Int64(clamping: Int64(exactly: (SimulatedDate.now.timeIntervalSince1970 * 1e9).rounded()) ?? .max))
    }

    /// The wall time of `timespec`.
    public init(timespec: timespec) {
        nanosecondsSince1970 = Int64(timespec.tv_sec) * 1_000_000_000 + Int64(timespec.tv_nsec)
    }

    init(nanosecondsSince1970: Int64) {
        self.nanosecondsSince1970 = nanosecondsSince1970
    }

    public static let distantFuture = DispatchWallTime(nanosecondsSince1970: .max)

    public static func < (lhs: DispatchWallTime, rhs: DispatchWallTime) -> Bool { lhs.nanosecondsSince1970 < rhs.nanosecondsSince1970 }

    public static func + (time: DispatchWallTime, interval: DispatchTimeInterval) -> DispatchWallTime {
        DispatchWallTime(nanosecondsSince1970: time.nanosecondsSince1970.addingReportingOverflow(interval.nanoseconds).partialValue)
    }

    public static func + (time: DispatchWallTime, seconds: Double) -> DispatchWallTime {
        time + .nanoseconds(Int(clamping: Int64(exactly: (seconds * 1e9).rounded()) ?? .max))
    }

    /// The simulated delay from now until this time (zero for a time past).
    var delayFromNow: SimDuration {
        let now = DispatchWallTime.now().nanosecondsSince1970
        return nanosecondsSince1970 > now ? .nanoseconds(nanosecondsSince1970 - now) : .zero
    }
}

extension DispatchTimeInterval {
    /// The interval in nanoseconds (`.never` as the longest).
    var nanoseconds: Int64 {
        switch self {
        case .seconds(let value): Self.clamped(Int64(value), times: 1_000_000_000)
        case .milliseconds(let value): Self.clamped(Int64(value), times: 1_000_000)
        case .microseconds(let value): Self.clamped(Int64(value), times: 1_000)
        case .nanoseconds(let value): Int64(value)
        case .never: .max
        @unknown default: .max
        }
    }

    private static func clamped(_ value: Int64, times factor: Int64) -> Int64 {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        return overflow ? (value > 0 ? .max : .min) : product
    }
}
