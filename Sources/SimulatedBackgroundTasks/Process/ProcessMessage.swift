/// A message of the pipe between the system and an app process, in ``WireWriter``'s format.
protocol WireMessage {
    func write(to writer: inout WireWriter)
    init(from reader: inout WireReader)
}

/// What the system sends down the pipe to an app process in another OS process (and to the
/// fork server that starts those processes, which reads only ``spawn``).
enum MessageToProcess: WireMessage, Equatable {
    /// Run the app's code for a delivery, with the phone's state now; the process answers
    /// with its calls, then ``MessageToSystem/done``.
    case deliver(ProcessDelivery, PhoneState)
    /// The answer to the process's last call, with the phone's state after it.
    case result(SystemCallResult, PhoneState)
    /// The simulated process ended: exit, running nothing more.
    case exit
    /// To the fork server: start a new process of the app, which takes over the pipe, on the
    /// processor the simulation's thread runs on (−1: anywhere).
    case spawn(processor: Int32)
}

/// What an app process in another OS process (and its fork server) sends up the pipe.
enum MessageToSystem: WireMessage, Equatable {
    /// One of the app's calls; the system answers with ``MessageToProcess/result(_:_:)``, unless
    /// the call does not await an answer (``SystemCall/awaitsAnswer``).
    case call(SystemCall)
    /// What the process wrote to its standard output or error since it last said.
    case output([UInt8])
    /// The delivery's code, and the async work it started, have run.
    case done
    /// From the fork server, once, as it starts: it is set up and waits for `spawn`.
    case ready
    /// From the fork server: the process ended, how, and what it wrote that it had not yet
    /// sent (the runtime's message for a crash, above all).
    case ended(ProcessExit, output: [UInt8])
}

/// How an OS process ended.
enum ProcessExit: Equatable {
    /// It called `exit` (or `_exit`) with this status.
    case exited(Int32)
    /// A signal ended it.
    case signaled(Int32)
}
