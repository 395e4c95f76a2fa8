#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One end of the socket between the system and an app process in another OS process (or its
/// fork server): each message is its length (32 bits, little-endian) and its bytes in
/// ``WireWriter``'s format. Sending never raises `SIGPIPE`; a closed other end reads as the end
/// of the messages.
final class MessageChannel {
    let descriptor: Int32
    private var writer = WireWriter()
    /// Bytes received and not yet read as messages, from `inboxStart` on.
    private var inbox: [UInt8] = []
    private var inboxStart = 0
    /// What one `recv` reads into.
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// A connected pair of ends.
    static func pair() -> (MessageChannel, MessageChannel) {
        var descriptors: [Int32] = [0, 0]
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else {
            fatalError("SimulatedBackgroundTasks: socketpair failed (errno \(errno)): the app's process cannot be started")
        }
        return (MessageChannel(descriptor: descriptors[0]), MessageChannel(descriptor: descriptors[1]))
    }

    func close() {
        _ = systemClose(descriptor)
    }

    // MARK: Sending

    /// Sends `message`; false if the other end is closed.
    @discardableResult
    func send(_ message: MessageToProcess) -> Bool { sendMessage(message) }

    /// Sends `message`; false if the other end is closed.
    @discardableResult
    func send(_ message: MessageToSystem) -> Bool { sendMessage(message) }

    private func sendMessage<Message: WireMessage>(_ message: Message) -> Bool {
        writer.beginFrame()
        message.write(to: &writer)
        writer.endFrame()
        return sendFrame()
    }

    private func sendFrame() -> Bool {
        writer.bytes.withUnsafeBytes { frame in
            var sent = 0
            while sent < frame.count {
                #if canImport(Glibc)
                let result = Glibc.send(descriptor, frame.baseAddress! + sent, frame.count - sent, Int32(MSG_NOSIGNAL))
                #else
                let result = Darwin.send(descriptor, frame.baseAddress! + sent, frame.count - sent, 0)
                #endif
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                sent += result
            }
            return true
        }
    }

    // MARK: Receiving

    /// Whether a message can be read within `seconds` of real time (one already received, or
    /// bytes waiting, or the other end closed).
    func isReadable(within seconds: Int) -> Bool {
        guard inbox.count == inboxStart else { return true }
        var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, Int32(seconds * 1_000))
            if ready < 0 && errno == EINTR { continue }
            return ready != 0
        }
    }

    /// The next message, or `nil` once the other end is closed.
    func receive<Message: WireMessage>(_ type: Message.Type) -> Message? {
        guard let bytes = receiveFrame() else { return nil }
        var reader = WireReader(bytes)
        let message = Message(from: &reader)
        if !reader.isAtEnd { reader.corrupt("bytes left over after \(message)") }
        return message
    }

    private func receiveFrame() -> [UInt8]? {
        guard fill(4) else { return nil }
        var length: UInt32 = 0
        withUnsafeMutableBytes(of: &length) { $0.copyBytes(from: inbox[inboxStart..<inboxStart + 4]) }
        let count = Int(UInt32(littleEndian: length))
        guard fill(4 + count) else { return nil }
        let frame = Array(inbox[inboxStart + 4..<inboxStart + 4 + count])
        inboxStart += 4 + count
        if inboxStart == inbox.count {
            inbox.removeAll(keepingCapacity: true)
            inboxStart = 0
        }
        return frame
    }

    /// Reads until at least `count` bytes wait in the inbox; false at the end of the stream.
    private func fill(_ count: Int) -> Bool {
        while inbox.count - inboxStart < count {
            if inboxStart > 0 {
                inbox.removeFirst(inboxStart)
                inboxStart = 0
            }
            let result = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
            if result < 0 {
                if errno == EINTR { continue }
                return false
            }
            if result == 0 { return false }
            inbox.append(contentsOf: chunk[0..<result])
        }
        return true
    }
}

/// `close(2)`, named apart from the channel's own `close()`.
func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(descriptor)
    #else
    Darwin.close(descriptor)
    #endif
}
