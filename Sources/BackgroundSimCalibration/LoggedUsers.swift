import BackgroundSim
import SimKernel

/// The users a field log shows, as the scenario's user model needs them, so that the calibrated
/// launch model runs against the users it was fitted to (`bgsim run --with calibrated.json`).
///
/// The launch model's budget grows with the app's use, so the fitted parameters reproduce the
/// logs' launches only with the logs' use: laid over a base scenario whose users open the app
/// half as often, they give about half the launches. So the fragment carries:
///
/// - **App sessions a day**: the logs' opens (`appForeground`) ÷ their device-days, as
///   `user.app.profile` `custom` with `customSessionsPerDay`.
/// - **Session length** is measured — each `appForeground` to the next `appBackground` of the
///   device, within a day: the median e^mean of their logarithms, σ their standard deviation —
///   and reported, not written: the simulator draws an app session inside a phone session and
///   cuts it there, so what a log measures is shorter than `user.app.sessionMedianSeconds`
///   (the default 45 s gives a logged median of about 25 s), and the launch model does not read
///   session lengths.
/// - **What a log cannot show, as the fit assumed it**: no force-quits
///   (`user.app.forceQuitProbability` 0) and no Low Power Mode
///   (`power.lowPowerModeAcceptProbability` 0). The fit read their effect as a stingier iOS, so
///   the fitted values already carry it; the base scenario's own force-quits would count it twice.
///
/// - **When in the day they open the app**: the logs' opens by local hour, as
///   `user.hourlyWeights` (``hourlyWeights``), with the base user's sleep (moved by the users'
///   day, ``UsersDayShift``).
///
/// The Wi-Fi share and the charging share of the records are measured and reported, not
/// fitted: the network and charging habits stay the base user's, moved by the users' day. A
/// log does not say why a phone was on Wi-Fi or on its charger, nor what it was between
/// records; users whose habits differ in shape need a base scenario with those habits (the
/// goodness of fit's charging-share rows show when they do).
package struct LoggedUsers: Sendable, Equatable {
    /// Opens per device-day.
    package var appSessionsPerDay: Double
    /// The log-normal of the logged session lengths: median in seconds and σ of the logarithm;
    /// `nil` with fewer than ``minimumSessions`` sessions.
    package var sessionMedianSeconds: Double?
    package var sessionSigma: Double?
    /// Sessions the length was measured on.
    package var sessions: Int

    /// The logged opens in each local hour, 0 … 23.
    package var opensByHour: [Int]
    /// The weights for `user.hourlyWeights` under which the simulated users open the app in
    /// each hour as often as the logged users do; `nil` with fewer than ``minimumOpensByHour``
    /// opens (the base user's hours stand).
    package var hourlyWeights: [Double]?
    /// The records that say the phone's network, and those of them on Wi-Fi.
    package var recordsWithNetwork = 0, recordsOnWiFi = 0
    /// The records that say whether the phone was charging, and those of them charging.
    package var recordsWithCharging = 0, recordsCharging = 0

    /// Sessions below which the length is not fitted [Inf].
    static let minimumSessions = 20
    /// Opens below which the hourly profile is not fitted: 10 an hour on average [Inf].
    static let minimumOpensByHour = 240
    /// How many opens' worth of the base user's hourly shares the logged shares are mixed with,
    /// so that an hour without a logged open keeps a little use [Inf]: 24, one an hour.
    static let baseOpensInHourlyProfile = 24.0

    /// The users `histories` show, their hourly profile against `base`, the base scenario's
    /// user with the users' day applied.
    init(_ histories: [DeviceHistory], base: UserParameters) {
        var opens = 0
        var days = 0.0
        var logLengths: [Double] = []
        var opensByHour = [Int](repeating: 0, count: 24)
        var network = (said: 0, wifi: 0), charging = (said: 0, charging: 0)
        func count(_ state: DeviceHistory.State) {
            if let path = state.network {
                network.said += 1
                if path == .wifi { network.wifi += 1 }
            }
            if let onPower = state.charging {
                charging.said += 1
                if onPower { charging.charging += 1 }
            }
        }
        for history in histories {
            days += history.days
            var openedAt: Double?
            for (time, step) in history.steps {
                switch step {
                case .foreground(let hour):
                    opens += 1
                    opensByHour[Swift.min(23, Swift.max(0, hour))] += 1
                    openedAt = time
                case .background:
                    if let start = openedAt, time > start, time - start < 86_400 { logLengths.append(PortableMath.log(time - start)) }
                    openedAt = nil
                case .restarted:
                    openedAt = nil
                case .launched(_, _, let state), .state(let state, _):
                    count(state)
                case .submitted: break
                }
            }
        }
        self.opensByHour = opensByHour
        (recordsWithNetwork, recordsOnWiFi) = network
        (recordsWithCharging, recordsCharging) = charging
        hourlyWeights = Self.hourlyWeights(opensByHour: opensByHour, base: base)
        appSessionsPerDay = days > 0 ? Double(opens) / days : 0
        sessions = logLengths.count
        if logLengths.count >= Self.minimumSessions {
            let mean = logLengths.reduce(0, +) / Double(logLengths.count)
            let variance = logLengths.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(logLengths.count - 1)
            sessionMedianSeconds = Swift.min(3_600, Swift.max(1, PortableMath.exp(mean)))
            sessionSigma = Swift.min(3, variance.squareRoot())
        }
    }

    /// Weights for `user.hourlyWeights` that make the simulated opens fall in each hour as
    /// `opensByHour` do, under `base`'s sleep and sessions; `nil` below ``minimumOpensByHour``
    /// opens.
    ///
    /// Each hour's logged share *s* — mixed with ``baseOpensInHourlyProfile`` opens spread as the
    /// base user's — is what the model's phone-session starts must give. Starts come only while
    /// the screen is off, so the hour's rate must be *s* ÷ (1 − *b*), with *b* = *S* × *s* × *L*
    /// the share of the hour the screen is on (*S* phone sessions a day, *L* their mean length
    /// in hours; at most 0.95); and sleep damps the rate by the hour's mean awake factor
    /// (``UserParameters/meanAwakeFactorByHour(nights:)``), so the weight is the rate divided
    /// by it, the largest set to 1.
    static func hourlyWeights(opensByHour: [Int], base: UserParameters) -> [Double]? {
        let opens = opensByHour.reduce(0, +)
        guard opens >= minimumOpensByHour else { return nil }
        let awake = base.meanAwakeFactorByHour()
        let baseRates = (0..<24).map { base.hourlyWeights[$0] * awake[$0] }
        let baseTotal = baseRates.reduce(0, +)
        guard baseTotal > 0 else { return nil }
        let sessionHours = LogNormalDistribution(median: base.sessionMedianSeconds, sigma: base.sessionSigma).mean / 3_600
        let weights = (0..<24).map { hour -> Double in
            let share = (Double(opensByHour[hour]) + baseOpensInHourlyProfile * baseRates[hour] / baseTotal)
                / (Double(opens) + baseOpensInHourlyProfile)
            let screenOn = Swift.min(0.95, base.sessionsPerDay * share * sessionHours)
            return share / (1 - screenOn) / Swift.max(awake[hour], 1e-3)
        }
        guard let largest = weights.max(), largest > 0 else { return nil }
        return weights.map { LaunchCalibration.fourSignificantDigits($0 / largest) }
    }

    /// The fragment's `user.app` fields: the sessions a day, at most the base scenario's phone
    /// sessions a day `phoneSessionsPerDay` (an app is opened in a phone session, and a scenario
    /// refuses more), and no force-quits.
    func appFields(phoneSessionsPerDay: Double) -> [(String, JSONValue)] {
        [("profile", .string(AppUsageProfile.custom.rawValue)),
         ("customSessionsPerDay", .number(Swift.min(phoneSessionsPerDay, LaunchCalibration.fourSignificantDigits(appSessionsPerDay)))),
         ("forceQuitProbability", .number(0))]
    }

    /// The sentence that says what was taken from the logs.
    var description: String {
        let length = sessionMedianSeconds.map { median in
            " (logged sessions: median \(Format.significant(median)) s, σ \(Format.significant(sessionSigma ?? 0)), \(sessions) of them; not written)"
        } ?? ""
        let opens = opensByHour.reduce(0, +)
        let hours = hourlyWeights.map { weights in
            let busiest = weights.indices.max { weights[$0] < weights[$1] } ?? 0
            return "; their opens by hour of the day (busiest \(busiest):00–\(busiest + 1):00)"
        } ?? "; the base user's hours of the day (\(opens) opens are too few to fit them, under \(Self.minimumOpensByHour))"
        func share(_ part: Int, _ whole: Int) -> String { whole > 0 ? Format.significant(100 * Double(part) / Double(whole)) + " %" : "none" }
        return "Your users, from the logs: \(Format.significant(appSessionsPerDay)) app sessions a day\(length)\(hours); "
            + "no force-quits and no Low Power Mode, as the fit assumed (a log cannot show them); the fragment carries them. "
            + "Measured, not fitted: Wi-Fi at \(share(recordsOnWiFi, recordsWithNetwork)) of the records that say the network and "
            + "charging at \(share(recordsCharging, recordsWithCharging)) of those that say the battery's state (the base user's "
            + "network and charging habits stand)"
    }
}
