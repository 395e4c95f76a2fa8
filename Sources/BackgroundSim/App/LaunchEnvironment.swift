/// What the app is launched with and starts from, as a UI test configures an app: its
/// environment variables (`ProcessInfo.processInfo.environment`), its launch arguments
/// (`ProcessInfo.processInfo.arguments` after the process's name) and the `UserDefaults` values
/// it finds at install. A scenario sets them in `app.launch`, so that variants of the same app
/// code — a refresh interval, a feature flag — are scenarios, and sweep axes, tuning parameters
/// and `--with` fragments reach them without a rebuild:
///
///     "launch": {
///       "environment": {"FEED_REFRESH_MINUTES": "60"},
///       "arguments": ["-verboseSync", "YES"],
///       "defaults": {"uploadOnCellular": false, "refreshMinutes": 60}
///     }
///
/// An environment value given as a number or true/false reads as its text (`60` as `"60"`,
/// `0.5` as `"0.5"`), so a sweep axis or tuning parameter of numbers may set one. Every launch
/// of the app gets the same environment and arguments; the defaults are stored once, before
/// the first launch, and the app's own writes replace them.
public struct LaunchEnvironment: Codable, Sendable, Equatable {
    /// A `UserDefaults` value at install.
    public enum DefaultValue: Codable, Sendable, Equatable {
        case bool(Bool)
        case number(Double)
        case string(String)
        case strings([String])

        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([String].self) {
                self = .strings(value)
            } else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected true or false, a number, a string or a list of strings")
            }
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .bool(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .strings(let value): try container.encode(value)
            }
        }

        /// The value as the device's store keeps it: a whole number as an integer (so that
        /// `integer(forKey:)` and `double(forKey:)` both read it), any other as a `Double`.
        var stored: PersistentStore.Value {
            switch self {
            case .bool(let value): .bool(value)
            case .number(let value): value == value.rounded() && abs(value) < 1e15 ? .integer(Int(value)) : .double(value)
            case .string(let value): .string(value)
            case .strings(let value): .strings(value)
            }
        }
    }

    /// Environment variables, by name. Default none.
    public var environment: [String: String] = [:]
    /// Launch arguments after the process's name. Default none.
    public var arguments: [String] = []
    /// `UserDefaults` values at install, by key. Default none.
    public var defaults: [String: DefaultValue] = [:]

    public init(environment: [String: String] = [:], arguments: [String] = [], defaults: [String: DefaultValue] = [:]) {
        self.environment = environment
        self.arguments = arguments
        self.defaults = defaults
    }

    private enum CodingKeys: String, CodingKey { case environment, arguments, defaults }

    private struct NameKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.environment) {
            let variables = try container.nestedContainer(keyedBy: NameKey.self, forKey: .environment)
            for key in variables.allKeys {
                if let text = try? variables.decode(String.self, forKey: key) {
                    environment[key.stringValue] = text
                } else if let flag = try? variables.decode(Bool.self, forKey: key) {
                    environment[key.stringValue] = flag ? "true" : "false"
                } else if let number = try? variables.decode(Double.self, forKey: key) {
                    environment[key.stringValue] = JSONWriter.format(number)
                } else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: variables, debugDescription: "expected a string, a number or true/false")
                }
            }
        }
        arguments = try container.decodeIfPresent([String].self, forKey: .arguments) ?? []
        if container.contains(.defaults) {
            let values = try container.nestedContainer(keyedBy: NameKey.self, forKey: .defaults)
            for key in values.allKeys { defaults[key.stringValue] = try values.decode(DefaultValue.self, forKey: key) }
        }
    }

    /// Written with the names in order, so that the same launch writes the same document.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var variables = container.nestedContainer(keyedBy: NameKey.self, forKey: .environment)
        for name in environment.keys.sorted() { try variables.encode(environment[name], forKey: NameKey(stringValue: name)) }
        try container.encode(arguments, forKey: .arguments)
        var values = container.nestedContainer(keyedBy: NameKey.self, forKey: .defaults)
        for key in defaults.keys.sorted() { try values.encode(defaults[key], forKey: NameKey(stringValue: key)) }
    }

    /// Every problem, with paths relative to the section.
    func validate(_ v: inout ParameterValidator) {
        v.require(environment.count <= 256, "environment", "expected at most 256 variables, got \(environment.count)")
        for name in environment.keys.sorted() {
            v.require(!name.isEmpty && !name.contains("="), "environment.\(name)", "expected a variable name without \"=\"")
            v.require(environment[name]!.utf8.count <= 4_096, "environment.\(name)", "expected at most 4,096 bytes")
        }
        v.require(arguments.count <= 256, "arguments", "expected at most 256 arguments, got \(arguments.count)")
        v.require(defaults.count <= 256, "defaults", "expected at most 256 values, got \(defaults.count)")
        for key in defaults.keys.sorted() {
            v.require(!key.isEmpty, "defaults", "expected non-empty keys")
            if case .number(let number) = defaults[key]! { v.require(number.isFinite, "defaults.\(key)", "expected a finite number") }
        }
    }
}
