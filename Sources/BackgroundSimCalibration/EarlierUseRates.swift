import BackgroundSim

extension DeviceHistory {
    /// `histories` with the rate each log that began after install measures its earlier use in
    /// (``LoggedUse/opensPerDay``) drawn from its own rate of opens towards the mean of those
    /// logs, by how much of the spread between them is noise (an empirical Bayes estimate of
    /// each device's long-run rate: Efron & Morris, *JASA* 70(350):311–319, 1975).
    ///
    /// The likelihood integrates out the earlier use `u` as a fraction of that rate, with one
    /// distribution of `u` for every device (``EarlierUseMixture``). Measured in a device's own
    /// rate, `u` is not alike across devices: a phone that by chance logged fewer opens than its
    /// user's long-run rate had learnt more than its rate says, so `u` runs high where the
    /// logged rate runs low, and one distribution for all gives the light loggers too little
    /// earlier use and the heavy ones too much — an error in the covariate the budget per
    /// session multiplies, which flattens that slope and raises the base budget (on 60-phone
    /// logs begun 2, 7 and 21 days after install, median base budgets 0.503, 0.511 and 0.525
    /// against a true 0.5). Drawn towards the mean, the rate is each device's best estimate of
    /// its user's, and what `u` varies with is what the phone's earlier days held.
    ///
    /// Each device's logged rate has the noise variance of its days' counts over its days
    /// (the counts' sample variance pooled over devices, divided by the device's days); the
    /// users' spread is the logged rates' variance less the mean noise variance (at least 0);
    /// a device keeps the share spread ÷ (spread + its noise) of its distance from the mean.
    /// With fewer than ``minimumDevicesToPool`` such logs, each keeps its own rate.
    static func withEarlierUseRates(_ histories: [DeviceHistory]) -> [DeviceHistory] {
        let uses = histories.compactMap(\.loggedUse)
        guard uses.count >= minimumDevicesToPool else { return histories }
        let totalDays = uses.reduce(0) { $0 + $1.days }
        let mean = uses.reduce(0) { $0 + $1.ownOpensPerDay * $1.days } / totalDays
        // The daily counts' variance within a device, pooled over devices by their degrees of freedom.
        let freedom = uses.reduce(0) { $0 + Swift.max(0, $1.days - 1) }
        let within = freedom > 0 ? uses.reduce(0) { $0 + $1.dailyOpensVariance * Swift.max(0, $1.days - 1) } / freedom : 0
        let noise = uses.map { within / $0.days }
        let spread = uses.reduce(0) { $0 + ($1.ownOpensPerDay - mean) * ($1.ownOpensPerDay - mean) } / Double(uses.count - 1)
        let between = Swift.max(0, spread - noise.reduce(0, +) / Double(uses.count))
        var result = histories
        var next = 0
        for index in result.indices where result[index].loggedUse != nil {
            let own = result[index].loggedUse!.ownOpensPerDay
            let kept = between + noise[next] > 0 ? between / (between + noise[next]) : 1
            result[index].loggedUse!.opensPerDay = mean + kept * (own - mean)
            next += 1
        }
        return result
    }

    /// The fewest logs begun after install whose rates are pooled: default 10 logs, plausible
    /// 5–20 [Inf]; with fewer the spread between them says too little. (Refresh intervals need
    /// 50 devices anyway: ``LaunchCalibration/minimumDevices(_:)``.)
    static let minimumDevicesToPool = 10
}
