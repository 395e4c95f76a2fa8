/// Encodes `Encodable` values straight into a ``JSONValue``, object members sorted by key: how a
/// scenario becomes the document that `bgsim scenario` prints, that files are laid over and that
/// sweep fingerprints hash — with no round trip through text and Foundation's encoder.
///
/// `nil` optionals are left out, as `encodeIfPresent` asks.
package enum JSONValueEncoder {
    /// `value` as a document.
    package static func encode(_ value: any Encodable) throws -> JSONValue {
        let root = Node()
        try value.encode(to: NodeEncoder(node: root, codingPath: []))
        return root.value
    }
}

/// A value being built: a scalar, or an object or array whose members are built in turn.
private final class Node {
    enum Content {
        case value(JSONValue)
        case object([(key: String, node: Node)])
        case array([Node])
    }

    var content = Content.value(.null)

    /// The finished value, members sorted by key.
    var value: JSONValue {
        switch content {
        case .value(let value): value
        case .object(let members): .object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.node.value) })
        case .array(let elements): .array(elements.map(\.value))
        }
    }

    /// The child for `key` (made, or replaced, now).
    func child(_ key: String) -> Node {
        let node = Node()
        var members = takeMembers()
        members.removeAll { $0.key == key }
        members.append((key, node))
        content = .object(members)
        return node
    }

    /// A new element at the end, in amortised constant time: the array is taken out of
    /// ``content`` before the append, so that it is not shared and is not copied.
    func appended() -> Node {
        let node = Node()
        var elements = takeElements()
        elements.append(node)
        content = .array(elements)
        return node
    }

    /// The object's members, leaving ``content`` empty, so that the caller holds the only reference.
    private func takeMembers() -> [(key: String, node: Node)] {
        guard case .object(let members) = content else { return [] }
        content = .value(.null)
        return members
    }

    /// The array's elements, leaving ``content`` empty, so that the caller holds the only reference.
    private func takeElements() -> [Node] {
        guard case .array(let elements) = content else { return [] }
        content = .value(.null)
        return elements
    }

    func becomeObject() { if case .object = content {} else { content = .object([]) } }
    func becomeArray() { if case .array = content {} else { content = .array([]) } }
}

/// A number for the tree, refusing what JSON cannot hold.
private func number(_ value: Double, _ codingPath: [any CodingKey]) throws -> JSONValue {
    guard value.isFinite else {
        throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: codingPath, debugDescription: "not a finite number"))
    }
    return .number(value)
}

/// The tree for a scalar, or `nil` if `value` is not one.
private func scalar(_ value: any Encodable, _ codingPath: [any CodingKey]) throws -> JSONValue? {
    switch value {
    case let value as Bool: return .bool(value)
    case let value as String: return .string(value)
    case let value as Double: return try number(value, codingPath)
    case let value as Float: return try number(Double(value), codingPath)
    case let value as Int: return .number(Double(value))
    case let value as Int64: return .number(Double(value))
    case let value as UInt64: return .number(Double(value))
    case let value as UInt32: return .number(Double(value))
    case let value as UInt8: return .number(Double(value))
    default: return nil
    }
}

private struct NodeEncoder: Encoder {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValue(node: node, codingPath: codingPath)
    }
}

/// Encodes `value` into `node`: a scalar directly, anything else through its `encode(to:)`.
private func encode(_ value: any Encodable, into node: Node, codingPath: [any CodingKey]) throws {
    if let scalar = try scalar(value, codingPath) {
        node.content = .value(scalar)
    } else {
        try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.child(key.stringValue).content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try BackgroundSim.encode(value, into: node.child(key.stringValue), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.child("super"), codingPath: codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    var count: Int {
        if case .array(let elements) = node.content { return elements.count }
        return 0
    }

    mutating func encodeNil() throws { node.appended().content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try BackgroundSim.encode(value, into: node.appended(), codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.appended(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.appended(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.appended(), codingPath: codingPath) }
}

private struct SingleValue: SingleValueEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try BackgroundSim.encode(value, into: node, codingPath: codingPath)
    }
}
