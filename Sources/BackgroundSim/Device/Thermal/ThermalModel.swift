import SimKernel

/// The phone's thermal state, like `ProcessInfo.ThermalState`.
public enum ThermalState: UInt8, Sendable, Comparable, CaseIterable {
    case nominal, fair, serious, critical

    public static func < (lhs: ThermalState, rhs: ThermalState) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A first-order thermal model: the heat level H follows the heat input Q with time constant τ,
/// H(t) = Q + (H₀ − Q) e^(−t/τ), evaluated exactly between events. See ``ThermalParameters``.
public struct ThermalModel: Sendable, Equatable {
    public let parameters: ThermalParameters
    /// Heat level in watts of sustained input.
    public private(set) var heatWatts: Double = 0
    /// Current heat input in watts.
    public private(set) var inputWatts: Double = 0
    private var updated: SimInstant

    public init(parameters: ThermalParameters, at instant: SimInstant) {
        self.parameters = parameters
        updated = instant
    }

    /// Brings the heat level up to `instant`.
    public mutating func advance(to instant: SimInstant) {
        guard instant > updated else { return }
        let seconds = Double(instant.nanosecondsSinceStart - updated.nanosecondsSinceStart) * 1e-9
        let decay = PortableMath.exp(-seconds / (parameters.timeConstantMinutes * 60))
        heatWatts = inputWatts + (heatWatts - inputWatts) * decay
        updated = instant
    }

    /// Sets the heat input from now on: the device's consumption plus charging losses.
    public mutating func setInput(consumptionWatts: Double, chargingWatts: Double) {
        inputWatts = consumptionWatts + chargingWatts * parameters.chargingHeatFraction
    }

    /// The thermal state at the last update.
    public var state: ThermalState {
        if heatWatts >= parameters.criticalWatts { return .critical }
        if heatWatts >= parameters.seriousWatts { return .serious }
        if heatWatts >= parameters.fairWatts { return .fair }
        return .nominal
    }
}
