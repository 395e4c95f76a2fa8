import SimKernel

/// Which network the phone is on over each day: home Wi-Fi from the evening return to the next
/// morning's departure; away, a run of Wi-Fi, cellular and no-service segments.
///
/// The away mix is derived from the target shares: with expected home hours H and home-Wi-Fi
/// probability h, the away Wi-Fi time fraction is (24 s_wifi − h H) / (24 − H) and the away
/// no-service fraction 24 s_offline / (24 − H); segments are chosen with probability proportional
/// to fraction ÷ mean length, so that time shares come out right. Draws come from the
/// `network.*` streams, keyed by day.
struct NetworkPlan {
    static let homeLabel = StreamLabel("network.home")
    static let awayLabel = StreamLabel("network.away")

    /// The home/away schedule of one day.
    struct Day: Equatable {
        /// When the user leaves home; `nil` on a day spent at home.
        var leave: SimInstant?
        /// When the user returns home.
        var back: SimInstant?
    }

    let parameters: NetworkParameters
    let calendar: SimCalendar
    let seed: UInt64
    let device: UInt64
    let jitter: TruncatedDistribution<NormalDistribution>
    /// Away segment kinds by probability: 0 = Wi-Fi, 1 = cellular, 2 = none.
    let awayChoice: WeightedChoice<NetworkPath.Interface>
    /// Away segment kinds by time share, for the first segment of a trip.
    let awayStart: WeightedChoice<NetworkPath.Interface>

    init(parameters: NetworkParameters, calendar: SimCalendar, seed: UInt64, device: UInt64) throws(ScenarioIssue) {
        self.parameters = parameters
        self.calendar = calendar
        self.seed = seed
        self.device = device
        jitter = ChargingPlan.jitter(minutes: parameters.homeJitterMinutes)
        let shares = try Self.awayShares(parameters)
        awayStart = WeightedChoice([(.wifi, shares.wifi), (.cellular, shares.cellular), (.none, shares.offline)])
        awayChoice = WeightedChoice([
            (.wifi, shares.wifi / parameters.awayWifiSegmentMinutes),
            (.cellular, shares.cellular / parameters.awayCellularSegmentMinutes),
            (.none, shares.offline / parameters.offlineSegmentMinutes),
        ])
    }

    /// Expected hours per day at home, averaged over the week.
    static func expectedHomeHours(_ parameters: NetworkParameters) -> Double {
        var awayHours = parameters.returnHome.hours - parameters.leaveHome.hours
        if awayHours < 0 { awayHours += 24 }
        let weekdayHome = 24 - awayHours
        let weekendHome = parameters.weekendStayHomeProbability * 24 + (1 - parameters.weekendStayHomeProbability) * weekdayHome
        return (5 * weekdayHome + 2 * weekendHome) / 7
    }

    /// The time fractions of Wi-Fi, cellular and no service while away that give the target shares.
    static func awayShares(_ parameters: NetworkParameters) throws(ScenarioIssue) -> (wifi: Double, cellular: Double, offline: Double) {
        let home = expectedHomeHours(parameters)
        let away = 24 - home
        let homeWifi = parameters.homeWifiProbability * home
        guard away > 0.5 else {
            throw ScenarioIssue(path: "network.returnHome", message: "the user must be away from home for at least half an hour a day")
        }
        let wifi = (24 * parameters.wifiShare - homeWifi) / away
        let offline = 24 * parameters.offlineShare / away
        let lowest = homeWifi / 24
        let highest = (homeWifi + away) / 24 - parameters.offlineShare
        guard wifi >= 0, wifi + offline <= 1 else {
            let range = "\(JSONWriter.format((lowest * 1000).rounded() / 1000))–\(JSONWriter.format((highest * 1000).rounded() / 1000))"
            throw ScenarioIssue(
                path: "network.wifiShare",
                message: "expected a share that home Wi-Fi and time away can give (\(range) with the other network settings), got \(JSONWriter.format(parameters.wifiShare))")
        }
        return (wifi, 1 - wifi - offline, offline)
    }

    /// The home/away schedule of `day`.
    func schedule(of day: Int) -> Day {
        var stream = RandomStream(seed: seed, label: Self.homeLabel, entity: device, index: UInt64(bitPattern: Int64(day)))
        let staysHome = stream.chance(parameters.weekendStayHomeProbability)
        let leaveJitter = jitter.sample(using: &stream)
        let backJitter = jitter.sample(using: &stream)
        if calendar.weekday(ofDay: day).isWeekend && staysHome { return Day(leave: nil, back: nil) }
        let midnight = calendar.midnight(ofDay: day)
        let leave = midnight + parameters.leaveHome.sinceMidnight + .seconds(leaveJitter)
        var back = midnight + parameters.returnHome.sinceMidnight + .seconds(backJitter)
        if parameters.returnHome < parameters.leaveHome { back = back + .days(1) }
        if back < leave + .minutes(30) { back = leave + .minutes(30) }
        assert(leave < calendar.midnight(ofDay: day + 2), "NetworkPlan: day \(day) leaves home at \(leave)")
        return Day(leave: leave, back: back)
    }

    /// The home network for the night that begins on the evening of `day`.
    func homeNetwork(night day: Int) -> NetworkPath {
        var stream = RandomStream(seed: seed, label: Self.homeLabel, entity: device, index: UInt64(bitPattern: Int64(day)) ^ 0x8000_0000_0000_0000)
        let wifiWorks = stream.chance(parameters.homeWifiProbability)
        return path(interface: wifiWorks ? .wifi : .cellular, using: &stream)
    }

    /// A stream for the away segments of `day`.
    func awayStream(day: Int) -> RandomStream {
        RandomStream(seed: seed, label: Self.awayLabel, entity: device, index: UInt64(bitPattern: Int64(day)))
    }

    /// Draws the next away segment: its network and its length.
    func nextAwaySegment(first: Bool, using stream: inout RandomStream) -> (path: NetworkPath, length: SimDuration) {
        let interface = (first ? awayStart : awayChoice).sample(using: &stream)
        let meanMinutes = switch interface {
        case .wifi: parameters.awayWifiSegmentMinutes
        case .cellular: parameters.awayCellularSegmentMinutes
        case .none: parameters.offlineSegmentMinutes
        }
        precondition(meanMinutes > 0 && meanMinutes.isFinite, "NetworkPlan: \(interface) segments of \(meanMinutes) min on average")
        let length = ExponentialDistribution(mean: meanMinutes * 60).sample(using: &stream)
        return (path(interface: interface, using: &stream), .seconds(length))
    }

    /// Draws technology and signal for a network of the given interface.
    private func path(interface: NetworkPath.Interface, using stream: inout RandomStream) -> NetworkPath {
        let fiveG = stream.chance(parameters.fiveGShare)
        let u = stream.unit()
        let signal: NetworkPath.SignalQuality = u < parameters.goodSignalShare ? .good
            : u < 1 - parameters.poorSignalShare ? .medium : .poor
        guard interface != .none else { return .offline }
        let constrained = interface == .wifi ? parameters.lowDataModeOnWifi : parameters.lowDataModeOnCellular
        return NetworkPath(interface: interface, technology: fiveG ? .fiveG : .lte, signal: signal, isConstrained: constrained)
    }
}
