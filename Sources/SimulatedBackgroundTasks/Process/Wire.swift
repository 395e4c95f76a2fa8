import SimKernel

/// Writes values as bytes for the pipe between the system and an app process in another OS
/// process: fixed-width integers little-endian, a `Double` as its bit pattern, a string or a
/// byte array as its length (32 bits) and its bytes, an optional as a presence byte and its
/// value. Both ends are the same binary, so the format has no version.
struct WireWriter {
    private(set) var bytes: [UInt8] = []

    init() {}

    /// Starts a new message, keeping the capacity.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Starts a new frame: room for its length, which ``endFrame()`` fills in.
    mutating func beginFrame() {
        reset()
        write(UInt32(0))
    }

    /// Fills in the length of the frame ``beginFrame()`` started: the bytes after it.
    mutating func endFrame() {
        let length = UInt32(bytes.count - 4)
        for index in 0..<4 { bytes[index] = UInt8(truncatingIfNeeded: length >> (8 * index)) }
    }

    mutating func write(_ value: UInt8) { bytes.append(value) }
    mutating func write(_ value: Bool) { bytes.append(value ? 1 : 0) }
    mutating func write(_ value: UInt32) { append(value) }
    mutating func write(_ value: UInt64) { append(value) }
    mutating func write(_ value: Int64) { append(value) }
    mutating func write(_ value: Int) { append(Int64(value)) }
    mutating func write(_ value: Double) { append(value.bitPattern) }
    mutating func write(_ value: SimInstant) { append(value.nanosecondsSinceStart) }
    mutating func write(_ value: SimDuration) { append(value.nanoseconds) }

    mutating func write(_ value: String) {
        write(UInt32(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    mutating func write(_ value: [UInt8]) {
        write(UInt32(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func write<Value>(_ value: Value?, _ writeValue: (inout WireWriter, Value) -> Void) {
        write(value != nil)
        if let value { writeValue(&self, value) }
    }

    mutating func write<Element>(_ values: [Element], _ writeElement: (inout WireWriter, Element) -> Void) {
        write(UInt32(values.count))
        for value in values { writeElement(&self, value) }
    }

    private mutating func append<Integer: FixedWidthInteger>(_ value: Integer) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}

/// Reads what ``WireWriter`` wrote, in the same order. A message that does not read back is a
/// bug in this library (both ends are the same binary), and stops the process with a message.
struct WireReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { offset == bytes.count }

    mutating func readByte() -> UInt8 {
        require(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readBool() -> Bool { readByte() != 0 }
    mutating func readUInt32() -> UInt32 { read(UInt32.self) }
    mutating func readUInt64() -> UInt64 { read(UInt64.self) }
    mutating func readInt64() -> Int64 { read(Int64.self) }
    mutating func readInt() -> Int { Int(read(Int64.self)) }
    mutating func readDouble() -> Double { Double(bitPattern: read(UInt64.self)) }
    mutating func readInstant() -> SimInstant { SimInstant(nanosecondsSinceStart: read(Int64.self)) }
    mutating func readDuration() -> SimDuration { .nanoseconds(read(Int64.self)) }

    mutating func readString() -> String {
        let count = Int(readUInt32())
        require(count)
        defer { offset += count }
        return String(decoding: bytes[offset..<offset + count], as: UTF8.self)
    }

    mutating func readBytes() -> [UInt8] {
        let count = Int(readUInt32())
        require(count)
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func readOptional<Value>(_ readValue: (inout WireReader) -> Value) -> Value? {
        readBool() ? readValue(&self) : nil
    }

    mutating func readArray<Element>(_ readElement: (inout WireReader) -> Element) -> [Element] {
        let count = Int(readUInt32())
        require(count)   // at least a byte an element: a corrupt count cannot ask for more
        return (0..<count).map { _ in readElement(&self) }
    }

    /// A byte that names one of `type`'s cases.
    mutating func readCase<Value: RawRepresentable>(_ type: Value.Type) -> Value where Value.RawValue == UInt8 {
        let raw = readByte()
        guard let value = Value(rawValue: raw) else { corrupt("no \(Value.self) has the code \(raw)") }
        return value
    }

    private mutating func read<Integer: FixedWidthInteger>(_ type: Integer.Type) -> Integer {
        let size = MemoryLayout<Integer>.size
        require(size)
        var value = Integer.zero
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[offset..<offset + size]) }
        offset += size
        return Integer(littleEndian: value)
    }

    private func require(_ count: Int) {
        if count < 0 || bytes.count - offset < count { corrupt("a message ended \(count) bytes early") }
    }

    func corrupt(_ problem: String) -> Never {
        fatalError("SimulatedBackgroundTasks: a message between the system and the app's process did not read back: \(problem)")
    }
}

extension WireWriter {
    /// Writes `value` as its position in `Value.allCases`.
    mutating func write<Value: CaseIterable & Equatable>(case value: Value) {
        let cases = Value.allCases
        write(UInt8(cases.distance(from: cases.startIndex, to: cases.firstIndex(of: value)!)))
    }
}

extension WireReader {
    /// Reads a value ``WireWriter/write(case:)`` wrote.
    mutating func read<Value: CaseIterable>(case type: Value.Type) -> Value {
        let position = Int(readByte())
        let cases = Value.allCases
        guard position < cases.count else { corrupt("no \(Value.self) at position \(position)") }
        return cases[cases.index(cases.startIndex, offsetBy: position)]
    }
}
