import SimKernel

/// A first-order thermal model: the heat level H follows the heat input Q with time constant τ,
/// H(t) = Q + (H₀ − Q) e^(−t/τ), evaluated exactly between events. See ``ThermalParameters``.
package struct ThermalModel: Sendable, Equatable {
    package let parameters: ThermalParameters
    /// Heat level in watts of sustained input.
    package private(set) var heatWatts: Double = 0
    /// Current heat input in watts.
    package private(set) var inputWatts: Double = 0
    private var updated: SimInstant

    package init(parameters: ThermalParameters, at instant: SimInstant) {
        self.parameters = parameters
        updated = instant
    }

    /// Brings the heat level up to `instant`. (Inlined into the device's advance, which runs at
    /// every event: not inlined, 400 days of coverdrop-push took 0.9 M more instructions.)
    @inline(__always)
    package mutating func advance(to instant: SimInstant) {
        defer { checkInvariantsIfEnabled() }
        guard instant > updated else { return }
        let seconds = Double(instant.nanosecondsSinceStart - updated.nanosecondsSinceStart) * 1e-9
        let decay = PortableMath.exp(-seconds / (parameters.timeConstantMinutes * 60))
        heatWatts = inputWatts + (heatWatts - inputWatts) * decay
        updated = instant
    }

    /// Sets the heat input from now on: the device's consumption plus charging losses.
    package mutating func setInput(consumptionWatts: Double, chargingWatts: Double) {
        defer { checkInvariantsIfEnabled() }
        inputWatts = consumptionWatts + chargingWatts * parameters.chargingHeatFraction
    }

    /// The thermal state at the last update.
    package var state: ThermalState {
        if heatWatts >= parameters.criticalWatts { return .critical }
        if heatWatts >= parameters.seriousWatts { return .serious }
        if heatWatts >= parameters.fairWatts { return .fair }
        return .nominal
    }
}
