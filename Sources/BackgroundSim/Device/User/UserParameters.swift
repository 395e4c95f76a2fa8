/// How the simulated person uses the phone and the app: sessions, sleep, app usage, force-quits.
///
/// Tags: [A] Apple, [O] observed in the field (papers, measurements, filings, press), [Inf] our
/// inference; docs/SOURCES.md gives each source in full.
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct UserParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// Phone sessions (screen on, unlocked) per day, on average.
    ///
    /// Falaki et al. 2010: 10–200 interactions a day [O]; Andrews et al. 2015: about 85 [O]; [Inf].
    public var sessionsPerDay: Double = 60

    /// Median length of a phone session, in seconds.
    ///
    /// Log-normal body calibrated to Böhmer et al. 2011 (mean app session 71.6 s) and Ferreira et
    /// al. 2014 (about 40 % under 15 s) [Inf].
    public var sessionMedianSeconds: Double = 60

    /// Spread (σ of the logarithm) of phone-session length.
    ///
    /// With the default median the default gives a mean of about 216 s and 3.6 h/day of screen-on
    /// time [Inf].
    public var sessionSigma: Double = 1.6

    /// The longest a phone session lasts, in minutes; longer draws are cut to this.
    ///
    /// Our assumption [Inf]: cuts the log-normal's far tail (0.01 % of sessions at the defaults).
    public var sessionMaximumMinutes: Double = 180

    /// Relative intensity of phone use for each local hour 00..23 (24 numbers from 0 to 1,000, at
    /// least one above 0).
    ///
    /// Default: weights peaking at 21–22 h and lowest at 02–05 h
    /// (Localytics' 9–10 pm peak [O]; shape [Inf]).
    public var hourlyWeights: [Double] = [
        0.5, 0.25, 0.15, 0.1, 0.1, 0.2, 0.6, 1.0, 1.1, 1.0, 1.0, 1.0,
        1.1, 1.0, 1.0, 1.0, 1.05, 1.1, 1.15, 1.2, 1.3, 1.4, 1.3, 0.9,
    ]

    /// When the user usually falls asleep, local time. A time earlier on the clock than
    /// ``wakeTime`` (02:30 for a 10:00 wake) is in the early hours after midnight.
    ///
    /// Default 23:30; plausible 21:30–02:00. [Inf].
    public var sleepStart: TimeOfDay = TimeOfDay(hour: 23, minute: 30)

    /// When the user usually wakes, local time.
    ///
    /// Default 07:00; plausible 05:00–10:00. [Inf].
    public var wakeTime: TimeOfDay = TimeOfDay(hour: 7)

    /// Night-to-night jitter of falling asleep and waking: the standard deviation of a normal
    /// shift, in minutes, cut at ±3 σ.
    ///
    /// A ± 1 h window, our assumption [Inf].
    public var sleepJitterMinutes: Double = 30

    /// How much of the hourly intensity remains while the user is asleep (a glance at the phone
    /// at night).
    ///
    /// The default gives about half a pick-up a night. Our assumption [Inf].
    public var asleepIntensityFactor: Double = 0.05

    /// How the user uses the simulated app.
    public var app = AppUsageParameters()
}

/// How often the user opens the simulated app, for how long, and how they leave it.
///
/// App sessions are a subset of phone sessions: each phone session opens the app with the
/// probability that makes the app's sessions per day come out right, so the app's use follows
/// the same daily rhythm as the phone's.
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct AppUsageParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// How often the app is used; see ``AppUsageProfile``. Default `daily`.
    public var profile: AppUsageProfile = .daily

    /// App sessions per day when ``profile`` is `custom`: at most the phone's sessions per day.
    ///
    /// [Inf]
    public var customSessionsPerDay: Double = 1

    /// Median time the app stays in the foreground in one session, in seconds; cut to the phone
    /// session that contains it.
    ///
    /// With the default σ the mean is about 74 s, matching Böhmer et al. 2011's mean app session
    /// of 71.6 s [O].
    public var sessionMedianSeconds: Double = 45

    /// Spread (σ of the logarithm) of app-session length. [Inf]
    public var sessionSigma: Double = 1.0

    /// Probability that an app session ends with the user swiping the app away in the app
    /// switcher (a force-quit, which stops background launches until the user opens the app).
    ///
    /// Our assumption [Inf]; Apple documents the effect, not how often users do it ("Background
    /// execution demystified", WWDC 2020 session 10063).
    public var forceQuitProbability: Double = 0.1

    /// Periods when the user does not open the app at all (holidays, churn).
    public var absences: [AppAbsence] = []
}

/// A period of whole days in which the app is not opened.
public struct AppAbsence: Codable, Sendable, Equatable {
    /// The first day of the absence (day 0 is the simulation's first day). Valid ≥ 0.
    public var startDay: Int
    /// How many days it lasts. Valid ≥ 1.
    public var days: Int

    public init(startDay: Int, days: Int) {
        self.startDay = startDay
        self.days = days
    }

    /// Whether `day` falls in the absence.
    public func contains(day: Int) -> Bool { day >= startDay && day - startDay < days }
}

/// How often a user opens an app, as a named profile.
public enum AppUsageProfile: String, NamedChoice, Sendable {
    /// About 6 sessions a day (a messenger or news app) [Inf].
    case severalTimesADay
    /// About 1.5 sessions a day [Inf].
    case daily
    /// About one session a week [Inf].
    case weekly
    /// About one session a month [Inf].
    case rare
    /// `customSessionsPerDay` sessions a day.
    case custom

    /// Expected app sessions per day for this profile (`custom` uses `customValue`).
    public func sessionsPerDay(customValue: Double) -> Double {
        switch self {
        case .severalTimesADay: 6
        case .daily: 1.5
        case .weekly: 1.0 / 7
        case .rare: 1.0 / 30
        case .custom: customValue
        }
    }

}

extension UserParameters: ScenarioSection {
    package static let numberFields: [NumberField<UserParameters>] = [
        NumberField("sessionsPerDay", \.sessionsPerDay, valid: 0...400, plausible: 20...150),
        NumberField("sessionMedianSeconds", \.sessionMedianSeconds, valid: 1...3_600, plausible: 20...200),
        NumberField("sessionSigma", \.sessionSigma, valid: 0...3, plausible: 1...2),
        NumberField("sessionMaximumMinutes", \.sessionMaximumMinutes, valid: 1...1_440),
        NumberField("sleepJitterMinutes", \.sleepJitterMinutes, valid: 0...180),
        NumberField("asleepIntensityFactor", \.asleepIntensityFactor, valid: 0...1),
    ]

    package func validateRelations(_ v: inout ParameterValidator) {
        v.checkHourlyWeights(hourlyWeights, "hourlyWeights")
        app.validate(&v, at: "app")
        if app.profile == .custom && app.customSessionsPerDay <= 400 {
            // A custom profile's sessions are some of the phone's.
            v.check(app.customSessionsPerDay, from: 0, to: sessionsPerDay, "app.customSessionsPerDay")
        }
    }
}

extension AppUsageParameters: ScenarioSection {
    package static let numberFields: [NumberField<AppUsageParameters>] = [
        NumberField("customSessionsPerDay", \.customSessionsPerDay, valid: 0...400),
        NumberField("sessionMedianSeconds", \.sessionMedianSeconds, valid: 1...3_600),
        NumberField("sessionSigma", \.sessionSigma, valid: 0...3),
        NumberField("forceQuitProbability", \.forceQuitProbability, valid: 0...1),
    ]

    package func validateRelations(_ v: inout ParameterValidator) {
        for (index, absence) in absences.enumerated() {
            v.check(absence.startDay, 0...SimulationRunner.maximumDays, "absences[\(index)].startDay")
            v.check(absence.days, SimulationRunner.days, "absences[\(index)].days")
        }
    }
}
