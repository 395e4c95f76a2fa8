import SimKernel

/// The simulated person: when they pick up the phone, for how long, when they open the app, and
/// whether they swipe it away afterwards.
///
/// Phone sessions are a non-homogeneous Poisson process over the day whose intensity follows
/// ``UserParameters/hourlyWeights``, damped while the user is asleep. Arrivals are drawn only in
/// screen-off time (a new session starts after the previous one ends), and the intensity is
/// scaled up so that the expected number of sessions per day still equals
/// ``UserParameters/sessionsPerDay``.
///
/// Everything is drawn from streams keyed by `(seed, label, device, day)` and nothing the app or
/// the battery does feeds back into the draws, so every policy sees the same user
/// (common random numbers), and day *d* is the same whether the run lasts *d* + 1 days or 1,000.
struct UserBehaviour {
    static let sessionLabel = StreamLabel("user.sessions")
    static let sleepLabel = StreamLabel("user.sleep")
    static let appLabel = StreamLabel("user.app")

    let parameters: UserParameters
    let calendar: SimCalendar
    let seed: UInt64
    let device: UInt64
    let sessionLength: ClampedDistribution<LogNormalDistribution>
    let appSessionLength: LogNormalDistribution
    let sleepJitter: TruncatedDistribution<NormalDistribution>
    /// Probability that a phone session opens the app.
    let appOpenProbability: Double

    /// The current day's session stream and intensity.
    private var sessionStream = RandomStream(seed: 0)
    private var appStream = RandomStream(seed: 0)
    private var intensity = DayIntensity()
    private(set) var day = Int.min

    init(parameters: UserParameters, calendar: SimCalendar, seed: UInt64, device: UInt64) {
        self.parameters = parameters
        self.calendar = calendar
        self.seed = seed
        self.device = device
        let median = parameters.sessionMedianSeconds
        sessionLength = LogNormalDistribution(median: median, sigma: parameters.sessionSigma)
            .clamped(to: 0...(parameters.sessionMaximumMinutes * 60))
        appSessionLength = LogNormalDistribution(median: parameters.app.sessionMedianSeconds, sigma: parameters.app.sessionSigma)
        let jitter = parameters.sleepJitterMinutes * 60
        sleepJitter = NormalDistribution(mean: 0, standardDeviation: jitter).truncated(to: -3 * jitter...3 * jitter)
        let appRate = parameters.app.profile.sessionsPerDay(customValue: parameters.app.customSessionsPerDay)
        appOpenProbability = parameters.sessionsPerDay > 0 ? Swift.min(1, appRate / parameters.sessionsPerDay) : 0
    }

    // MARK: Sleep

    /// The night that starts on the evening of `day`: when the user falls asleep, and when they
    /// wake on the next day. A sleep start earlier on the clock than the wake time (02:30 for a
    /// 10:00 wake) falls in the early hours of the next day, not the morning of `day`.
    func night(of day: Int) -> (sleep: SimInstant, wake: SimInstant) {
        var stream = RandomStream(seed: seed, label: Self.sleepLabel, entity: device, index: UInt64(bitPattern: Int64(day)))
        let sleepDay = parameters.sleepStart < parameters.wakeTime ? day + 1 : day
        let sleep = calendar.midnight(ofDay: sleepDay) + parameters.sleepStart.sinceMidnight
            + .seconds(sleepJitter.sample(using: &stream))
        var wake = calendar.midnight(ofDay: day + 1) + parameters.wakeTime.sinceMidnight
            + .seconds(sleepJitter.sample(using: &stream))
        // A sleep start after midnight that passes the wake time collapses the night.
        if wake < sleep { wake = sleep }
        assert(wake <= calendar.midnight(ofDay: day + 3),
               "UserBehaviour: the night of day \(day) runs \(sleep) to \(wake)")
        return (sleep, wake)
    }

    // MARK: Sessions

    /// Prepares day `day`: its streams and its intensity.
    mutating func begin(day: Int) {
        self.day = day
        let index = UInt64(bitPattern: Int64(day))
        sessionStream = RandomStream(seed: seed, label: Self.sessionLabel, entity: device, index: index)
        appStream = RandomStream(seed: seed, label: Self.appLabel, entity: device, index: index)
        buildIntensity(day: day)
    }

    /// Builds the day's session intensity: hourly weights, damped while asleep, normalized to the
    /// expected sessions per day and corrected for screen-on time, in which no session starts.
    private mutating func buildIntensity(day: Int) {
        let midnight = calendar.midnight(ofDay: day)
        let asleep = [night(of: day - 1), night(of: day)]
        // Cut points: each hour, and where sleep starts or ends within the day.
        var cuts: [SimInstant] = (1...24).map { midnight + .hours($0) }
        for night in asleep {
            for edge in [night.sleep, night.wake] where edge > midnight && edge < midnight + .days(1) {
                cuts.append(edge)
            }
        }
        cuts.sort()
        intensity.reset(startingAt: midnight)
        var pieceStart = midnight
        for cut in cuts where cut > pieceStart {
            let hour = Int(midnight.duration(to: pieceStart) / .hours(1))
            var weight = parameters.hourlyWeights[Swift.min(23, Swift.max(0, hour))]
            if asleep.contains(where: { $0.sleep <= pieceStart && pieceStart < $0.wake }) {
                weight *= parameters.asleepIntensityFactor
            }
            intensity.append(until: cut, rate: weight)
            pieceStart = cut
        }
        let total = intensity.integral
        guard total > 0, parameters.sessionsPerDay > 0 else {
            intensity.scale(by: 0)
            return
        }
        intensity.scale(by: parameters.sessionsPerDay / total)
        // Sessions fall where the rate is high, so each removes about E[L] × ∫λ²/∫λ of the
        // expected count from the off-screen time; scale up to restore sessionsPerDay.
        let lostFraction = sessionLength.base.mean * intensity.integralOfSquare / intensity.integral
        intensity.scale(by: 1 / Swift.max(0.2, 1 - lostFraction))
    }

    /// The next session start after `instant` (the end of the previous session, or midnight),
    /// within the current day; `nil` if none starts before the day ends.
    mutating func nextSessionStart(after instant: SimInstant) -> SimInstant? {
        precondition(day != .min, "UserBehaviour: a session drawn before the first day began")
        let mass = -PortableMath.log(1 - sessionStream.unit())
        let start = intensity.time(after: instant, accumulating: mass)
        assert(start.map { $0 >= instant && $0 <= intensity.end } ?? true, "UserBehaviour: a session at \(start!) after \(instant)")
        return start
    }

    /// The length of the session starting now.
    mutating func drawSessionLength() -> SimDuration {
        .seconds(sessionLength.sample(using: &sessionStream))
    }

    /// Whether the session opens the app, for how long, and whether it ends in a force-quit.
    ///
    /// Draws the same number of values whatever the answer, so app parameters never shift
    /// later draws.
    mutating func drawAppSession(sessionLength: SimDuration) -> AppSession? {
        let opens = appStream.chance(appOpenProbability)
        let length = SimDuration.seconds(appSessionLength.sample(using: &appStream))
        let forceQuit = appStream.chance(parameters.app.forceQuitProbability)
        guard opens, !parameters.app.absences.contains(where: { $0.contains(day: day) }) else { return nil }
        precondition(length >= .zero && sessionLength >= .zero, "UserBehaviour: an app session of \(length) in a phone session of \(sessionLength)")
        return AppSession(length: Swift.min(length, sessionLength), endsWithForceQuit: forceQuit)
    }
}

/// The app's part of a phone session: it opens when the session starts.
struct AppSession: Equatable {
    /// How long the app stays in the foreground.
    var length: SimDuration
    /// Whether the user swipes the app away in the app switcher afterwards.
    var endsWithForceQuit: Bool
}
