import SimKernel

/// Who used energy, and whether it came from the battery or the charger.
///
/// Each consumer draws a constant power between events; ``advance(to:onCharger:)`` books power ×
/// time to each consumer exactly. While the phone is on the charger, consumption is supplied by
/// the charger and the battery only charges (a simplification [Inf]: a 20 W adapter covers the
/// phone's load and the charge current together).
package struct EnergyLedger: Sendable, Equatable {
    /// A consumer of energy.
    package typealias Consumer = EnergyConsumer

    /// Current power of each consumer, in watts, indexed by `Consumer.rawValue`.
    private(set) var watts = [Double](repeating: 0, count: Consumer.allCases.count)
    /// Joules drawn from the battery, by consumer.
    private(set) var fromBattery = [Double](repeating: 0, count: Consumer.allCases.count)
    /// Joules supplied by the charger, by consumer.
    private(set) var fromCharger = [Double](repeating: 0, count: Consumer.allCases.count)
    /// Joules, from the battery and the charger, drawn while the app was not in the foreground.
    private(set) var whileAppInBackground = [Double](repeating: 0, count: Consumer.allCases.count)
    /// Joules of the app's consumers drawn from the battery while the app was not in the
    /// foreground: what its energy budget counts.
    package private(set) var appBackgroundBatteryJoules = 0.0
    private var updated: SimInstant

    package init(at instant: SimInstant) {
        updated = instant
    }

    /// Books energy from the last update to `instant`; with `appInBackground`, the app's
    /// consumers' energy also counts as drawn while the app was not in the foreground.
    package mutating func advance(to instant: SimInstant, onCharger: Bool, appInBackground: Bool = false) {
        defer { checkInvariantsIfEnabled() }
        guard instant > updated else { return }
        let seconds = Double(instant.nanosecondsSinceStart - updated.nanosecondsSinceStart) * 1e-9
        for index in watts.indices where watts[index] != 0 {
            let joules = watts[index] * seconds
            if onCharger {
                fromCharger[index] += joules
            } else {
                fromBattery[index] += joules
            }
            if appInBackground && index >= Consumer.appCPU.rawValue {
                whileAppInBackground[index] += joules
                if !onCharger { appBackgroundBatteryJoules += joules }
            }
        }
        updated = instant
    }

    /// Sets a consumer's power from now on. Call ``advance(to:onCharger:)`` first.
    ///
    /// `value` must be finite and not negative: the device's own powers are validated with the
    /// scenario, and the app's are computed from validated parameters; the ledger's and the
    /// device's invariants check every power under internal checks. (Checked here on every
    /// call, the seven calls of each power update cost 5 % of a run's instructions: the check
    /// keeps the compiler from merging the stores.)
    package mutating func setWatts(_ value: Double, for consumer: Consumer) {
        watts[consumer.rawValue] = value
    }

    /// A consumer's current power in watts.
    package func watts(of consumer: Consumer) -> Double { watts[consumer.rawValue] }

    /// The total power of all consumers, in watts.
    package var totalWatts: Double { watts.reduce(0, +) }

    /// Joules `consumer` drew from the battery.
    package func batteryJoules(of consumer: Consumer) -> Double { fromBattery[consumer.rawValue] }

    /// Joules the charger supplied to `consumer`.
    package func chargerJoules(of consumer: Consumer) -> Double { fromCharger[consumer.rawValue] }
    /// Joules `consumer` drew (from the battery or the charger) while the app was not in the
    /// foreground; for the app's consumers only.
    package func backgroundJoules(of consumer: Consumer) -> Double { whileAppInBackground[consumer.rawValue] }

    /// Joules drawn from the battery by all consumers.
    package var totalBatteryJoules: Double { fromBattery.reduce(0, +) }
}

/// Who used energy: the phone itself, or the simulated app (by component).
public enum EnergyConsumer: Int, Sendable, Hashable, CaseIterable {
    /// The phone in use, screen on (``DeviceParameters/screenOnWatts``).
    case screen
    /// The phone with the screen off, excluding the app (``DeviceParameters/screenOffBaselineWatts``).
    case baseline
    /// The app's CPU work.
    case appCPU
    /// The app's radio promotions from idle to connected.
    case appRadioPromotion
    /// The app's radio time while transferring.
    case appRadioActive
    /// The app's radio tails after transfers.
    case appRadioTail
    /// The fixed cost of launching or resuming the app in the background.
    case appLaunchOverhead

    /// Whether this consumer is the simulated app.
    public var isApp: Bool { rawValue >= EnergyConsumer.appCPU.rawValue }
}
