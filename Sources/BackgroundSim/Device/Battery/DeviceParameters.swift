/// The phone itself: its model and battery, baseline power, and the thermal model.
///
/// Tags: [A] Apple, [O] observed in the field (papers, measurements, filings, press), [Inf] our
/// inference; docs/SOURCES.md gives each source in full.
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct DeviceParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// The iPhone model, which sets the battery capacity and voltage unless overridden.
    ///
    /// Default "iPhone 15" (3,349 mAh, 3.876 V, 12.98 Wh = 46,730 J) [O].
    public var model: DeviceModel = .iPhone15

    /// Battery capacity in mAh, overriding the model's. Valid 500–10,000. Default: the model's.
    public var capacityMilliampHours: Double?

    /// Nominal voltage in volts, overriding the model's. Valid 3.0–4.5. Default: the model's.
    public var nominalVolts: Double?

    /// Battery health: the fraction of the rated capacity that remains; 80–90 % is common after
    /// 500 or more cycles [Inf].
    public var batteryHealth: Double = 1.0

    /// Average power of the whole phone while the screen is on and the user is using it, in watts.
    ///
    /// The default drains about 8.5 %/h on an iPhone 15. Tom's Guide browsing tests give
    /// 0.99–1.22 W, mixed heavy use 1.27–1.46 W, Apple's video rating 0.65 W [O].
    public var screenOnWatts: Double = 1.1

    /// Power of the phone with the screen off, excluding the simulated app (the hardware floor
    /// plus the system's and other apps' background work), in watts.
    ///
    /// The default drains about 0.5 %/h [Inf], anchored on Apple's standby ratings (about 29 mW)
    /// [O].
    public var screenOffBaselineWatts: Double = 0.065

    /// The thermal model's parameters.
    public var thermal = ThermalParameters()

    /// The battery's usable energy in joules: capacity × voltage × health.
    public var batteryCapacityJoules: Double {
        let milliampHours = capacityMilliampHours ?? model.capacityMilliampHours
        let volts = nominalVolts ?? model.nominalVolts
        return milliampHours / 1_000 * volts * 3_600 * batteryHealth
    }
}

/// A first-order thermal model of the phone: a heat level that approaches the phone's current
/// heat input with a time constant, compared with thresholds for `ProcessInfo.ThermalState`.
///
/// This is a deliberately simple stand-in [Inf]: Apple documents the four states and that the
/// system reacts to them (`ProcessInfo.thermalState`; developers observe background work blocked at
/// `.serious` and above [O]), not the physics. Heat input is the device's power draw plus a
/// fraction of the charging power lost as heat. At the defaults, steady screen-on use stays
/// `.nominal`, fast charging while in use reaches `.fair`, and `.serious` needs sustained heavy
/// load while charging.
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct ThermalParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// How quickly the heat level follows the heat input, in minutes. [Inf]
    public var timeConstantMinutes: Double = 10

    /// Fraction of the power into the battery that becomes heat while charging. [Inf] (lithium-ion
    /// charging efficiency is typically 85–95 %).
    public var chargingHeatFraction: Double = 0.15

    /// Heat level, in watts of sustained input, at which the state becomes `.fair`. [Inf]
    public var fairWatts: Double = 2.5

    /// Heat level at which the state becomes `.serious`. [Inf]
    public var seriousWatts: Double = 4.0

    /// Heat level at which the state becomes `.critical`. [Inf]
    public var criticalWatts: Double = 6.0
}

extension DeviceParameters: ScenarioSection {
    package static let numberFields: [NumberField<DeviceParameters>] = [
        NumberField("batteryHealth", \.batteryHealth, valid: 0.5...1, plausible: 0.8...1),
        NumberField("screenOnWatts", \.screenOnWatts, valid: 0.1...10, plausible: 0.6...2.5),
        NumberField("screenOffBaselineWatts", \.screenOffBaselineWatts, valid: 0...2, plausible: 0.025...0.2),
    ]

    /// The optional overrides of the model's battery (when given), and the thermal model.
    static let capacityRange = 500.0...10_000
    static let voltsRange = 3.0...4.5

    package func validateRelations(_ v: inout ParameterValidator) {
        if let capacityMilliampHours { v.check(capacityMilliampHours, Self.capacityRange, "capacityMilliampHours") }
        if let nominalVolts { v.check(nominalVolts, Self.voltsRange, "nominalVolts") }
        thermal.validate(&v, at: "thermal")
    }
}

extension ThermalParameters: ScenarioSection {
    package static let numberFields: [NumberField<ThermalParameters>] = [
        NumberField("timeConstantMinutes", \.timeConstantMinutes, valid: 0.5...120),
        NumberField("chargingHeatFraction", \.chargingHeatFraction, valid: 0...0.5),
        NumberField("fairWatts", \.fairWatts, valid: 0.1...100),
        NumberField("seriousWatts", \.seriousWatts, valid: 0.1...100),
        NumberField("criticalWatts", \.criticalWatts, valid: 0.1...100),
    ]

    package func validateRelations(_ v: inout ParameterValidator) {
        v.require(fairWatts < seriousWatts && seriousWatts < criticalWatts, "", "expected fairWatts < seriousWatts < criticalWatts")
    }
}
