import SimKernel

/// Storage that survives process termination, like `UserDefaults`.
///
/// The policy's own properties are lost whenever the system terminates the app; values kept
/// here persist for the whole simulation.
public final class PersistentStore {
    /// A stored value.
    public enum Value: Sendable, Equatable {
        case bool(Bool)
        case integer(Int)
        case double(Double)
        case string(String)
        /// A device-clock instant (what the app would have read as the current `Date`).
        case instant(SimInstant)
        /// A list of strings (`UserDefaults`' `[String]`).
        case strings([String])
        /// Bytes (`UserDefaults`' `Data`).
        case bytes([UInt8])
        /// A property list the app's own code stored, serialized (`UserDefaults`' dictionaries
        /// and arrays, under SimulatedBackgroundTasks).
        case propertyList([UInt8])
    }

    private var values: [String: Value] = [:]

    init() {}

    public func set(_ value: Bool, forKey key: String) { values[key] = .bool(value) }
    public func set(_ value: Int, forKey key: String) { values[key] = .integer(value) }
    public func set(_ value: Double, forKey key: String) { values[key] = .double(value) }
    public func set(_ value: String, forKey key: String) { values[key] = .string(value) }
    public func set(_ value: SimInstant, forKey key: String) { values[key] = .instant(value) }

    /// `bool(forKey:)`: false if absent.
    public func bool(forKey key: String) -> Bool {
        if case .bool(let value)? = values[key] { return value }
        return false
    }

    /// `integer(forKey:)`: 0 if absent.
    public func integer(forKey key: String) -> Int {
        if case .integer(let value)? = values[key] { return value }
        return 0
    }

    /// `double(forKey:)`: 0 if absent.
    public func double(forKey key: String) -> Double {
        if case .double(let value)? = values[key] { return value }
        return 0
    }

    /// `string(forKey:)`: nil if absent.
    public func string(forKey key: String) -> String? {
        if case .string(let value)? = values[key] { return value }
        return nil
    }

    /// The instant stored under `key`, if any.
    public func instant(forKey key: String) -> SimInstant? {
        if case .instant(let value)? = values[key] { return value }
        return nil
    }

    /// `removeObject(forKey:)`.
    public func removeObject(forKey key: String) { values[key] = nil }

    /// The value stored under `key`, whatever its kind.
    package func value(forKey key: String) -> Value? { values[key] }

    /// Stores `value` as it is.
    package func set(_ value: Value, forKey key: String) { values[key] = value }
}
