import SimKernel

/// The app's energy and data budgets (``LaunchBudgetParameters``): two buckets, each holding at
/// most a day's allowance, refilled continuously and drawn down by the app's background battery
/// energy and its background cellular bytes. The emptier bucket scales launch chances.
struct LaunchBudgets {
    let parameters: LaunchBudgetParameters
    /// Joules and bytes left; they may fall below zero (a debt of at most a day's allowance).
    private(set) var energyLevel: Double
    private(set) var dataLevel: Double
    private var updated = SimInstant.start
    /// The drawn totals seen at the last update.
    private(set) var energySeen = 0.0
    private(set) var dataSeen = 0.0

    init(parameters: LaunchBudgetParameters) {
        self.parameters = parameters
        energyLevel = parameters.energyJoulesPerDay
        dataLevel = parameters.cellularMegabytesPerDay * 1e6
    }

    var energyCapacity: Double { parameters.energyJoulesPerDay }
    var dataCapacity: Double { parameters.cellularMegabytesPerDay * 1e6 }

    /// Brings both buckets to `now`: each loses what the app drew since the last update and gains
    /// its allowance for the time elapsed, then is held between minus and plus a day's worth.
    mutating func update(at now: SimInstant, energyDrawn: Double, dataDrawn: Double) {
        // The app's background energy and bytes only grow (debug builds; a fall would refill the buckets).
        assert(energyDrawn >= energySeen && dataDrawn >= dataSeen,
               "LaunchBudgets: drawn totals fell from \(energySeen) J, \(dataSeen) bytes to \(energyDrawn), \(dataDrawn)")
        defer { checkInvariantsIfEnabled() }
        let days = updated.duration(to: now).seconds / 86_400
        energyLevel = Swift.min(energyCapacity, Swift.max(-energyCapacity, energyLevel - (energyDrawn - energySeen) + days * energyCapacity))
        dataLevel = Swift.min(dataCapacity, Swift.max(-dataCapacity, dataLevel - (dataDrawn - dataSeen) + days * dataCapacity))
        energySeen = energyDrawn
        dataSeen = dataDrawn
        if now > updated { updated = now }
    }

    /// The factor launch chances are multiplied by, 0 … 1, and the budget that sets it.
    var factor: (value: Double, limitedBy: LaunchDenial) {
        let energyShare = Swift.max(0, energyLevel) / energyCapacity
        let dataShare = Swift.max(0, dataLevel) / dataCapacity
        let share = Swift.min(energyShare, dataShare)
        return (Swift.min(1, share / parameters.kneeShare), energyShare <= dataShare ? .energyBudget : .dataBudget)
    }
}
