#if os(Linux)
import BackgroundSim
import Glibc

/// Starts each launch of the app's process as an OS process of its own, so that the app's code
/// starts every launch as it would on iOS — every global, static and singleton fresh — and
/// can crash without ending the run.
///
/// The server itself is an OS process in which none of the app's code has run (the simulation
/// never runs the app's code itself), and it runs none: forked by the tool's
/// ``ProcessBroker``, or, where there is none, from the simulation's thread at the run's first
/// launch; a "zygote", as Android starts apps, or a fuzzer's fork
/// server. For each launch it forks a child from itself — one thread, nothing of the app's
/// code run — which takes over the channel: the system's deliveries reach the child, the
/// child's calls reach the system, until the system says the process ended. When the child
/// exits or dies, the server says how on the same channel, with what the child wrote that it
/// had not sent. Only one process of the app lives at a time, as on the phone.
///
/// Forking happens twice: the server from the simulation's thread, once a run, and each child
/// from the server, which has one thread. The first copies a process that may have other
/// threads (other simulations, with `--jobs`): a lock one of them held at that instant stays
/// held in the copy. glibc makes `malloc` and `stdio` safe across `fork`, and the server and its
/// children take none of the simulation's own locks; what remains is a lock of the Swift
/// runtime's or Foundation's taken by another thread at the instant of the fork and needed in
/// the server or a child (a type's metadata made for the first time, say). `realsim tune` with
/// two jobs hung so once, on the runtime's witness-table lock, in the server's own setup: hence
/// the broker, which a tool forks with one thread; and, where there is none, a server that is
/// not set up in time is forked again, and a child that says nothing for ten minutes stops the
/// run with a message. Linux only: on macOS a child of a process that has used Foundation must
/// `exec` (docs/RUN-YOUR-OWN-CODE.md).
final class ForkServer {
    private let channel: MessageChannel
    /// The server's process, when this process forked it (one the broker forked is the broker's).
    private let pid: pid_t?
    /// A child has the channel: started, and not known to have ended.
    private var childHasChannel = false
    /// A child was told to exit; the server's word that it ended is still to be read.
    private var endPending = false
    /// The simulation's thread, kept on one processor with the children while the server lives,
    /// and the processors it was allowed before.
    private let thread = pthread_self()
    private let threadAffinity: ProcessorAffinity.Mask?

    /// Forks the server, which makes each child with `recipe`, and keeps the calling thread and
    /// each child on the processor the thread runs on now (``ProcessorAffinity``).
    ///
    /// A server that is not set up within ``startupSeconds`` copied a lock another thread held
    /// as it was forked (above): it is killed and forked again, before anything of the run
    /// has happened in it.
    init(recipe: AppRecipe) {
        threadAffinity = ProcessorAffinity.pin(to: ProcessorAffinity.current)
        for _ in 0..<Self.startupAttempts {
            let (system, server) = MessageChannel.pair()
            let pid = fork()
            if pid == 0 {
                system.close()
                Self.serve(channel: server, recipe: recipe)
            }
            server.close()
            guard pid > 0 else { fatalError("SimulatedBackgroundTasks: fork failed (errno \(errno)): the app's process cannot be started") }
            if system.isReadable(within: Self.startupSeconds), case .ready? = system.receive(MessageToSystem.self) {
                channel = system
                self.pid = pid
                return
            }
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            system.close()
        }
        fatalError("SimulatedBackgroundTasks: the fork server of the app's processes did not start in \(Self.startupAttempts) attempts "
                   + "of \(Self.startupSeconds) s (a lock another thread held as it was forked?)")
    }

    /// Real seconds a server has to be set up: it does no more than close descriptors and make
    /// a temporary file.
    static let startupSeconds = 10
    static let startupAttempts = 5

    /// The server the tool's ``ProcessBroker`` forked, on `channel`; the calling thread and each
    /// child stay on the processor the thread runs on now.
    init(brokered channel: MessageChannel) {
        threadAffinity = ProcessorAffinity.pin(to: ProcessorAffinity.current)
        guard case .ready? = channel.receive(MessageToSystem.self) else {
            fatalError("SimulatedBackgroundTasks: the broker's fork server ended as it started")
        }
        self.channel = channel
        pid = nil
    }

    deinit {
        endChild()
        channel.close()
        if let pid {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        if let threadAffinity, pthread_equal(thread, pthread_self()) != 0 { ProcessorAffinity.restore(threadAffinity) }
    }

    // MARK: The system's side

    /// Starts a child: a new process of the app, waiting for its first delivery.
    func startChild() {
        precondition(!childHasChannel, "ForkServer: a child started while another has the channel")
        if endPending {
            while let message = channel.receive(MessageToSystem.self) {
                if case .ended = message { break }
            }
            endPending = false
        }
        channel.send(.spawn(processor: ProcessorAffinity.current))
        childHasChannel = true
    }

    /// Tells the child its process ended; it exits without running anything more.
    func endChild() {
        guard childHasChannel else { return }
        childHasChannel = false
        channel.send(.exit)
        endPending = true
    }

    /// Real seconds a child may send nothing while it runs a delivery before the run stops
    /// with a message, rather than hang: ten minutes.
    static let silenceSeconds = 600

    /// How a delivery to the child came out.
    enum Outcome {
        /// Its code, and the async work that code started, ran.
        case done
        /// The child's OS process ended while it ran.
        case ended(ProcessExit)
        /// The child's OS process ended during a delivery made while the system carried out
        /// one of its calls (and that delivery's outcome said so).
        case endedEarlier
    }

    /// Runs `delivery` in the child, carrying out its calls on `host`, until the child is done
    /// with it or has ended.
    func exchange(_ delivery: ProcessDelivery, with host: ProcessHost) -> Outcome {
        guard childHasChannel else { return .endedEarlier }
        channel.send(.deliver(delivery, host.state))
        while true {
            guard channel.isReadable(within: Self.silenceSeconds) else {
                fatalError("SimulatedBackgroundTasks: the app's process sent nothing for \(Self.silenceSeconds) s of real time during "
                           + "\(delivery) at \(host.state.instant): its code loops without yielding, or waits on a lock another "
                           + "thread held as the fork server was forked (docs/RUN-YOUR-OWN-CODE.md)")
            }
            guard let message = channel.receive(MessageToSystem.self) else {
                fatalError("SimulatedBackgroundTasks: the fork server of the app's processes ended unexpectedly")
            }
            switch message {
            case .call(let call) where !call.awaitsAnswer:
                host.perform(withoutAnswer: call)
            case .call(let call):
                let result = host.perform(call)
                guard childHasChannel else { return .endedEarlier }
                channel.send(.result(result, host.state))
            case .output(let bytes):
                host.recordOutput(bytes)
            case .done:
                return .done
            case .ended(let exit, let output):
                host.recordOutput(output)
                childHasChannel = false
                return .ended(exit)
            case .ready:
                fatalError("SimulatedBackgroundTasks: a fork server said it was ready twice")
            }
        }
    }

    // MARK: The server

    /// The server's loop: a child for each `spawn`, and word of how it ended.
    static func serve(channel: MessageChannel, recipe: AppRecipe) -> Never {
        closeInheritedDescriptors(keeping: channel.descriptor)
        // The simulation's own handlers do not apply here: an interrupt ends the server and its
        // children at once, and a crash of the app's code ends its process without the Swift
        // runtime's backtracer (which would print addresses and timings that differ from run to
        // run, and take half a second); the runtime's message, if it writes one, comes before
        // the signal.
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE] { _ = Glibc.signal(signal, SIG_DFL) }
        let capture = OutputCapture()
        // Installs the concurrency hooks once here, for every child.
        _ = try? SimulatedExecutor()
        channel.send(.ready)
        while let message = channel.receive(MessageToProcess.self) {
            // Anything else was meant for a child that has since ended.
            guard case .spawn(let processor) = message else { continue }
            let child = fork()
            if child == 0 {
                ProcessorAffinity.pin(to: processor)
                ForkedProcess.run(channel: channel, capture: capture, recipe: recipe)
            }
            guard child > 0 else {
                channel.send(.ended(.exited(-1), output: Array("fork failed (errno \(errno))\n".utf8)))
                continue
            }
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            channel.send(.ended(ProcessExit(waitStatus: status), output: capture.take()))
        }
        _exit(0)
    }

    /// Closes every descriptor the fork copied from the simulation but the standard ones and
    /// `kept`: another run's channel held open here would never read as closed.
    private static func closeInheritedDescriptors(keeping kept: Int32) {
        guard let directory = opendir("/proc/self/fd") else { return }
        var descriptors: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) { String(cString: $0) }
            }
            if let descriptor = Int32(name) { descriptors.append(descriptor) }
        }
        let own = dirfd(directory)
        closedir(directory)
        for descriptor in descriptors where descriptor > 2 && descriptor != kept && descriptor != own {
            _ = systemClose(descriptor)
        }
    }
}

extension ProcessExit {
    /// How a process ended, from `waitpid`'s status.
    init(waitStatus status: Int32) {
        let signal = status & 0x7f
        self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    /// The crash it is when the app's process ended this way without the system ending it.
    var crashReason: CrashReason {
        switch self {
        case .exited: .appCodeExited
        case .signaled(SIGILL), .signaled(SIGTRAP): .appCodeTrapped
        case .signaled(SIGSEGV), .signaled(SIGBUS): .appCodeBadAccess
        case .signaled: .appCodeAborted
        }
    }
}

/// The system's side of an app process in an OS process of its own, started by the phone's
/// ``ForkServer``.
final class ForkedLink: ProcessLink {
    private unowned let host: ProcessHost
    private let server: ForkServer
    private var ended = false

    init(host: ProcessHost, server: ForkServer) {
        self.host = host
        self.server = server
        server.startChild()
    }

    func deliver(_ delivery: ProcessDelivery) {
        guard !ended else { return }
        switch server.exchange(delivery, with: host) {
        case .done:
            break
        case .ended(let exit):
            ended = true
            host.processEnded(exit)
        case .endedEarlier:
            ended = true
        }
    }

    func end() {
        guard !ended else { return }
        ended = true
        server.endChild()
    }
}
#endif
