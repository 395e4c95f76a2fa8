import SimKernel

/// The system's throttle on waking the app for silent pushes: at most
/// ``PushParameters/burstDeliveries`` background deliveries in any
/// ``PushParameters/burstWindowMinutes``, and at most ``PushParameters/dailyDeliveries`` in each
/// 24-hour period counted from the simulation's start. A push the throttle holds back is not
/// dropped: the newest waits for the throttle to open.
///
/// Deliveries to the app in the foreground are not counted: the throttle is on background
/// wakes. Allocation-free after ``init(parameters:)``.
struct PushThrottle {
    /// The last background deliveries, oldest first once full: a ring of the burst's size.
    private var recent: [SimInstant]
    /// Where the next delivery goes in ``recent``.
    private var ringIndex = 0
    /// The 24-hour period of ``deliveredInPeriod``, counted from the start.
    private(set) var period: Int64 = 0
    /// Background deliveries in ``period``.
    private(set) var deliveredInPeriod = 0
    let burst: Int
    let window: SimDuration
    let daily: Int

    init(parameters: PushParameters) {
        precondition(parameters.burstDeliveries >= 1, "PushThrottle: a burst of at least one delivery")
        burst = parameters.burstDeliveries
        recent = []
        recent.reserveCapacity(burst)
        window = .minutes(parameters.burstWindowMinutes)
        daily = parameters.dailyDeliveries
    }

    private static func period(of instant: SimInstant) -> Int64 {
        instant.nanosecondsSinceStart / SimDuration.hours(24).nanoseconds
    }

    /// When the throttle next lets a background delivery through, at or after `now`: `now` if it
    /// is open; the moment the oldest of a full burst leaves the window; or the start of the next
    /// period when this one's deliveries are spent (whichever is later).
    func opensAt(_ now: SimInstant) -> SimInstant {
        var opens = now
        if recent.count == burst {
            // Full: the oldest is the one the next delivery replaces.
            opens = Swift.max(opens, recent[ringIndex] + window)
        }
        if Self.period(of: now) == period, deliveredInPeriod >= daily {
            opens = Swift.max(opens, SimInstant(nanosecondsSinceStart: (period + 1) * SimDuration.hours(24).nanoseconds))
        }
        return opens
    }

    /// Whether the throttle lets a background delivery through at `now`.
    func isOpen(at now: SimInstant) -> Bool { opensAt(now) <= now }

    /// A background delivery was made at `now`.
    mutating func delivered(at now: SimInstant) {
        let current = Self.period(of: now)
        if current != period {
            period = current
            deliveredInPeriod = 0
        }
        deliveredInPeriod += 1
        if recent.count < burst {
            recent.append(now)
        } else {
            recent[ringIndex] = now
        }
        ringIndex = (ringIndex + 1) % burst
    }
}

extension PushThrottle: InternallyChecked {
    /// Traps unless the ring holds at most a burst, in order of delivery from ``ringIndex``
    /// (which, until the ring is full, is where it ends), and the period's count is within the
    /// daily limit and no more than the deliveries remembered in it allow.
    func checkInvariants() {
        precondition(recent.count <= burst, "PushThrottle: more deliveries remembered than a burst")
        precondition(recent.count == burst ? (0..<burst).contains(ringIndex) : ringIndex == recent.count,
                     "PushThrottle: the next delivery goes at \(ringIndex) of a ring of \(recent.count)")
        precondition(period >= 0 && deliveredInPeriod >= 0, "PushThrottle: period \(period), \(deliveredInPeriod) deliveries")
        precondition(recent.allSatisfy { Self.period(of: $0) <= period }, "PushThrottle: a delivery remembered after its period")
        precondition(deliveredInPeriod <= daily, "PushThrottle: \(deliveredInPeriod) deliveries in a period of \(daily)")
        let ordered = recent.count < burst ? recent : Array(recent[ringIndex...] + recent[..<ringIndex])
        precondition(zip(ordered, ordered.dropFirst()).allSatisfy { $0 <= $1 }, "PushThrottle: deliveries out of order")
    }
}
