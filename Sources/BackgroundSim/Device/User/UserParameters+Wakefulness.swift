import SimKernel

extension UserParameters {
    /// For each local hour 0 … 23, the mean factor by which sleep damps that hour's weight in
    /// ``hourlyWeights``: 1 for an hour the user is always awake, ``asleepIntensityFactor`` for
    /// one always asleep, and between for an hour sleep starts or ends in, over `nights` nights
    /// drawn as a simulated user's are (their jitter included; seed 0, device 0).
    ///
    /// Phone sessions start at a rate proportional to the weight times this factor, and the app
    /// is opened in a fixed share of them, so the share of app opens in hour *h* is
    /// proportional to `hourlyWeights[h] × factor[h]`. Calibration divides the opens a log shows
    /// by it to find the weights that give them.
    ///
    /// - Parameter nights: Nights averaged over, at least 1.
    package func meanAwakeFactorByHour(nights: Int = 364) -> [Double] {
        precondition(nights >= 1, "at least one night")
        let calendar = CalendarParameters().calendar
        let user = UserBehaviour(parameters: self, calendar: calendar, seed: 0, device: 0)
        var asleepHours = [Double](repeating: 0, count: 24)
        for day in 0..<nights {
            let midnight = calendar.midnight(ofDay: day)
            for night in [user.night(of: day - 1), user.night(of: day)] {
                for hour in 0..<24 {
                    let start = midnight + .hours(hour), end = start + .hours(1)
                    let from = Swift.max(start, night.sleep), to = Swift.min(end, night.wake)
                    if from < to { asleepHours[hour] += from.duration(to: to).seconds / 3_600 }
                }
            }
        }
        return asleepHours.map { 1 - ($0 / Double(nights)) * (1 - asleepIntensityFactor) }
    }
}
