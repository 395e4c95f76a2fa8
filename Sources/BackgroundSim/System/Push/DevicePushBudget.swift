import SimKernel

/// The device's budget of background push deliveries (``PushParameters/deviceBudgetPerHour``),
/// spent by the app's background deliveries and by the other apps' pushes
/// (``OtherAppsParameters/backgroundPushesPerHour``), and reset every 24 hours counted from the
/// simulation's start.
///
/// The budget is spent first come, first served, and once spent nothing more is delivered in
/// the period, so it is spent at an instant exactly when the app's deliveries and the other
/// apps' arrivals in the period up to that instant number the budget or more: which came first
/// does not matter. The other apps' arrivals are drawn lazily, forwards from the start of each
/// period from that period's own labelled stream, and only as far as a question asks: a phone
/// with no push pending draws nothing, and the arrivals are the same whatever the app does.
///
/// Questions must come in order of time (the simulation's clock); allocation-free.
struct DevicePushBudget {
    static let otherAppsLabel = StreamLabel("system.otherApps.pushes")

    /// Deliveries the device makes to all its apps in each period.
    let perPeriod: Int
    /// The other apps' mean time between pushes, in hours; `nil` when they send none.
    private let otherAppsMeanHours: Double?
    private let seed: UInt64
    /// The period the counts below are for.
    private(set) var period: Int64 = 0
    /// The app's background deliveries in ``period``.
    private(set) var appDeliveries = 0
    /// The other apps' arrivals in ``period`` up to the last question.
    private(set) var otherAppsArrivals = 0
    /// The other apps' next arrival in ``period``, if it comes before the period's end and the
    /// budget is not yet spent.
    private var nextOtherArrival: SimInstant?
    /// The stream of ``period``'s arrivals.
    private var stream: RandomStream

    static let periodLength = SimDuration.hours(24)

    init(push: PushParameters, otherApps: OtherAppsParameters, seed: UInt64) {
        // Validation keeps the budget in its range; here only what the arithmetic needs.
        precondition((0...Double(Int32.max)).contains(24 * push.deviceBudgetPerHour), "DevicePushBudget: \(push.deviceBudgetPerHour) an hour")
        precondition(otherApps.backgroundPushesPerHour >= 0 && otherApps.backgroundPushesPerHour.isFinite,
                     "DevicePushBudget: other apps' \(otherApps.backgroundPushesPerHour) pushes an hour")
        perPeriod = Int((24 * push.deviceBudgetPerHour).rounded(.down))
        otherAppsMeanHours = otherApps.backgroundPushesPerHour > 0 ? 1 / otherApps.backgroundPushesPerHour : nil
        self.seed = seed
        stream = RandomStream(seed: 0)
        start(period: 0)
    }

    /// The 24-hour period `instant` falls in.
    static func period(of instant: SimInstant) -> Int64 {
        instant.nanosecondsSinceStart / periodLength.nanoseconds
    }

    /// The start of period `index`.
    static func start(of index: Int64) -> SimInstant {
        SimInstant(nanosecondsSinceStart: index * periodLength.nanoseconds)
    }

    private mutating func start(period index: Int64) {
        period = index
        appDeliveries = 0
        otherAppsArrivals = 0
        stream = RandomStream(seed: seed, label: Self.otherAppsLabel, index: UInt64(bitPattern: index))
        nextOtherArrival = nil
        drawNextOtherArrival(after: Self.start(of: index))
    }

    private mutating func drawNextOtherArrival(after instant: SimInstant) {
        guard let mean = otherAppsMeanHours, appDeliveries + otherAppsArrivals < perPeriod else {
            nextOtherArrival = nil
            return
        }
        let next = instant + .hours(ExponentialDistribution(mean: mean).sample(using: &stream))
        nextOtherArrival = Self.period(of: next) == period ? next : nil
    }

    /// Brings the counts up to `now`: a new period if `now` is in one, and the other apps'
    /// arrivals up to and including `now`.
    mutating func advance(to now: SimInstant) {
        let current = Self.period(of: now)
        precondition(current >= period, "DevicePushBudget: asked about \(now) after period \(period)")
        if current != period { start(period: current) }
        while let arrival = nextOtherArrival, arrival <= now {
            otherAppsArrivals += 1
            drawNextOtherArrival(after: arrival)
        }
    }

    /// Whether the period's budget is spent (as of the last ``advance(to:)``).
    var isSpent: Bool { appDeliveries + otherAppsArrivals >= perPeriod }

    /// When the budget next has a delivery left, at or after `now`: `now`, or the next period's
    /// start when this one's is spent (a device with no budget at all tries again each period).
    mutating func opensAt(_ now: SimInstant) -> SimInstant {
        advance(to: now)
        return isSpent ? Self.start(of: period + 1) : now
    }

    /// The app was delivered a push in the background at `now`.
    mutating func appDelivered(at now: SimInstant) {
        advance(to: now)
        precondition(!isSpent, "DevicePushBudget: a delivery at \(now) with the period's \(perPeriod) spent")
        appDeliveries += 1
        if isSpent { nextOtherArrival = nil }
    }
}

extension DevicePushBudget: InternallyChecked {
    /// Traps unless the period's deliveries and arrivals are within the budget and no arrival is
    /// pending once it is spent or outside the period.
    func checkInvariants() {
        precondition(period >= 0 && appDeliveries >= 0 && otherAppsArrivals >= 0, "DevicePushBudget: period \(period), \(appDeliveries) + \(otherAppsArrivals)")
        precondition(appDeliveries + otherAppsArrivals <= perPeriod, "DevicePushBudget: \(appDeliveries) + \(otherAppsArrivals) spent of \(perPeriod)")
        if let nextOtherArrival {
            precondition(!isSpent && Self.period(of: nextOtherArrival) == period, "DevicePushBudget: an arrival pending at \(nextOtherArrival) in period \(period)")
        }
    }
}
