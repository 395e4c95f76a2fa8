import BackgroundSim

// MetricKit's custom signposts and the os framework's signposts, as the app's code calls them on
// iOS: in the simulated app each signpost is a `signpost` event of the device's log, at the
// simulated time, from which the app's own metrics are measured (`app.metrics` in a scenario:
// content age at open, intervals done in time, events a day). Outside the simulated app's code
// they do nothing.

/// `OSSignpostType`: an interval's begin or end, or a single event.
public struct OSSignpostType: Sendable, Equatable {
    let kind: AppSignpost.Kind

    public static let begin = OSSignpostType(kind: .begin)
    public static let end = OSSignpostType(kind: .end)
    public static let event = OSSignpostType(kind: .event)
}

/// `OSLog`: a log handle, here the subsystem and category its signposts carry.
public final class OSLog: Sendable {
    let subsystem: String
    let category: String

    /// A handle for `category` of `subsystem`.
    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
    }

    /// `OSLog.default`.
    public static let `default` = OSLog(subsystem: "", category: "")
    /// `OSLog.disabled`: its signposts are not recorded.
    public static let disabled = OSLog(subsystem: "", category: "disabled")

    var isDisabled: Bool { self === OSLog.disabled }
}

/// `OSSignpostID`: which interval of a name a begin and an end belong to.
public struct OSSignpostID: Sendable, Hashable, Comparable {
    public let rawValue: UInt64

    public init(_ value: UInt64) { rawValue = value }

    /// An ID unique in the run: made of the simulated instant the process first made one and a
    /// counter, so that the same run makes the same IDs.
    public init(log: OSLog) {
        rawValue = SimulatedProcess.current?.nextSignpostID() ?? 1
    }

    /// An ID for `object`, the same for the same object while it lives. Not its address, as on
    /// iOS, which would differ from run to run: an ID made as ``init(log:)`` makes one, the
    /// first time the process asks for this object. As on iOS, a new object at a freed one's
    /// address gets the freed one's ID; where that happens may differ between runs, so code
    /// whose results depend on it is not reproducible.
    public init(log: OSLog, object: AnyObject) {
        rawValue = SimulatedProcess.current?.signpostID(for: ObjectIdentifier(object)) ?? 1
    }

    /// `OSSignpostID.exclusive`: one interval of the name at a time.
    public static let exclusive = OSSignpostID(0xEEEE_B0B5_B2B2_EEEE)
    public static let invalid = OSSignpostID(~0)
    public static let null = OSSignpostID(0)

    public static func < (lhs: OSSignpostID, rhs: OSSignpostID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The ID a ``AppSignpost`` carries: 0 for `.exclusive`.
    var simulatedID: UInt64 { self == .exclusive ? 0 : rawValue }
}

/// Records a signpost of the app's code, when it runs in a simulated process.
func emitSignpost(_ type: OSSignpostType, log: OSLog, name: String, id: OSSignpostID) {
    guard !log.isDisabled, id != .invalid, let process = SimulatedProcess.current else { return }
    _ = process.services.call(.signpost(AppSignpost(type.kind, name: name, category: log.category, id: id.simulatedID)))
}

/// `os_signpost(_:dso:log:name:signpostID:)`.
public func os_signpost(_ type: OSSignpostType, dso: UnsafeRawPointer? = nil, log: OSLog, name: StaticString,
                        signpostID: OSSignpostID = .exclusive) {
    emitSignpost(type, log: log, name: "\(name)", id: signpostID)
}

/// `os_signpost(_:dso:log:name:signpostID:_:_:)`: the format and its arguments are not kept.
public func os_signpost(_ type: OSSignpostType, dso: UnsafeRawPointer? = nil, log: OSLog, name: StaticString,
                        signpostID: OSSignpostID = .exclusive, _ format: StaticString, _ arguments: CVarArg...) {
    emitSignpost(type, log: log, name: "\(name)", id: signpostID)
}

/// MetricKit's `MXMetricManager`: here, the log handles for custom signposts. Payloads are not
/// delivered (the simulator's report has the figures).
public final class MXMetricManager: Sendable {
    public static let shared = MXMetricManager()

    /// A log handle for MetricKit's custom signposts in `category`.
    public static func makeLogHandle(category: String) -> OSLog {
        OSLog(subsystem: "MetricKit", category: category)
    }
}

/// MetricKit's `mxSignpost(_:dso:log:name:signpostID:)`.
public func mxSignpost(_ type: OSSignpostType, dso: UnsafeRawPointer? = nil, log: OSLog, name: StaticString,
                       signpostID: OSSignpostID = .exclusive) {
    emitSignpost(type, log: log, name: "\(name)", id: signpostID)
}

/// MetricKit's `mxSignpost(_:dso:log:name:signpostID:_:_:)`: the format and its arguments are not kept.
public func mxSignpost(_ type: OSSignpostType, dso: UnsafeRawPointer? = nil, log: OSLog, name: StaticString,
                       signpostID: OSSignpostID = .exclusive, _ format: StaticString, _ arguments: CVarArg...) {
    emitSignpost(type, log: log, name: "\(name)", id: signpostID)
}

/// `OSSignposter`: intervals and events of a subsystem's category.
///
///     let signposter = OSSignposter(subsystem: "com.example.feed", category: "refresh")
///     let state = signposter.beginInterval("refresh")
///     …
///     signposter.endInterval("refresh", state)
///     signposter.emitEvent("contentUpdated")
public struct OSSignposter: Sendable {
    let log: OSLog

    public init(subsystem: String, category: String) { log = OSLog(subsystem: subsystem, category: category) }
    public init(logHandle: OSLog) { log = logHandle }
    public init(logger: Logger) { log = OSLog(subsystem: logger.subsystem, category: logger.category) }
    /// `OSSignposter.disabled`.
    public static let disabled = OSSignposter(logHandle: .disabled)

    public var isEnabled: Bool { !log.isDisabled }

    /// A new signpost ID unique in the run.
    public func makeSignpostID() -> OSSignpostID { OSSignpostID(log: log) }
    /// The signpost ID for `object`.
    public func makeSignpostID(from object: AnyObject) -> OSSignpostID { OSSignpostID(log: log, object: object) }

    /// Begins the interval `name`; end it with ``endInterval(_:_:)`` and the state returned.
    public func beginInterval(_ name: StaticString, id: OSSignpostID = .exclusive) -> OSSignpostIntervalState {
        emitSignpost(.begin, log: log, name: "\(name)", id: id)
        return OSSignpostIntervalState(id: id)
    }

    /// `beginInterval(_:id:_:)`: the message is not kept.
    public func beginInterval(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: OSLogMessage) -> OSSignpostIntervalState {
        beginInterval(name, id: id)
    }

    /// Ends the interval `name` begun with `state`.
    public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState) {
        emitSignpost(.end, log: log, name: "\(name)", id: state.id)
    }

    /// `endInterval(_:_:_:)`: the message is not kept.
    public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState, _ message: OSLogMessage) {
        endInterval(name, state)
    }

    /// Emits the event `name`.
    public func emitEvent(_ name: StaticString, id: OSSignpostID = .exclusive) {
        emitSignpost(.event, log: log, name: "\(name)", id: id)
    }

    /// `emitEvent(_:id:_:)`: the message is not kept.
    public func emitEvent(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: OSLogMessage) {
        emitEvent(name, id: id)
    }

    /// Runs `task` inside the interval `name`.
    public func withIntervalSignpost<T>(_ name: StaticString, id: OSSignpostID = .exclusive, around task: () throws -> T) rethrows -> T {
        let state = beginInterval(name, id: id)
        defer { endInterval(name, state) }
        return try task()
    }
}

/// `OSSignpostIntervalState`: what ends an interval.
public struct OSSignpostIntervalState: Sendable {
    let id: OSSignpostID

    /// The interval's signpost ID.
    public var signpostID: OSSignpostID { id }
}
