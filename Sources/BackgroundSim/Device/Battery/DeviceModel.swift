/// iPhone models with their battery capacity and nominal voltage, from regulatory filings.
///
/// mAh from China 3C/CQC, Brazil Anatel and US Chemtrec filings as
/// reported by the press, or teardowns [O]; nominal voltage 3.87 V where the filings give none
/// (Anatel "around 3.88 V", Wh/Ah ratios 3.83–3.89 [O]).
public enum DeviceModel: String, NamedChoice, Sendable {
    case iPhone12Mini = "iPhone 12 mini"
    case iPhone12 = "iPhone 12"
    case iPhone13Mini = "iPhone 13 mini"
    case iPhone13 = "iPhone 13"
    case iPhone14 = "iPhone 14"
    case iPhone14ProMax = "iPhone 14 Pro Max"
    case iPhone15 = "iPhone 15"
    case iPhone15Pro = "iPhone 15 Pro"
    case iPhone15ProMax = "iPhone 15 Pro Max"
    case iPhone16 = "iPhone 16"
    case iPhone16Pro = "iPhone 16 Pro"
    case iPhone16ProMax = "iPhone 16 Pro Max"

    /// Rated battery capacity in mAh.
    public var capacityMilliampHours: Double {
        switch self {
        case .iPhone12Mini: 2_227
        case .iPhone12: 2_815
        case .iPhone13Mini: 2_406
        case .iPhone13: 3_227
        case .iPhone14: 3_279
        case .iPhone14ProMax: 4_323
        case .iPhone15: 3_349
        case .iPhone15Pro: 3_274
        case .iPhone15ProMax: 4_422
        case .iPhone16: 3_561
        case .iPhone16Pro: 3_582
        case .iPhone16ProMax: 4_685
        }
    }

    /// Nominal battery voltage in volts (Wh / Ah where both are filed, otherwise 3.87).
    public var nominalVolts: Double {
        switch self {
        case .iPhone12Mini: 3.85
        case .iPhone12: 3.83
        case .iPhone13Mini: 3.88
        case .iPhone13: 3.85
        case .iPhone14, .iPhone15Pro: 3.87
        case .iPhone14ProMax: 3.86
        case .iPhone15: 3.876
        case .iPhone15ProMax: 3.869
        case .iPhone16: 3.88
        case .iPhone16Pro: 3.89
        case .iPhone16ProMax: 3.83
        }
    }
}
