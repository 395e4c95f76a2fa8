import SimKernel

/// The battery's state of charge in joules, integrated exactly between events.
///
/// Between two events the net power is constant (the simulation changes it only at events), so
/// the charge moves linearly and ``advance(to:)`` is exact. Threshold crossings (20 %, 10 %, 0 %,
/// 50 %, 80 %, 100 %) are computed with ``timeToReach(percent:)`` and scheduled as events, never
/// found by polling.
package struct Battery: Sendable, Equatable {
    /// Usable capacity in joules (rated capacity × voltage × health).
    package let capacityJoules: Double
    /// Stored energy in joules, 0 ... capacity.
    package private(set) var energyJoules: Double
    /// Net power into the battery in watts: positive while charging, negative while discharging.
    package private(set) var netWatts: Double = 0
    /// When ``energyJoules`` was last brought up to date.
    package private(set) var updated: SimInstant
    /// Energy that has flowed out while discharging, in joules, as integrated: what the device's
    /// ``EnergyLedger`` books to the battery must add up to this.
    package private(set) var dischargedJoules = 0.0

    /// Creates a battery at `percent` of `capacityJoules`.
    package init(capacityJoules: Double, percent: Double, at instant: SimInstant) {
        precondition(capacityJoules > 0, "Battery: capacity must be positive")
        self.capacityJoules = capacityJoules
        energyJoules = capacityJoules * Swift.min(100, Swift.max(0, percent)) / 100
        updated = instant
    }

    /// The state of charge in percent.
    package var percent: Double { energyJoules / capacityJoules * 100 }

    /// The state of charge in percent, rounded to 10⁻⁹ %, for comparing with thresholds.
    ///
    /// After ``snap(toPercent:)``, `percent` can read a last-bit away from the threshold
    /// (`79.99999999999999`); decisions that compare the level with a threshold use this
    /// instead, so the level *is* the threshold.
    package var level: Double { (percent * 1e9).rounded() / 1e9 }

    /// Integrates the net power from the last update to `instant`, clamping to empty and full.
    package mutating func advance(to instant: SimInstant) {
        defer { checkInvariantsIfEnabled() }
        guard instant > updated else { return }
        let seconds = Double(instant.nanosecondsSinceStart - updated.nanosecondsSinceStart) * 1e-9
        let before = energyJoules
        energyJoules = Swift.min(capacityJoules, Swift.max(0, energyJoules + netWatts * seconds))
        if energyJoules < before { dischargedJoules += before - energyJoules }
        updated = instant
    }

    /// Sets the net power from now on. Call ``advance(to:)`` first.
    package mutating func setNetWatts(_ watts: Double) {
        defer { checkInvariantsIfEnabled() }
        netWatts = watts
    }

    /// Sets the stored energy to exactly `percent` (used at a crossing event, where integration
    /// leaves the level within a nanosecond's worth of energy of the threshold).
    package mutating func snap(toPercent percent: Double) {
        defer { checkInvariantsIfEnabled() }
        energyJoules = capacityJoules * percent / 100
    }

    /// How long until the level reaches `percent` at the current net power, rounded up to the next
    /// nanosecond so that the level has reached it when the event fires; `nil` if it is moving
    /// away from `percent` or not moving.
    package func timeToReach(percent: Double) -> SimDuration? {
        let target = capacityJoules * percent / 100
        let difference = target - energyJoules
        guard netWatts != 0, (difference > 0) == (netWatts > 0), difference != 0 else { return nil }
        let nanoseconds = (difference / netWatts * 1e9).rounded(.up)
        guard nanoseconds < 9.2e18 else { return nil }
        return .nanoseconds(Int64(nanoseconds))
    }
}
