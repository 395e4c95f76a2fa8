// `os.Logger`, the unified logging API apps write their logs with: in the app's simulated code,
// each message is a line of the simulated device's log (the run's `appOutput` events), as
// `"<subsystem> <category> <level>: <message>"`. Privacy is not applied: the log reads as Xcode's
// console shows it while debugging, every value shown.

/// `Logger`: writes the app's messages to the simulated device's log.
///
///     let logger = Logger(subsystem: "com.example.app", category: "sync")
///     logger.info("synced \(count, privacy: .public) blocks")
public struct Logger: Sendable {
    let subsystem: String
    let category: String

    /// A logger for `category` of `subsystem` (usually the app's bundle identifier).
    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
    }

    /// A logger of the default subsystem and category.
    public init() {
        self.init(subsystem: "", category: "")
    }

    /// Logs `message` at `level`.
    public func log(level: OSLogType, _ message: OSLogMessage) {
        let prefix = [subsystem, category, level.name].filter { !$0.isEmpty }.joined(separator: " ")
        print(prefix + ": " + message.text)
    }

    /// Logs `message` at the default level.
    public func log(_ message: OSLogMessage) { log(level: .default, message) }
    public func trace(_ message: OSLogMessage) { log(level: .debug, message) }
    public func debug(_ message: OSLogMessage) { log(level: .debug, message) }
    public func info(_ message: OSLogMessage) { log(level: .info, message) }
    public func notice(_ message: OSLogMessage) { log(level: .default, message) }
    public func warning(_ message: OSLogMessage) { log(level: .error, message) }
    public func error(_ message: OSLogMessage) { log(level: .error, message) }
    public func critical(_ message: OSLogMessage) { log(level: .fault, message) }
    public func fault(_ message: OSLogMessage) { log(level: .fault, message) }
}

/// `OSLogType`: a message's level.
public struct OSLogType: Sendable, Equatable {
    let name: String

    public static let `default` = OSLogType(name: "default")
    public static let info = OSLogType(name: "info")
    public static let debug = OSLogType(name: "debug")
    public static let error = OSLogType(name: "error")
    public static let fault = OSLogType(name: "fault")
}

/// `OSLogPrivacy`: how a value would be redacted on a device (not applied here).
public struct OSLogPrivacy: Sendable, Equatable {
    let rawValue: UInt8

    public static let auto = OSLogPrivacy(rawValue: 0)
    public static let `public` = OSLogPrivacy(rawValue: 1)
    public static let `private` = OSLogPrivacy(rawValue: 2)
    public static let sensitive = OSLogPrivacy(rawValue: 3)

    /// `.private(mask: .hash)` and the like.
    public static func `private`(mask: Mask) -> OSLogPrivacy { .private }
    /// `.sensitive(mask: .hash)` and the like.
    public static func sensitive(mask: Mask) -> OSLogPrivacy { .sensitive }

    /// `OSLogPrivacy.Mask`.
    public struct Mask: Sendable, Equatable {
        let rawValue: UInt8
        public static let hash = Mask(rawValue: 1)
        public static let none = Mask(rawValue: 0)
    }
}

/// `OSLogMessage`: a message written as a string literal with interpolations, which may say
/// how each value would be redacted (`\(name, privacy: .public)`).
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral, Sendable {
    let text: String

    public init(stringLiteral value: String) {
        text = value
    }

    public init(stringInterpolation: StringInterpolation) {
        text = stringInterpolation.text
    }

    /// The parts of an `OSLogMessage`.
    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        var text = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity)
        }

        public mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        public mutating func appendInterpolation<Value>(_ value: @autoclosure () -> Value, privacy: OSLogPrivacy = .auto) {
            text += String(describing: value())
        }
    }
}
