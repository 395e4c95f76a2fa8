#if os(Linux)
import BackgroundSim
import Foundation
import Glibc
import Synchronization

/// Where a tool's fork servers come from: a copy of the tool's own OS process made as it
/// starts, while it has one thread (`BackgroundSimCLI.main()` runs it first), which makes a
/// run's ``ForkServer`` when a run asks.
///
/// A fork server forked from the simulation's thread copies a process whose other threads —
/// other simulations, with `--jobs` — may hold a lock of the Swift runtime at that instant; the
/// copy would wait on it for ever (seen once, as `realsim tune` with two jobs hung on the
/// runtime's witness-table lock). The broker has one thread and holds no lock, so nothing it
/// forks can inherit one. It holds the tool's registry, as the tool had it at its start: a run
/// asks for a server by its scenario's policy (name and parameters), the broker makes that
/// policy's app recipe from its own registry, and forks a server with it on a socket the run
/// hands it (`SCM_RIGHTS`). A run whose policy the broker cannot make — a policy a test handed
/// the runner, or one a registry made after the tool started — forks its server itself
/// (``ForkServer/init(recipe:)``).
final class ProcessBroker: Sendable {
    /// The broker of this OS process, if a tool started one.
    static var current: ProcessBroker? { started.withLock { $0 } }
    private static let started = Mutex<ProcessBroker?>(nil)

    /// The tool's end of the broker's socket, one request at a time.
    private let control: Mutex<Int32>

    private init(control: Int32) {
        self.control = Mutex(control)
    }

    /// Forks the broker with the tool's `policies`, once. Call it while the process has one
    /// thread.
    static func start(policies: PolicyRegistry) {
        started.withLock { started in
            guard started == nil else { return }
            let (tool, broker) = MessageChannel.pair()
            let pid = fork()
            if pid == 0 {
                tool.close()
                serve(control: broker.descriptor, policies: policies)
            }
            broker.close()
            guard pid > 0 else {
                tool.close()
                return
            }
            started = ProcessBroker(control: tool.descriptor)
            brokerProcess.withLock { $0 = (pid, tool.descriptor) }
            // As the tool exits: the broker hears the end and is waited for.
            atexit {
                guard let (pid, control) = ProcessBroker.brokerProcess.withLock({ $0 }) else { return }
                _ = systemClose(control)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            }
        }
    }

    /// The broker's process and the tool's end of its socket, for the tool's exit.
    private static let brokerProcess = Mutex<(pid: pid_t, control: Int32)?>(nil)

    /// A fork server for the app of `policy`, made by the broker: the system's end of its channel,
    /// or `nil` if the broker cannot make the policy.
    func server(for policy: PolicyConfiguration) -> MessageChannel? {
        guard let request = try? JSONEncoder().encode(policy) else { return nil }
        let (system, server) = MessageChannel.pair()
        defer { server.close() }
        let made: Bool = control.withLock { control in
            guard Self.send(Array(request), with: server.descriptor, over: control) else { return false }
            var answer: UInt8 = 0
            return recv(control, &answer, 1, 0) == 1 && answer == 1
        }
        guard made else {
            system.close()
            return nil
        }
        return system
    }

    // MARK: The broker

    /// The broker's loop: a fork server for each request it can make, until the tool ends.
    private static func serve(control: Int32, policies: PolicyRegistry) -> Never {
        // Its fork servers end when their runs close their channels; nobody waits for them.
        _ = Glibc.signal(SIGCHLD, SIG_IGN)
        for signal in [SIGINT, SIGTERM, SIGHUP] { _ = Glibc.signal(signal, SIG_DFL) }
        let decoder = JSONDecoder()
        decoder.userInfo[.policyRegistry] = policies
        while let (request, descriptor) = receive(over: control) {
            var made: UInt8 = 0
            if let policy = try? decoder.decode(PolicyConfiguration.self, from: Data(request)),
               let make = policy.resolved(in: policies)?.factory(for: policy.parameters),
               let app = make() as? AppDelegatePolicy {
                let server = fork()
                if server == 0 {
                    _ = Glibc.signal(SIGCHLD, SIG_DFL)
                    _ = systemClose(control)
                    ForkServer.serve(channel: MessageChannel(descriptor: descriptor), recipe: app.recipe)
                }
                made = server > 0 ? 1 : 0
            }
            _ = systemClose(descriptor)
            _ = Glibc.send(control, &made, 1, Int32(MSG_NOSIGNAL))
        }
        // The tool ended (or is ending): its servers end as their channels close.
        _exit(0)
    }

    // MARK: A request and its socket

    /// `CMSG_SPACE(sizeof(int))` and `CMSG_LEN(sizeof(int))` on 64-bit Linux: a header of
    /// 16 bytes, then the descriptor, padded to 8.
    private static let controlSpace = 24
    private static let controlLength = 20

    /// Sends `payload` (with its length first) and `descriptor` over `socket`.
    private static func send(_ payload: [UInt8], with descriptor: Int32, over socket: Int32) -> Bool {
        var frame = withUnsafeBytes(of: UInt32(payload.count).littleEndian, Array.init) + payload
        var controlBytes = [UInt8](repeating: 0, count: controlSpace)
        controlBytes.withUnsafeMutableBytes { header in
            header.storeBytes(of: controlLength, toByteOffset: 0, as: Int.self)
            header.storeBytes(of: SOL_SOCKET, toByteOffset: 8, as: Int32.self)
            header.storeBytes(of: Int32(SCM_RIGHTS), toByteOffset: 12, as: Int32.self)
            header.storeBytes(of: descriptor, toByteOffset: 16, as: Int32.self)
        }
        let sent = withMessage(&frame, control: &controlBytes) { sendmsg(socket, &$0, Int32(MSG_NOSIGNAL)) }
        guard sent >= 0 else { return false }
        // The descriptor went with the first bytes; the rest, if any, follow as plain bytes.
        var offset = sent
        while offset < frame.count {
            let more = frame.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard more > 0 else { return false }
            offset += more
        }
        return true
    }

    /// Calls `body` with a socket message over `bytes` whose ancillary data is `control`.
    private static func withMessage(_ bytes: inout [UInt8], control: inout [UInt8], _ body: (inout msghdr) -> Int) -> Int {
        bytes.withUnsafeMutableBytes { bytes in
            control.withUnsafeMutableBytes { control in
                var vector = iovec(iov_base: bytes.baseAddress, iov_len: bytes.count)
                return withUnsafeMutablePointer(to: &vector) { vector in
                    var message = msghdr(msg_name: nil, msg_namelen: 0, msg_iov: vector, msg_iovlen: 1,
                                         msg_control: control.baseAddress, msg_controllen: control.count, msg_flags: 0)
                    return body(&message)
                }
            }
        }
    }

    /// The next request and the descriptor sent with it; `nil` once the tool has ended.
    private static func receive(over socket: Int32) -> ([UInt8], Int32)? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var controlBytes = [UInt8](repeating: 0, count: 64)
        let received = withMessage(&buffer, control: &controlBytes) { recvmsg(socket, &$0, 0) }
        guard received > 0 else { return nil }
        let descriptor = controlBytes.withUnsafeBytes { header -> Int32 in
            guard header.load(fromByteOffset: 8, as: Int32.self) == SOL_SOCKET,
                  header.load(fromByteOffset: 12, as: Int32.self) == Int32(SCM_RIGHTS) else { return -1 }
            return header.load(fromByteOffset: 16, as: Int32.self)
        }
        var frame = Array(buffer[0..<received])
        while frame.count < 4 || frame.count < 4 + Int(frame.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }) {
            let more = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress!, $0.count, 0) }
            guard more > 0 else { return nil }
            frame += buffer[0..<more]
        }
        guard descriptor >= 0 else { return receive(over: socket) }
        return (Array(frame.dropFirst(4)), descriptor)
    }
}
#endif
