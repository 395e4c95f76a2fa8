import SimKernel

/// When the phone is on the charger: one overnight session on most nights and daytime top-ups,
/// drawn day by day from the `power.*` streams, independent of everything the app does.
struct ChargingPlan {
    static let overnightLabel = StreamLabel("power.overnight")
    static let topUpLabel = StreamLabel("power.topups")

    /// One time on the charger.
    struct Session: Equatable {
        var plugIn: SimInstant
        var unplug: SimInstant
        var isOvernight: Bool
    }

    let parameters: PowerParameters
    let calendar: SimCalendar
    let seed: UInt64
    let device: UInt64
    let plugInJitter: TruncatedDistribution<NormalDistribution>
    let unplugJitter: TruncatedDistribution<NormalDistribution>
    let topUpHours: WeightedChoice<Int>?

    init(parameters: PowerParameters, calendar: SimCalendar, seed: UInt64, device: UInt64) {
        self.parameters = parameters
        self.calendar = calendar
        self.seed = seed
        self.device = device
        plugInJitter = Self.jitter(minutes: parameters.overnightPlugInJitterMinutes)
        unplugJitter = Self.jitter(minutes: parameters.overnightUnplugJitterMinutes)
        let weights = parameters.topUpHourWeights
        topUpHours = weights.reduce(0, +) > 0 ? WeightedChoice(Array(zip(0..<24, weights))) : nil
    }

    /// A normal jitter in seconds with the given standard deviation in minutes, cut at ±3 σ.
    static func jitter(minutes: Double) -> TruncatedDistribution<NormalDistribution> {
        let sigma = minutes * 60
        return NormalDistribution(mean: 0, standardDeviation: sigma).truncated(to: -3 * sigma...3 * sigma)
    }

    /// The overnight session that starts on the evening of `day`, if the phone is charged that night.
    func overnight(of day: Int) -> Session? {
        var stream = RandomStream(seed: seed, label: Self.overnightLabel, entity: device, index: UInt64(bitPattern: Int64(day)))
        let charges = stream.chance(parameters.overnightChargeProbability)
        // A plug-in earlier on the clock than the unplug (02:00 for 10:00) is after midnight.
        let plugInDay = parameters.overnightPlugIn < parameters.overnightUnplug ? day + 1 : day
        let plugIn = calendar.midnight(ofDay: plugInDay) + parameters.overnightPlugIn.sinceMidnight
            + .seconds(plugInJitter.sample(using: &stream))
        let unplug = calendar.midnight(ofDay: day + 1) + parameters.overnightUnplug.sinceMidnight
            + .seconds(unplugJitter.sample(using: &stream))
        guard charges, unplug > plugIn else { return nil }
        return Session(plugIn: plugIn, unplug: unplug, isOvernight: true)
    }

    /// The daytime top-ups of `day`, in time order, without overlaps with each other or with the
    /// overnight sessions on either side.
    func topUps(of day: Int) -> [Session] {
        guard parameters.topUpsPerDay > 0, let topUpHours else { return [] }
        var stream = RandomStream(seed: seed, label: Self.topUpLabel, entity: device, index: UInt64(bitPattern: Int64(day)))
        let count = PoissonDistribution(mean: parameters.topUpsPerDay).sample(using: &stream)
        let midnight = calendar.midnight(ofDay: day)
        let length = UniformDistribution(parameters.topUpMinimumMinutes * 60, parameters.topUpMaximumMinutes * 60)
        var sessions: [Session] = []
        for _ in 0..<count {
            let hour = topUpHours.sample(using: &stream)
            let start = midnight + .hours(hour) + .seconds(stream.unit() * 3_600)
            sessions.append(Session(plugIn: start, unplug: start + .seconds(length.sample(using: &stream)), isOvernight: false))
        }
        sessions.sort { $0.plugIn < $1.plugIn }
        let nights = [overnight(of: day - 1), overnight(of: day)].compactMap { $0 }
        var kept: [Session] = []
        for session in sessions {
            let clashes = (nights + kept).contains { session.plugIn < $0.unplug && $0.plugIn < session.unplug }
            if !clashes { kept.append(session) }
        }
        return kept
    }
}
