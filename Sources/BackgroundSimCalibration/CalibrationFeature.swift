import BackgroundSimLab

/// A feature of when the system launched an app's tasks that the goodness-of-fit check
/// compares between field logs and simulations of the fitted model.
package enum CalibrationFeature: Int, CaseIterable, Sendable {
    case launchesPerDay
    case nightLaunchesPerDay, morningLaunchesPerDay, afternoonLaunchesPerDay, eveningLaunchesPerDay
    case delayMedianMinutes, delayP90Minutes
    case spacingMedianMinutes
    case chargingShare
    case fadeUnder1Day, fade1To3Days, fade3To7Days, fade7To14Days, fadeOver14Days
    case deviceSpread
    case quietAfterClose

    /// What the feature is, as a report names it.
    package var title: String {
        switch self {
        case .launchesPerDay: "launches per day"
        case .nightLaunchesPerDay: "night launches (00–06) per day"
        case .morningLaunchesPerDay: "morning launches (06–12) per day"
        case .afternoonLaunchesPerDay: "afternoon launches (12–18) per day"
        case .eveningLaunchesPerDay: "evening launches (18–24) per day"
        case .delayMedianMinutes: "median delay after the earliest begin (min)"
        case .delayP90Minutes: "p90 delay after the earliest begin (min)"
        case .spacingMedianMinutes: "median spacing between launches (min)"
        case .chargingShare: "share of launches on the charger"
        case .fadeUnder1Day: "launches per day < 1 day after last use"
        case .fade1To3Days: "launches per day 1–3 days after last use"
        case .fade3To7Days: "launches per day 3–7 days after last use"
        case .fade7To14Days: "launches per day 7–14 days after last use"
        case .fadeOver14Days: "launches per day ≥ 14 days after last use"
        case .deviceSpread: "device-to-device spread of launches per day (coefficient of variation)"
        case .quietAfterClose: "share of closes of 6 h or more with no launch before the next open"
        }
    }

    /// A label of at most 24 characters, for a chart's rows.
    package var shortTitle: String {
        switch self {
        case .launchesPerDay: "launches per day"
        case .nightLaunchesPerDay: "night (00–06)"
        case .morningLaunchesPerDay: "morning (06–12)"
        case .afternoonLaunchesPerDay: "afternoon (12–18)"
        case .eveningLaunchesPerDay: "evening (18–24)"
        case .delayMedianMinutes: "median delay"
        case .delayP90Minutes: "p90 delay"
        case .spacingMedianMinutes: "median spacing"
        case .chargingShare: "share on the charger"
        case .fadeUnder1Day: "< 1 day after use"
        case .fade1To3Days: "1–3 days after use"
        case .fade3To7Days: "3–7 days after use"
        case .fade7To14Days: "7–14 days after use"
        case .fadeOver14Days: "≥ 14 days after use"
        case .deviceSpread: "spread between devices"
        case .quietAfterClose: "closes with no launch"
        }
    }

    /// A short name for tables, CSV and JSON.
    package var key: String {
        switch self {
        case .launchesPerDay: "launchesPerDay"
        case .nightLaunchesPerDay: "nightLaunchesPerDay"
        case .morningLaunchesPerDay: "morningLaunchesPerDay"
        case .afternoonLaunchesPerDay: "afternoonLaunchesPerDay"
        case .eveningLaunchesPerDay: "eveningLaunchesPerDay"
        case .delayMedianMinutes: "delayMedianMinutes"
        case .delayP90Minutes: "delayP90Minutes"
        case .spacingMedianMinutes: "spacingMedianMinutes"
        case .chargingShare: "chargingShare"
        case .fadeUnder1Day: "launchesPerDayUnder1DayAfterUse"
        case .fade1To3Days: "launchesPerDay1To3DaysAfterUse"
        case .fade3To7Days: "launchesPerDay3To7DaysAfterUse"
        case .fade7To14Days: "launchesPerDay7To14DaysAfterUse"
        case .fadeOver14Days: "launchesPerDayOver14DaysAfterUse"
        case .deviceSpread: "deviceSpread"
        case .quietAfterClose: "quietAfterCloseShare"
        }
    }

    /// The local hours of an hour-of-day feature.
    var hours: Range<Int>? {
        switch self {
        case .nightLaunchesPerDay: 0..<6
        case .morningLaunchesPerDay: 6..<12
        case .afternoonLaunchesPerDay: 12..<18
        case .eveningLaunchesPerDay: 18..<24
        default: nil
        }
    }

    /// The device-days a fade bin needs observed before its rate is compared: with fewer, a
    /// handful of launches (or none) says little.
    static let minimumFadeExposureDays = 5.0

    /// Every feature's value for a set of devices' summaries, in case order; `nil` where the
    /// summaries have no data for it (a fade bin with under ``minimumFadeExposureDays``
    /// observed, a spread with fewer than two devices observed for a day).
    static func values(_ summaries: [DeviceLaunchSummary]) -> [Double?] {
        let days = summaries.reduce(0) { $0 + $1.days }
        let launches = summaries.reduce(0) { $0 + $1.launches }
        func perDay(_ count: Int) -> Double? { days > 0 ? Double(count) / days : nil }
        var delays = summaries.flatMap(\.delaysMinutes)
        var spacings = summaries.flatMap(\.spacingsMinutes)
        let withCharging = summaries.reduce(0) { $0 + $1.launchesWithCharging }
        let onCharger = summaries.reduce(0) { $0 + $1.launchesOnCharger }
        let rates = summaries.filter { $0.days >= 1 }.map { Double($0.launches) / $0.days }
        let longGaps = summaries.reduce(0) { $0 + $1.longGaps }
        let quietLongGaps = summaries.reduce(0) { $0 + $1.quietLongGaps }
        return allCases.map { feature -> Double? in
            if let hours = feature.hours {
                return perDay(summaries.reduce(0) { total, summary in total + hours.reduce(0) { $0 + summary.launchesByHour[$1] } })
            }
            switch feature {
            case .launchesPerDay: return perDay(launches)
            case .delayMedianMinutes: return Quantile.interpolated(selectingFrom: &delays, 0.5)
            case .delayP90Minutes: return Quantile.interpolated(selectingFrom: &delays, 0.9)
            case .spacingMedianMinutes: return Quantile.interpolated(selectingFrom: &spacings, 0.5)
            case .chargingShare: return withCharging > 0 ? Double(onCharger) / Double(withCharging) : nil
            case .fadeUnder1Day, .fade1To3Days, .fade3To7Days, .fade7To14Days, .fadeOver14Days:
                let bin = feature.rawValue - CalibrationFeature.fadeUnder1Day.rawValue
                let exposure = summaries.reduce(0) { $0 + $1.fadeExposureDays[bin] }
                let count = summaries.reduce(0) { $0 + $1.fadeLaunches[bin] }
                return exposure >= minimumFadeExposureDays ? Double(count) / exposure : nil
            case .deviceSpread:
                guard rates.count >= 2 else { return nil }
                let mean = rates.reduce(0, +) / Double(rates.count)
                guard mean > 0 else { return nil }
                let variance = rates.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(rates.count - 1)
                return variance.squareRoot() / mean
            case .quietAfterClose:
                // What a force-quit leaves: no launch until the next open [A: the app switcher
                // is one of the factors, WWDC 2020 session 10063].
                return longGaps > 0 ? Double(quietLongGaps) / Double(longGaps) : nil
            default: return nil
            }
        }
    }
}
