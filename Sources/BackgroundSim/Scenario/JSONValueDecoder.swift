/// Decodes `Decodable` values straight from a ``JSONValue``: the one JSON stack scenarios are read
/// with (``JSONParser`` reads the text and says where a problem is; this turns the tree into
/// values), with no round trip through text and Foundation's decoder.
///
/// Errors are the standard `DecodingError`s with their coding paths, which
/// `ScenarioLoader.issue(from:)` turns into field paths. A whole number is decoded from a JSON
/// number only if it is one; `null` and a missing key are "absent" for optionals.
package struct JSONValueDecoder {
    package var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    package init() {}

    /// Decodes a `T` from `value`.
    package func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try T(from: ValueDecoder(value: value, codingPath: [], userInfo: userInfo))
    }
}

/// The decoder for one value of the tree, at `codingPath`.
private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    init(value: JSONValue, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]) {
        self.value = value
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    init(value: JSONValue, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
        self.value = value
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: JSONValue].self, value, codingPath) }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath, userInfo: userInfo))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self, value, codingPath) }
        return UnkeyedContainer(elements: elements, codingPath: codingPath, userInfo: userInfo)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValue(value: value, codingPath: codingPath, userInfo: userInfo)
    }
}

/// The error for `value` where a `type` was expected.
private func mismatch(_ type: Any.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) -> DecodingError {
    .typeMismatch(type, DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(type), got \(value.kindDescription)"))
}

/// Reads scalars out of a value: the one place numbers, whole numbers, strings and booleans are
/// taken from the tree.
private func scalar<T>(_ type: T.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) throws -> T {
    switch value {
    case .bool(let bool) where T.self == Bool.self:
        return bool as! T
    case .string(let string) where T.self == String.self:
        return string as! T
    case .number(let number) where T.self == Double.self:
        return number as! T
    case .number(let number) where T.self == Float.self:
        return Float(number) as! T
    case .number(let number):
        guard number.rounded() == number, abs(number) <= 9_007_199_254_740_992 else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath, debugDescription: "expected a whole number, got \(ParameterValidator.format(number))"))
        }
        if T.self == Int.self { return Int(number) as! T }
        if T.self == Int64.self { return Int64(number) as! T }
        if T.self == UInt64.self, number >= 0 { return UInt64(number) as! T }
        if T.self == UInt32.self, number >= 0, number <= Double(UInt32.max) { return UInt32(number) as! T }
        if T.self == UInt8.self, number >= 0, number <= 255 { return UInt8(number) as! T }
        throw mismatch(T.self, value, codingPath)
    case .null:
        throw DecodingError.valueNotFound(T.self, DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(T.self), got null"))
    default:
        throw mismatch(T.self, value, codingPath)
    }
}

/// A key for an array element.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(key: String, value: JSONValue)]
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { members.contains { $0.key == key.stringValue } }

    private func member(_ key: Key) throws -> JSONValue {
        guard let member = members.first(where: { $0.key == key.stringValue }) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "no value for \(key.stringValue)"))
        }
        return member.value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let path = codingPath + [key]
        let value = try member(key)
        switch type {
        case is Bool.Type, is String.Type, is Double.Type, is Float.Type, is Int.Type, is Int64.Type, is UInt64.Type,
             is UInt32.Type, is UInt8.Type:
            return try scalar(T.self, value, path)
        default:
            return try T(from: ValueDecoder(value: value, codingPath: path, userInfo: userInfo))
        }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let member = members.first(where: { $0.key == key.stringValue }), member.value != .null else { return nil }
        return try decode(type, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: try member(key), codingPath: codingPath + [key], userInfo: userInfo).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: try member(key), codingPath: codingPath + [key], userInfo: userInfo).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: .object(members), codingPath: codingPath, userInfo: userInfo)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: members.first { $0.key == key.stringValue }?.value ?? .null, codingPath: codingPath + [key], userInfo: userInfo)
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
        self.elements = elements
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next(_ type: Any.Type) throws -> (JSONValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: codingPath, debugDescription: "the array has no more elements"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next(type)
        switch type {
        case is Bool.Type, is String.Type, is Double.Type, is Float.Type, is Int.Type, is Int64.Type, is UInt64.Type,
             is UInt32.Type, is UInt8.Type:
            return try scalar(T.self, value, path)
        default:
            return try T(from: ValueDecoder(value: value, codingPath: path, userInfo: userInfo))
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next(type)
        return try ValueDecoder(value: value, codingPath: path, userInfo: userInfo).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next([JSONValue].self)
        return try ValueDecoder(value: value, codingPath: path, userInfo: userInfo).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next(JSONValue.self)
        return ValueDecoder(value: value, codingPath: path, userInfo: userInfo)
    }
}

private struct SingleValue: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is Bool.Type, is String.Type, is Double.Type, is Float.Type, is Int.Type, is Int64.Type, is UInt64.Type,
             is UInt32.Type, is UInt8.Type:
            return try scalar(T.self, value, codingPath)
        default:
            return try T(from: ValueDecoder(value: value, codingPath: codingPath, userInfo: userInfo))
        }
    }
}
