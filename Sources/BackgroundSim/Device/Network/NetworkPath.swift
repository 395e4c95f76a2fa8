/// The network the phone is on at a moment, in the terms of `NWPath`.
public struct NetworkPath: Sendable, Hashable {
    /// Wi-Fi, cellular or none, like `NWInterface.InterfaceType`.
    public enum Interface: UInt8, Sendable, Hashable {
        case none = 0
        case wifi = 1
        case cellular = 2
    }

    /// The cellular technology, when on cellular.
    public enum CellularTechnology: UInt8, Sendable, Hashable {
        case lte = 0
        case fiveG = 1
    }

    /// Signal quality, which scales throughput and cellular active power.
    public enum SignalQuality: UInt8, Sendable, Hashable {
        case good = 0
        case medium = 1
        case poor = 2
    }

    public var interface: Interface
    public var technology: CellularTechnology
    public var signal: SignalQuality
    /// Low Data Mode is on for this network, like `NWPath.isConstrained`.
    public var isConstrained: Bool

    /// The path is satisfied (a network is available), like `NWPath.status == .satisfied`.
    public var isSatisfied: Bool { interface != .none }

    /// The path is expensive (cellular), like `NWPath.isExpensive`.
    public var isExpensive: Bool { interface == .cellular }

    /// The same place on cellular, with the technology and signal drawn for it, in Low Data
    /// Mode if `constrained`: where the phone cannot join the Wi-Fi it is at.
    func onCellular(constrained: Bool) -> NetworkPath {
        NetworkPath(interface: .cellular, technology: technology, signal: signal, isConstrained: constrained)
    }

    /// No network.
    public static let offline = NetworkPath(interface: .none, technology: .lte, signal: .good, isConstrained: false)

    /// A compact code for traces: interface, technology, signal and constraint in one number.
    var traceCode: Int64 {
        Int64(interface.rawValue) | Int64(technology.rawValue) << 4 | Int64(signal.rawValue) << 8 | (isConstrained ? 1 << 12 : 0)
    }
}
