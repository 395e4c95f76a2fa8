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
/// When opens are spread over the day is the base user's, moved by the users' day
/// (``UsersDayShift``); charging likewise. The Wi-Fi share, session counts by hour and charging
/// habits in other shapes are not fitted: a base scenario with those habits is needed.
package struct LoggedUsers: Sendable, Equatable {
    /// Opens per device-day.
    package var appSessionsPerDay: Double
    /// The log-normal of the logged session lengths: median in seconds and σ of the logarithm;
    /// `nil` with fewer than ``minimumSessions`` sessions.
    package var sessionMedianSeconds: Double?
    package var sessionSigma: Double?
    /// Sessions the length was measured on.
    package var sessions: Int

    /// Sessions below which the length is not fitted [Inf].
    static let minimumSessions = 20

    init(_ histories: [DeviceHistory]) {
        var opens = 0
        var days = 0.0
        var logLengths: [Double] = []
        for history in histories {
            days += history.days
            var openedAt: Double?
            for (time, step) in history.steps {
                switch step {
                case .foreground:
                    opens += 1
                    openedAt = time
                case .background:
                    if let start = openedAt, time > start, time - start < 86_400 { logLengths.append(PortableMath.log(time - start)) }
                    openedAt = nil
                case .restarted:
                    openedAt = nil
                default: break
                }
            }
        }
        appSessionsPerDay = days > 0 ? Double(opens) / days : 0
        sessions = logLengths.count
        if logLengths.count >= Self.minimumSessions {
            let mean = logLengths.reduce(0, +) / Double(logLengths.count)
            let variance = logLengths.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(logLengths.count - 1)
            sessionMedianSeconds = Swift.min(3_600, Swift.max(1, PortableMath.exp(mean)))
            sessionSigma = Swift.min(3, variance.squareRoot())
        }
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
        return "Your users, from the logs: \(Format.significant(appSessionsPerDay)) app sessions a day\(length); "
            + "no force-quits and no Low Power Mode, as the fit assumed (a log cannot show them); the fragment carries them"
    }
}
