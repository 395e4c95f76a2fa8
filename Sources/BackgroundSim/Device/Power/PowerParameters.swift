/// When the phone is charged and how: overnight charging, daytime top-ups, the charge curve,
/// Optimized Battery Charging, and Low Power Mode.
///
/// Tags: [A] Apple, [O] observed in the field (papers, measurements, filings, press), [Inf] our
/// inference; docs/SOURCES.md gives each source in full.
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct PowerParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// Probability that the phone is charged overnight on a given night.
    ///
    /// [Inf].
    public var overnightChargeProbability: Double = 0.85

    /// Usual time the phone is plugged in for the night, local time. A time earlier on the
    /// clock than ``overnightUnplug`` (02:00 for 10:00) is in the early hours after midnight.
    ///
    /// Default 23:00; plausible 21:00–02:00. [Inf].
    public var overnightPlugIn: TimeOfDay = TimeOfDay(hour: 23)

    /// Standard deviation of the overnight plug-in time, in minutes (normal, cut at ±3 σ).
    ///
    /// [Inf].
    public var overnightPlugInJitterMinutes: Double = 60

    /// Usual time the phone is unplugged in the morning, local time.
    ///
    /// Default 07:00; plausible 05:30–09:30. [Inf].
    public var overnightUnplug: TimeOfDay = TimeOfDay(hour: 7)

    /// Standard deviation of the unplug time, in minutes (normal, cut at ±3 σ).
    ///
    /// [Inf].
    public var overnightUnplugJitterMinutes: Double = 45

    /// Daytime top-up charges per day, on average (Poisson).
    ///
    /// [Inf]; Ferreira et al. 2011 describe frequent short top-ups [O].
    public var topUpsPerDay: Double = 1.0

    /// Shortest top-up, in minutes (lengths are uniform between shortest and longest).
    ///
    /// [Inf].
    public var topUpMinimumMinutes: Double = 15

    /// Longest top-up, in minutes; at least the shortest. [Inf].
    public var topUpMaximumMinutes: Double = 60

    /// Relative likelihood of a top-up starting in each local hour 00..23 (24 numbers from 0 to
    /// 1,000, at least one above 0).
    ///
    /// Default: weighted to 08–10 h and 17–20 h (mornings and the commute home) [Inf], low during the
    /// rest of the waking day and zero at night.
    public var topUpHourWeights: [Double] = [
        0, 0, 0, 0, 0, 0, 0, 0.2, 1, 1, 0.2, 0.2,
        0.2, 0.2, 0.2, 0.2, 0.2, 1, 1, 1, 0.2, 0.2, 0, 0,
    ]

    /// Minutes to charge from 0 % to 50 % (constant-current phase) on this device and charger.
    ///
    /// The default is an iPhone 15 on a 20 W adapter (about 15.6 W into the battery); a 5 W brick
    /// takes about 2.1 times as long. ChargerLAB and iClarified measurements [O].
    public var chargeMinutesTo50: Double = 25

    /// Minutes to charge from 50 % to 80 %; the default is about 7.8 W. [O]
    public var chargeMinutes50To80: Double = 30

    /// Minutes to charge from 80 % to 100 % (constant-voltage taper); the default is about 3.5 W.
    /// [O]
    public var chargeMinutes80To100: Double = 45

    /// Whether Optimized Battery Charging holds overnight charging at 80 % until shortly before
    /// the usual unplug time.
    ///
    /// Default true (on by default since iOS 13 [A]). Applies to overnight sessions only, once the
    /// routine has been learnt (see ``optimizedChargingLearningDays``).
    public var optimizedBatteryCharging: Bool = true

    /// Days of routine the phone needs before Optimized Battery Charging starts holding.
    ///
    /// Apple: it learns "your daily charging routine" (a few weeks [O]); 14 is our assumption
    /// [Inf].
    public var optimizedChargingLearningDays: Int = 14

    /// How long before the usual unplug time Optimized Battery Charging wants to reach 100 %,
    /// in minutes.
    ///
    /// Our assumption [Inf]: it resumes charging from 80 % this long plus the 80→100 % time before
    /// ``overnightUnplug``.
    public var optimizedChargingMarginMinutes: Double = 15

    /// The manual charge limit (iPhone 15 and later), in percent: charging stops here.
    ///
    /// Real phones offer 80 to 100 in steps of 5 [O].
    public var chargeLimitPercent: Double = 100

    /// Probability that the user accepts the Low Power Mode prompt shown at 20 % and at 10 %.
    ///
    /// [Inf]. The prompts at 20 % and 10 % and the automatic switch-off at 80 % while charging are
    /// Apple's [A].
    public var lowPowerModeAcceptProbability: Double = 0.5

    /// Battery level at which a phone that ran flat turns itself back on while charging, in percent.
    ///
    /// Our assumption [Inf]: an iPhone boots a few minutes after being plugged in when empty.
    public var powerOnPercent: Double = 3

    /// Battery level when the simulation starts, in percent.
    ///
    /// [Inf]
    public var initialBatteryPercent: Double = 80
}

extension PowerParameters: ScenarioSection {
    package static let numberFields: [NumberField<PowerParameters>] = [
        NumberField("overnightChargeProbability", \.overnightChargeProbability, valid: 0...1, plausible: 0.6...0.98),
        NumberField("overnightPlugInJitterMinutes", \.overnightPlugInJitterMinutes, valid: 0...240),
        NumberField("overnightUnplugJitterMinutes", \.overnightUnplugJitterMinutes, valid: 0...240),
        NumberField("topUpsPerDay", \.topUpsPerDay, valid: 0...10, plausible: 0...3),
        NumberField("topUpMinimumMinutes", \.topUpMinimumMinutes, valid: 1...600),
        NumberField("topUpMaximumMinutes", \.topUpMaximumMinutes, valid: 1...600),
        NumberField("chargeMinutesTo50", \.chargeMinutesTo50, valid: 1...600, plausible: 22...60, unit: "min"),
        NumberField("chargeMinutes50To80", \.chargeMinutes50To80, valid: 1...600, unit: "min"),
        NumberField("chargeMinutes80To100", \.chargeMinutes80To100, valid: 1...600, unit: "min"),
        NumberField("optimizedChargingLearningDays", \.optimizedChargingLearningDays, valid: 0...365),
        NumberField("optimizedChargingMarginMinutes", \.optimizedChargingMarginMinutes, valid: 0...240),
        NumberField("chargeLimitPercent", \.chargeLimitPercent, valid: 50...100),
        NumberField("lowPowerModeAcceptProbability", \.lowPowerModeAcceptProbability, valid: 0...1, plausible: 0.2...0.9),
        NumberField("powerOnPercent", \.powerOnPercent, valid: 0.5...20),
        NumberField("initialBatteryPercent", \.initialBatteryPercent, valid: 1...100),
    ]

    package func validateRelations(_ v: inout ParameterValidator) {
        if topUpMaximumMinutes <= 600 { v.check(topUpMaximumMinutes, from: topUpMinimumMinutes, to: 600, "topUpMaximumMinutes") }
        v.checkHourlyWeights(topUpHourWeights, "topUpHourWeights")
    }
}
