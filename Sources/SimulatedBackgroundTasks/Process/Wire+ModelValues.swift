import BackgroundSim
import SimKernel

// The model's values that cross the pipe, in ``WireWriter``'s format: their fields in
// declaration order.

extension NetworkPath {
    func write(to writer: inout WireWriter) {
        writer.write(interface.rawValue)
        writer.write(technology.rawValue)
        writer.write(signal.rawValue)
        writer.write(isConstrained)
    }

    init(from reader: inout WireReader) {
        self = .offline
        interface = reader.readCase(Interface.self)
        technology = reader.readCase(CellularTechnology.self)
        signal = reader.readCase(SignalQuality.self)
        isConstrained = reader.readBool()
    }
}

extension TaskRequest {
    func write(to writer: inout WireWriter) {
        writer.write(identifier)
        writer.write(kind.rawValue)
        writer.write(earliestBeginDate) { $0.write($1) }
        writer.write(requiresExternalPower)
        writer.write(requiresNetworkConnectivity)
    }

    init(from reader: inout WireReader) {
        let identifier = reader.readString()
        switch reader.readCase(Kind.self) {
        case .appRefresh: self = .appRefresh(identifier: identifier)
        case .processing: self = .processing(identifier: identifier)
        }
        earliestBeginDate = reader.readOptional { $0.readInstant() }
        requiresExternalPower = reader.readBool()
        requiresNetworkConnectivity = reader.readBool()
    }
}

extension PersistentStore.Value {
    private enum Tag: UInt8 { case bool, integer, double, string, instant, strings, bytes, propertyList }

    func write(to writer: inout WireWriter) {
        switch self {
        case .bool(let value):
            writer.write(Tag.bool.rawValue)
            writer.write(value)
        case .integer(let value):
            writer.write(Tag.integer.rawValue)
            writer.write(value)
        case .double(let value):
            writer.write(Tag.double.rawValue)
            writer.write(value)
        case .string(let value):
            writer.write(Tag.string.rawValue)
            writer.write(value)
        case .instant(let value):
            writer.write(Tag.instant.rawValue)
            writer.write(value)
        case .strings(let value):
            writer.write(Tag.strings.rawValue)
            writer.write(value) { $0.write($1) }
        case .bytes(let value):
            writer.write(Tag.bytes.rawValue)
            writer.write(value)
        case .propertyList(let value):
            writer.write(Tag.propertyList.rawValue)
            writer.write(value)
        }
    }

    init(from reader: inout WireReader) {
        switch reader.readCase(Tag.self) {
        case .bool: self = .bool(reader.readBool())
        case .integer: self = .integer(reader.readInt())
        case .double: self = .double(reader.readDouble())
        case .string: self = .string(reader.readString())
        case .instant: self = .instant(reader.readInstant())
        case .strings: self = .strings(reader.readArray { $0.readString() })
        case .bytes: self = .bytes(reader.readBytes())
        case .propertyList: self = .propertyList(reader.readBytes())
        }
    }
}

extension BackgroundSessionConfiguration {
    func write(to writer: inout WireWriter) {
        writer.write(identifier)
        writer.write(isDiscretionary)
        writer.write(allowsCellularAccess)
        writer.write(allowsConstrainedNetworkAccess)
        writer.write(sessionSendsLaunchEvents)
        writer.write(timeoutIntervalForResource)
    }

    init(from reader: inout WireReader) {
        self.init(identifier: reader.readString())
        isDiscretionary = reader.readBool()
        allowsCellularAccess = reader.readBool()
        allowsConstrainedNetworkAccess = reader.readBool()
        sessionSendsLaunchEvents = reader.readBool()
        timeoutIntervalForResource = reader.readDuration()
    }
}

extension BackgroundTransfer {
    func write(to writer: inout WireWriter) {
        writer.write(session)
        writer.write(taskIdentifier)
        writer.write(details)
    }

    init(from reader: inout WireReader) {
        self.init(session: reader.readString(), taskIdentifier: reader.readInt(), details: reader.readBytes())
    }
}
