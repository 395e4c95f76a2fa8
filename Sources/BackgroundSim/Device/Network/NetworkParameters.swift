/// Which network the phone is on, and how good it is: Wi-Fi at home and away, cellular (LTE or
/// 5G), no service, signal quality, throughput, and Low Data Mode.
///
/// The day is split into *home* (from the evening return to the next morning's departure) and
/// *away*. At home the phone is on home Wi-Fi (or on cellular on nights it does not work). Away,
/// it alternates between Wi-Fi, cellular and no-service segments whose mix is derived so that
/// the long-run time shares equal ``wifiShare`` and ``offlineShare``.
///
/// Tags: [A] Apple, [O] observed in the field (papers, measurements, filings, press), [Inf] our
/// inference; docs/SOURCES.md gives each source in full.
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct NetworkParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// Long-run share of time on Wi-Fi: at least what home Wi-Fi alone gives at the other numbers.
    ///
    /// Opensignal: US 52–60 %, Canada and Spain 62–76 % [O].
    public var wifiShare: Double = 0.55

    /// Long-run share of time with no service. Opensignal availability up to 99.4 % [O]; [Inf].
    public var offlineShare: Double = 0.02

    /// Probability that home Wi-Fi works on a given night (otherwise the phone is on cellular at home).
    ///
    /// [Inf].
    public var homeWifiProbability: Double = 0.9

    /// Usual time of leaving home. Default 07:30. [Inf], chosen with ``returnHome`` and
    /// ``weekendStayHomeProbability`` so that, at the default shares, the phone is on cellular
    /// about 89 % of the time away (commuting is mostly cellular) [Inf].
    public var leaveHome: TimeOfDay = TimeOfDay(hour: 7, minute: 30)

    /// Usual time of returning home. Default 18:30. [Inf]
    public var returnHome: TimeOfDay = TimeOfDay(hour: 18, minute: 30)

    /// Standard deviation of leaving and returning times, in minutes (normal, cut at ±3 σ).
    ///
    /// [Inf]
    public var homeJitterMinutes: Double = 60

    /// Probability of staying home all day on a weekend day. Opensignal: more Wi-Fi time at
    /// weekends [O]; the value is [Inf].
    public var weekendStayHomeProbability: Double = 0.3

    /// Mean length of an away segment on Wi-Fi, in minutes (exponential). [Inf]
    public var awayWifiSegmentMinutes: Double = 60

    /// Mean length of an away segment on cellular, in minutes. [Inf]
    public var awayCellularSegmentMinutes: Double = 45

    /// Mean length of a no-service segment, in minutes. [Inf]
    public var offlineSegmentMinutes: Double = 10

    /// Share of cellular segments on 5G (the rest LTE).
    ///
    /// Opensignal 5G availability 12–64 % [O]; [Inf].
    public var fiveGShare: Double = 0.4

    /// Share of segments with good signal. [Inf].
    public var goodSignalShare: Double = 0.5

    /// Share of segments with poor signal (the rest are medium); good and poor together at most 1.
    /// [Inf].
    public var poorSignalShare: Double = 0.15

    /// Wi-Fi throughput with good signal, downlink and uplink, in Mbps.
    ///
    /// Our assumption [Inf] for a typical home or office link.
    public var wifiDownlinkMbps: Double = 30
    public var wifiUplinkMbps: Double = 10

    /// LTE throughput with good signal, in Mbps. The defaults are the rates of Huang et al. 2012's
    /// LTE energy-per-bit examples [O].
    public var lteDownlinkMbps: Double = 13
    public var lteUplinkMbps: Double = 6

    /// 5G throughput with good signal, in Mbps. [Inf]
    public var fiveGDownlinkMbps: Double = 60
    public var fiveGUplinkMbps: Double = 15

    /// Throughput multiplier at medium signal. [Inf]
    public var mediumSignalThroughputFactor: Double = 0.6

    /// Throughput multiplier at poor signal. [Inf]
    public var poorSignalThroughputFactor: Double = 0.25

    /// Whether Low Data Mode is on for cellular (the path is then `isConstrained`). Default false.
    public var lowDataModeOnCellular: Bool = false

    /// Whether Low Data Mode is on for Wi-Fi networks. Default false.
    public var lowDataModeOnWifi: Bool = false
}

extension NetworkParameters {
    /// The throughput the phone gets on `path`, in Mbps: the technology's good-signal rate scaled
    /// by the signal factor; zero with no network.
    public func throughput(on path: NetworkPath) -> (downlinkMbps: Double, uplinkMbps: Double) {
        let rates: (Double, Double) = switch path.interface {
        case .none: (0, 0)
        case .wifi: (wifiDownlinkMbps, wifiUplinkMbps)
        case .cellular: path.technology == .fiveG ? (fiveGDownlinkMbps, fiveGUplinkMbps) : (lteDownlinkMbps, lteUplinkMbps)
        }
        let factor = switch path.signal {
        case .good: 1.0
        case .medium: mediumSignalThroughputFactor
        case .poor: poorSignalThroughputFactor
        }
        return (rates.0 * factor, rates.1 * factor)
    }
}

extension NetworkParameters: ScenarioSection {
    package static let numberFields: [NumberField<NetworkParameters>] = [
        NumberField("wifiShare", \.wifiShare, valid: 0...1, plausible: 0.40...0.75),
        NumberField("offlineShare", \.offlineShare, valid: 0...0.5, plausible: 0.005...0.05),
        NumberField("homeWifiProbability", \.homeWifiProbability, valid: 0...1, plausible: 0.7...0.98),
        NumberField("homeJitterMinutes", \.homeJitterMinutes, valid: 0...240),
        NumberField("weekendStayHomeProbability", \.weekendStayHomeProbability, valid: 0...1),
        NumberField("awayWifiSegmentMinutes", \.awayWifiSegmentMinutes, valid: 1...600),
        NumberField("awayCellularSegmentMinutes", \.awayCellularSegmentMinutes, valid: 1...600),
        NumberField("offlineSegmentMinutes", \.offlineSegmentMinutes, valid: 1...600),
        NumberField("fiveGShare", \.fiveGShare, valid: 0...1, plausible: 0.1...0.7),
        NumberField("goodSignalShare", \.goodSignalShare, valid: 0...1),
        NumberField("poorSignalShare", \.poorSignalShare, valid: 0...1),
        NumberField("wifiDownlinkMbps", \.wifiDownlinkMbps, valid: 0.1...5_000),
        NumberField("wifiUplinkMbps", \.wifiUplinkMbps, valid: 0.1...5_000),
        NumberField("lteDownlinkMbps", \.lteDownlinkMbps, valid: 0.1...5_000),
        NumberField("lteUplinkMbps", \.lteUplinkMbps, valid: 0.1...5_000),
        NumberField("fiveGDownlinkMbps", \.fiveGDownlinkMbps, valid: 0.1...5_000),
        NumberField("fiveGUplinkMbps", \.fiveGUplinkMbps, valid: 0.1...5_000),
        NumberField("mediumSignalThroughputFactor", \.mediumSignalThroughputFactor, valid: 0.01...1),
        NumberField("poorSignalThroughputFactor", \.poorSignalThroughputFactor, valid: 0.01...1),
    ]

    /// The shares must leave room for each other, and the mix of networks must be one that home
    /// Wi-Fi and time away can give (checked only once every number is in range).
    package func validateRelations(_ v: inout ParameterValidator) {
        if poorSignalShare <= 1 { v.check(poorSignalShare, from: 0, to: 1 - goodSignalShare, "poorSignalShare") }
        guard v.issues.isEmpty else { return }
        do {
            _ = try NetworkPlan.awayShares(self)
        } catch {
            v.require(false, error.path.hasPrefix("network.") ? String(error.path.dropFirst("network.".count)) : error.path, error.message)
        }
    }
}
