import BackgroundSim
import Dispatch

/// `NWPathMonitor`: the simulated phone's network path, as the `Network` framework reports it.
///
/// ``start(queue:)`` delivers the current path to ``pathUpdateHandler`` as a job on the app's
/// simulated executor (on iOS, soon after, on the monitor's queue), and later paths whenever
/// the path has changed by the time the app's code next runs — a launch, a lifecycle callback,
/// a task's handler, a timer or a request's end — just before that code, rather than at the
/// instant it changes [Inf]; ``currentPath`` is always the path now. The handler runs on the simulation's thread,
/// whatever `queue` is.
public final class NWPathMonitor: @unchecked Sendable {
    /// Called with the path at start and when it changes.
    public var pathUpdateHandler: (@Sendable (NWPath) -> Void)?
    /// Only paths over this interface count as satisfied (`init(requiredInterfaceType:)`).
    private let requiredInterface: NWInterface.InterfaceType?
    /// Paths over these interfaces do not count as satisfied (`init(prohibitedInterfaceTypes:)`).
    private let prohibitedInterfaces: [NWInterface.InterfaceType]
    private weak var process: SimulatedProcess?
    /// The path last delivered.
    private var delivered: NWPath?

    /// A monitor of every interface.
    public init() {
        requiredInterface = nil
        prohibitedInterfaces = []
    }

    /// A monitor of paths over `requiredInterfaceType` only.
    public init(requiredInterfaceType: NWInterface.InterfaceType) {
        requiredInterface = requiredInterfaceType
        prohibitedInterfaces = []
    }

    /// A monitor of paths over any interface but `prohibitedInterfaceTypes` (iOS 14).
    public init(prohibitedInterfaceTypes: [NWInterface.InterfaceType]) {
        requiredInterface = nil
        prohibitedInterfaces = prohibitedInterfaceTypes
    }

    /// The path now.
    public var currentPath: NWPath {
        let process = self.process ?? SimulatedProcess.required(by: "NWPathMonitor.currentPath")
        return NWPath(process.state.networkPath, requiredInterface: requiredInterface, prohibitedInterfaces: prohibitedInterfaces)
    }

    /// Starts monitoring; the first path is delivered as soon as the app's code yields.
    public func start(queue: DispatchQueue) {
        guard process == nil else { return }
        let process = SimulatedProcess.required(by: "NWPathMonitor.start(queue:)")
        self.process = process
        process.pathMonitors.append(self)
        deliverIfChanged()
    }

    /// Stops monitoring; the handler is not called again.
    public func cancel() {
        guard let process else { return }
        process.pathMonitors.removeAll { $0 === self }
        pathUpdateHandler = nil
    }

    /// Delivers the path to the handler if it is not the one last delivered: as a job on the
    /// app's executor, or with `beforeTheCode`, at once — a path that changed while the app was
    /// not running reaches it as it resumes, before the code the resume runs.
    func deliverIfChanged(beforeTheCode: Bool = false) {
        let path = currentPath
        guard path != delivered else { return }
        delivered = path
        if beforeTheCode {
            pathUpdateHandler?(path)
        } else {
            Task { [weak self] in self?.pathUpdateHandler?(path) }
        }
    }
}

/// `NWPath`: a network path.
public struct NWPath: Sendable, Equatable, CustomStringConvertible {
    /// `NWPath.Status`.
    public enum Status: Sendable, Equatable {
        case satisfied, unsatisfied, requiresConnection
    }

    /// Whether the path can be used.
    public let status: Status
    /// Over cellular (or a personal hotspot), as iOS marks it.
    public let isExpensive: Bool
    /// Low Data Mode is on.
    public let isConstrained: Bool
    /// The interfaces the path may use: one, or none.
    public let availableInterfaces: [NWInterface]

    init(_ path: NetworkPath, requiredInterface: NWInterface.InterfaceType?, prohibitedInterfaces: [NWInterface.InterfaceType] = []) {
        let interface: NWInterface.InterfaceType? = switch path.interface {
        case .wifi: .wifi
        case .cellular: .cellular
        case .none: nil
        }
        let usable = interface.map { interface in
            (requiredInterface == nil || requiredInterface == interface) && !prohibitedInterfaces.contains(interface)
        } ?? false
        status = usable ? .satisfied : .unsatisfied
        isExpensive = usable && path.isExpensive
        isConstrained = usable && path.isConstrained
        availableInterfaces = usable ? interface.map { [NWInterface(type: $0)] } ?? [] : []
    }

    /// Whether the path uses an interface of `type`.
    public func usesInterfaceType(_ type: NWInterface.InterfaceType) -> Bool {
        availableInterfaces.contains { $0.type == type }
    }

    public var description: String {
        "\(status)" + (availableInterfaces.first.map { " (\($0.type))" } ?? "")
    }
}

/// `NWInterface`: a network interface.
public struct NWInterface: Sendable, Equatable {
    /// `NWInterface.InterfaceType`.
    public enum InterfaceType: Sendable, Equatable {
        case other, wifi, cellular, wiredEthernet, loopback
    }

    /// The interface's type.
    public let type: InterfaceType
    /// Its name, as iOS names them (`en0` for Wi-Fi, `pdp_ip0` for cellular).
    public var name: String { type == .wifi ? "en0" : type == .cellular ? "pdp_ip0" : "lo0" }
}

/// `NWParameters`: how a connection may use the network. The simulation makes no connections
/// of the `Network` framework (the app's requests go through `URLSession`), so these are kept
/// and not used: code that configures them compiles and runs.
public final class NWParameters: @unchecked Sendable {
    /// Only paths over this interface (`nil`: any).
    public var requiredInterfaceType: NWInterface.InterfaceType?
    /// Paths not to use.
    public var prohibitedInterfaceTypes: [NWInterface.InterfaceType]?
    /// Whether expensive paths (cellular) are not to be used.
    public var prohibitExpensivePaths = false
    /// Whether constrained paths (Low Data Mode) are not to be used.
    public var prohibitConstrainedPaths = false
    /// Whether a local endpoint may be reused.
    public var allowLocalEndpointReuse = false
    /// Whether peer-to-peer interfaces may be used.
    public var includePeerToPeer = false

    public init() {}

    /// TCP.
    public static var tcp: NWParameters { NWParameters() }
    /// UDP.
    public static var udp: NWParameters { NWParameters() }
    /// TLS over TCP.
    public static var tls: NWParameters { NWParameters() }
}
