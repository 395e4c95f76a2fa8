import SimKernel

/// The system's throttle on waking the app for silent pushes: at most
/// ``PushParameters/burstDeliveries`` background deliveries to the app in any
/// ``PushParameters/burstWindowMinutes``, and none once the device's budget for the 24-hour
/// period, which the other apps' pushes spend too, is spent (``DevicePushBudget``). A push the
/// throttle holds back is not dropped: the newest waits for the throttle to open.
///
/// Deliveries to the app in the foreground are not counted: the throttle is on background
/// wakes. Questions come in order of time; allocation-free after
/// ``init(parameters:otherApps:seed:)``.
struct PushThrottle {
    /// The last background deliveries, oldest first once full: a ring of the burst's size.
    private var recent: [SimInstant]
    /// Where the next delivery goes in ``recent``.
    private var ringIndex = 0
    /// The device's budget, shared with the other apps.
    private(set) var budget: DevicePushBudget
    let burst: Int
    let window: SimDuration

    init(parameters: PushParameters, otherApps: OtherAppsParameters, seed: UInt64) {
        precondition(parameters.burstDeliveries >= 1, "PushThrottle: a burst of at least one delivery")
        burst = parameters.burstDeliveries
        recent = []
        recent.reserveCapacity(burst)
        window = .minutes(parameters.burstWindowMinutes)
        budget = DevicePushBudget(push: parameters, otherApps: otherApps, seed: seed)
    }

    /// When the throttle next lets a background delivery through, at or after `now`: `now` if it
    /// is open; the moment the oldest of a full burst leaves the window; or the start of the next
    /// period when the device's budget for this one is spent (whichever is later). If the
    /// burst's wait crosses into the next period, the budget is asked again then.
    mutating func opensAt(_ now: SimInstant) -> SimInstant {
        var opens = budget.opensAt(now)
        if recent.count == burst {
            // Full: the oldest is the one the next delivery replaces.
            opens = Swift.max(opens, recent[ringIndex] + window)
        }
        return opens
    }

    /// A background delivery was made at `now`.
    mutating func delivered(at now: SimInstant) {
        budget.appDelivered(at: now)
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
    /// (which, until the ring is full, is where it ends), none of them after the budget's
    /// period, and the budget is consistent.
    func checkInvariants() {
        precondition(recent.count <= burst, "PushThrottle: more deliveries remembered than a burst")
        precondition(recent.count == burst ? (0..<burst).contains(ringIndex) : ringIndex == recent.count,
                     "PushThrottle: the next delivery goes at \(ringIndex) of a ring of \(recent.count)")
        precondition(recent.allSatisfy { DevicePushBudget.period(of: $0) <= budget.period }, "PushThrottle: a delivery remembered after its period")
        budget.checkInvariants()
        let ordered = recent.count < burst ? recent : Array(recent[ringIndex...] + recent[..<ringIndex])
        precondition(zip(ordered, ordered.dropFirst()).allSatisfy { $0 <= $1 }, "PushThrottle: deliveries out of order")
    }
}
