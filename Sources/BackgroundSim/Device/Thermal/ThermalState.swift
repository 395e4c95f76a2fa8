/// The phone's thermal state, like `ProcessInfo.ThermalState`.
public enum ThermalState: UInt8, Sendable, Comparable, CaseIterable {
    case nominal, fair, serious, critical

    public static func < (lhs: ThermalState, rhs: ThermalState) -> Bool { lhs.rawValue < rhs.rawValue }
}
