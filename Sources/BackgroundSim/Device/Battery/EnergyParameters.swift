/// Power of the radios and the CPU when the app works, for the per-wake energy model of docs/MODEL.md's
/// per-wake energy model.
///
/// The radio constants come from 2011–2013 phones (Huang et al. 2012, AT&T ARO) and Android
/// profiles up to 2021; treat absolute values as within ±50 % and comparisons (cellular against
/// Wi-Fi, 15 min against 60 min) as the robust output. Modern modems are likely more efficient than the
/// 2012 phones; the absolute cellular joules per wake may be high by up to about 2× [Inf].
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct EnergyParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// CPU power while the app computes (the CPU part of a work item) and during the fixed cost
    /// of a background launch, in watts.
    ///
    /// Android power profiles of the Pixel 4, Pixel 6 and Nexus 5 (idle + active + cluster + one
    /// low-frequency core ≈ 40–80 mA at 3.7–3.85 V) [O].
    public var cpuAwakeWatts: Double = 0.25

    /// CPU power while the app's work waits on the network (a radio promotion, then the data
    /// transfer), in watts.
    ///
    /// The default: the per-wake model books CPU only for the work not overlapped with a transfer
    /// (Huang et al., MobiSys 2012, and AT&T ARO count the radio's power alone while data flows).
    /// Plausible 0–``cpuAwakeWatts``: a client that encrypts, compresses or hashes as it sends
    /// keeps a core busy [Inf]. While an item both computes and transfers, the CPU draws the two
    /// powers in proportion to the item's remaining compute and transfer time.
    public var transferCPUWatts: Double = 0

    /// Fixed time at CPU power for every background launch or resume (resume, scheduling, TLS,
    /// teardown), in seconds.
    ///
    /// [Inf]; Apple's "Minimize Timer Use" on the cost of waking [A].
    public var wakeOverheadSeconds: Double = 2

    /// Probability that a transfer rides on a radio already connected by other traffic, so the
    /// app pays no promotion and no tail.
    ///
    /// [Inf].
    public var tailShareProbability: Double = 0.2

    /// LTE radio: promotion, transfer and tail (Huang et al. 2012 via AT&T ARO `lte.conf`).
    public var lte = CellularRadioParameters()

    /// Multiplier on LTE's active and tail power for 5G NSA.
    ///
    /// Xu et al. SIGCOMM 2020: "2–3× over 4G" [O]; low-rate efficiency favours LTE (SRG 2019)
    /// [O]; [Inf].
    public var fiveGPowerMultiplier: Double = 1.5

    /// 5G NSA tail time in seconds (NSA uses the LTE anchor's RRC). [Inf]
    public var fiveGTailSeconds: Double = 11.6

    /// Wi-Fi radio parameters.
    public var wifi = WifiRadioParameters()

    /// Multiplier on cellular active power at medium signal; observed up to 3 at the worst [O].
    public var mediumSignalPowerMultiplier: Double = 1.3

    /// Multiplier on cellular active power at poor signal. Pixel 4/6 modem tx rises about ×3 from
    /// the best to the worst signal bin [O].
    public var poorSignalPowerMultiplier: Double = 2.0
}

/// LTE radio constants.
public struct CellularRadioParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// Promotion from idle to connected, in seconds. ARO [O]
    public var promotionSeconds: Double = 0.26
    /// Power during promotion, in watts. ARO [O]
    public var promotionWatts: Double = 1.21
    /// Base power while transferring (β), in watts. Huang 1288 mW [O]
    public var activeBaseWatts: Double = 1.29
    /// Extra power per Mbps of uplink (α_up), in mW/Mbps. ARO/Huang [O]
    public var uplinkMilliwattsPerMbps: Double = 438
    /// Extra power per Mbps of downlink (α_down), in mW/Mbps. ARO/Huang [O]
    public var downlinkMilliwattsPerMbps: Double = 52
    /// Time the radio stays in its high-power tail after the last transfer, in seconds; it varies
    /// by carrier. Huang 11.576 s [O]; ARO 10.1 s [O].
    public var tailSeconds: Double = 11.6
    /// Power during the tail, in watts. ARO P_TAIL [O]
    public var tailWatts: Double = 1.06
}

/// Wi-Fi radio constants (Huang et al. 2012's Wi-Fi model; AT&T ARO `WiFi.conf`).
public struct WifiRadioParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// Promotion time in seconds. Huang 79.1 ms [O]
    public var promotionSeconds: Double = 0.08
    /// Power during promotion, in watts. Huang "about 124 mW" [O]
    public var promotionWatts: Double = 0.124
    /// Base power while transferring (β), in watts.
    ///
    /// Huang et al. 2012's Wi-Fi model: β = 132.86 mW [O]. With the per-Mbps terms, a light 1 Mbps
    /// transfer draws ≈ 0.40 W, AT&T ARO's `WiFi.conf` active power (0.403 W) [O].
    public var activeBaseWatts: Double = 0.133
    /// Extra power per Mbps of uplink (α_up), in mW/Mbps.
    ///
    /// Huang et al. 2012: 283.17 mW/Mbps [O]. The term makes sending cost ≈ 0.28 µJ per bit
    /// whatever the rate; at high rates the instantaneous power it implies (≈ 3 W at 10 Mbps)
    /// exceeds what recent phones draw, so absolute Wi-Fi energy is an upper estimate [Inf].
    public var uplinkMilliwattsPerMbps: Double = 283
    /// Extra power per Mbps of downlink (α_down), in mW/Mbps. Huang et al. 2012: 137.01 mW/Mbps [O]
    public var downlinkMilliwattsPerMbps: Double = 137
    /// Tail time in seconds. ARO WIFI_TAIL_TIME [O]
    public var tailSeconds: Double = 0.25
    /// Tail power in watts. Huang [O]
    public var tailWatts: Double = 0.12
}

extension EnergyParameters: ScenarioSection {
    package static let numberFields: [NumberField<EnergyParameters>] = [
        NumberField("cpuAwakeWatts", \.cpuAwakeWatts, valid: 0...10, plausible: 0.1...1),
        NumberField("transferCPUWatts", \.transferCPUWatts, valid: 0...10),
        NumberField("wakeOverheadSeconds", \.wakeOverheadSeconds, valid: 0...60, plausible: 0.5...5),
        NumberField("tailShareProbability", \.tailShareProbability, valid: 0...1, plausible: 0...0.6),
        NumberField("fiveGPowerMultiplier", \.fiveGPowerMultiplier, valid: 0.5...5, plausible: 1...3),
        NumberField("fiveGTailSeconds", \.fiveGTailSeconds, valid: 0...60, plausible: 3...20),
        NumberField("mediumSignalPowerMultiplier", \.mediumSignalPowerMultiplier, valid: 1...5),
        NumberField("poorSignalPowerMultiplier", \.poorSignalPowerMultiplier, valid: 1...5),
    ]

    package func validateRelations(_ v: inout ParameterValidator) {
        lte.validate(&v, at: "lte")
        wifi.validate(&v, at: "wifi")
    }
}

/// A radio's power constants: the same numbers, with the same valid ranges, for LTE and Wi-Fi;
/// what is plausible differs by radio (``plausibleRanges``).
package protocol RadioPowerParameters: ScenarioSection {
    var promotionSeconds: Double { get }
    var promotionWatts: Double { get }
    var activeBaseWatts: Double { get }
    var uplinkMilliwattsPerMbps: Double { get }
    var downlinkMilliwattsPerMbps: Double { get }
    var tailSeconds: Double { get }
    var tailWatts: Double { get }
    /// The radio's plausible ranges.
    static var plausibleRanges: RadioPlausibleRanges { get }
}

/// A radio's plausible range for each of its power constants (``RadioPowerParameters``); `nil`
/// where the number is measured closely enough to hold.
package struct RadioPlausibleRanges: Sendable {
    var promotionSeconds: ClosedRange<Double>?
    var promotionWatts: ClosedRange<Double>?
    var activeBaseWatts: ClosedRange<Double>?
    var uplinkMilliwattsPerMbps: ClosedRange<Double>?
    var downlinkMilliwattsPerMbps: ClosedRange<Double>?
    var tailSeconds: ClosedRange<Double>?
    var tailWatts: ClosedRange<Double>?
}

extension RadioPowerParameters {
    package static var numberFields: [NumberField<Self>] {
        let plausible = plausibleRanges
        return [
            NumberField("promotionSeconds", \.promotionSeconds, valid: 0...10, plausible: plausible.promotionSeconds),
            NumberField("promotionWatts", \.promotionWatts, valid: 0...10, plausible: plausible.promotionWatts),
            NumberField("activeBaseWatts", \.activeBaseWatts, valid: 0...10, plausible: plausible.activeBaseWatts),
            NumberField("uplinkMilliwattsPerMbps", \.uplinkMilliwattsPerMbps, valid: 0...5_000, plausible: plausible.uplinkMilliwattsPerMbps),
            NumberField("downlinkMilliwattsPerMbps", \.downlinkMilliwattsPerMbps, valid: 0...5_000,
                        plausible: plausible.downlinkMilliwattsPerMbps),
            NumberField("tailSeconds", \.tailSeconds, valid: 0...60, plausible: plausible.tailSeconds),
            NumberField("tailWatts", \.tailWatts, valid: 0...10, plausible: plausible.tailWatts),
        ]
    }
}

extension CellularRadioParameters: RadioPowerParameters {
    /// AT&T ARO's and Huang et al. 2012's LTE figures, give or take carriers [O]/[Inf]; the tail
    /// varies most by carrier.
    package static let plausibleRanges = RadioPlausibleRanges(
        promotionSeconds: 0.1...0.6, promotionWatts: 0.6...1.5, activeBaseWatts: 0.5...1.5, uplinkMilliwattsPerMbps: 200...600,
        downlinkMilliwattsPerMbps: 25...150, tailSeconds: 3...20, tailWatts: 0.4...1.2)
}

extension WifiRadioParameters: RadioPowerParameters {
    /// Huang et al. 2012's Wi-Fi figures, give or take about half [O]/[Inf]; the promotion's power
    /// (about 124 mW) is measured closely enough to hold.
    package static let plausibleRanges = RadioPlausibleRanges(
        promotionSeconds: 0.02...0.2, promotionWatts: nil, activeBaseWatts: 0.05...0.4, uplinkMilliwattsPerMbps: 140...430,
        downlinkMilliwattsPerMbps: 70...210, tailSeconds: 0.1...0.5, tailWatts: 0.05...0.3)
}
