import BackgroundSim
import Foundation
import SimKernel

/// `UserDefaults`, per simulated device: what the app stores survives its process, as on iOS,
/// and each simulated phone has its own. `UserDefaults.standard` reaches the device whose code
/// is running.
///
/// Values are kept as the simulated device's persistent store keeps them: `Bool`, `Int`,
/// `Double`, `String`, `Date`, `Data` and `[String]` as such, and other property lists
/// (dictionaries, arrays of other types, other numbers) serialized as a binary property list.
/// A `Date` stored on its own is kept as a time on the device's clock by the rule of
/// ``WallClock`` (a `Date()` stored now reads back later as that long ago), so code that saves
/// `Date()` as its last run and compares it with a later `Date()` sees simulated time pass; a
/// date inside a dictionary or array is kept as the date it is, which is the same date. A value
/// that is not a property list crashes the app, as iOS's exception does (crash reason
/// `nonPropertyListDefault`), and is not stored. `register(defaults:)` gives values for keys
/// not set, for the process (they are not stored), as on iOS.
open class UserDefaults: @unchecked Sendable {
    private let suite: String?

    /// The simulated device's defaults.
    open class var standard: UserDefaults { UserDefaults(suite: nil) }

    /// A named suite on the simulated device; `nil` for an empty name, as Foundation's.
    public init?(suiteName: String?) {
        guard suiteName?.isEmpty != true else { return nil }
        suite = suiteName
    }

    private init(suite: String?) {
        self.suite = suite
    }

    private func process(_ api: String) -> SimulatedProcess {
        SimulatedProcess.required(by: "UserDefaults.\(api)")
    }

    private func key(_ name: String) -> String { suite.map { "\($0)/\(name)" } ?? name }

    open func set(_ value: Any?, forKey defaultName: String) {
        let process = process("set(_:forKey:)")
        let stored: PersistentStore.Value?
        switch value {
        case nil: stored = nil
        case let value as Bool: stored = .bool(value)
        case let value as Int: stored = .integer(value)
        case let value as Double: stored = .double(value)
        case let value as String: stored = .string(value)
        case let value as Date: stored = .instant(process.instant(of: value))
        case let value as Data: stored = .bytes(Array(value))
        case let value as [String]: stored = .strings(value)
        case let value?:
            guard let list = try? PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0) else {
                process.crash(.nonPropertyListDefault)
                return
            }
            stored = .propertyList(Array(list))
        }
        process.store(stored, forKey: key(defaultName))
    }

    /// Values for keys not set, in this process only (the registration domain is not stored).
    open func register(defaults registrationDictionary: [String: Any]) {
        let process = SimulatedProcess.required(by: "UserDefaults.register(defaults:)")
        process.registeredDefaults.merge(registrationDictionary) { _, new in new }
    }

    open func set(_ value: Bool, forKey defaultName: String) { set(value as Any?, forKey: defaultName) }
    open func set(_ value: Int, forKey defaultName: String) { set(value as Any?, forKey: defaultName) }
    open func set(_ value: Double, forKey defaultName: String) { set(value as Any?, forKey: defaultName) }

    open func object(forKey defaultName: String) -> Any? {
        let process = process("object(forKey:)")
        switch process.storedValue(forKey: key(defaultName)) {
        case .bool(let value)?: return value
        case .integer(let value)?: return value
        case .double(let value)?: return value
        case .string(let value)?: return value
        case .instant(let value)?: return process.date(of: value)
        case .strings(let value)?: return value
        case .bytes(let value)?: return Data(value)
        case .propertyList(let value)?: return try? PropertyListSerialization.propertyList(from: Data(value), options: [], format: nil)
        case nil: return process.registeredDefaults[defaultName]
        }
    }

    open func bool(forKey defaultName: String) -> Bool { object(forKey: defaultName) as? Bool ?? false }
    open func integer(forKey defaultName: String) -> Int {
        switch object(forKey: defaultName) {
        case let value as Int: value
        case let value as Double: Int(value)
        case let value as Bool: value ? 1 : 0
        default: 0
        }
    }
    open func double(forKey defaultName: String) -> Double {
        switch object(forKey: defaultName) {
        case let value as Double: value
        case let value as Int: Double(value)
        default: 0
        }
    }
    open func string(forKey defaultName: String) -> String? { object(forKey: defaultName) as? String }
    open func data(forKey defaultName: String) -> Data? { object(forKey: defaultName) as? Data }
    open func stringArray(forKey defaultName: String) -> [String]? { object(forKey: defaultName) as? [String] }
    open func array(forKey defaultName: String) -> [Any]? { object(forKey: defaultName) as? [Any] }
    open func dictionary(forKey defaultName: String) -> [String: Any]? { object(forKey: defaultName) as? [String: Any] }
    open func float(forKey defaultName: String) -> Float { Float(double(forKey: defaultName)) }

    open func removeObject(forKey defaultName: String) {
        process("removeObject(forKey:)").store(nil, forKey: key(defaultName))
    }
}
