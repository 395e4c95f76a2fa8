/// A JSON document as a tree, with object members kept in their written order.
///
/// BackgroundSim reads scenarios with its own parser so that a malformed file gets an error that
/// says where (`line 12, column 5`), and writes its outputs with its own writer so that key order
/// and number formatting are stable from run to run (Swift dictionaries have no stable order).
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in document order; keys are unique (the parser rejects duplicates).
    case object([(key: String, value: JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The member named `key`, if this is an object that has one.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// A word for the value's type, for error messages: "an object", "a number", …
    package var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
