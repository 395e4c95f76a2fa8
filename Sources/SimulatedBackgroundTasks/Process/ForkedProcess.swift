import BackgroundSim
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The app's side of a process in an OS process of its own: it runs the deliveries the system
/// sends, makes the app's calls over the channel, and exits when the system says the process
/// ended, or when the system's end of the channel closes.
final class ForkedProcess: SystemServices {
    private let channel: MessageChannel
    private let capture: OutputCapture
    private var process: SimulatedProcess!
    private var current: PhoneState?

    private init(channel: MessageChannel, capture: OutputCapture) {
        self.channel = channel
        self.capture = capture
    }

    /// Runs the app's process for `recipe` on `channel` until it ends; never returns.
    static func run(channel: MessageChannel, capture: OutputCapture, recipe: AppRecipe) -> Never {
        let forked = ForkedProcess(channel: channel, capture: capture)
        forked.process = SimulatedProcess(services: forked, recipe: recipe)
        while let message = channel.receive(MessageToProcess.self) {
            switch message {
            case .deliver(let delivery, let state):
                forked.handle(delivery, state)
            case .exit:
                _exit(0)
            case .result, .spawn:
                fatalError("SimulatedBackgroundTasks: the app's process received \(message) while idle")
            }
        }
        _exit(0)
    }

    var state: PhoneState {
        guard let current else { fatalError("SimulatedBackgroundTasks: the app's process read the phone's state before its first delivery") }
        return current
    }

    func call(_ call: SystemCall) -> SystemCallResult {
        sendOutput()
        guard channel.send(.call(call)) else { _exit(0) }
        guard call.awaitsAnswer else { return .none }
        while let message = channel.receive(MessageToProcess.self) {
            switch message {
            case .result(let result, let state):
                current = state
                return result
            case .deliver(let delivery, let state):
                handle(delivery, state)
            case .exit:
                _exit(0)
            case .spawn:
                fatalError("SimulatedBackgroundTasks: the app's process received a fork server's message")
            }
        }
        _exit(0)
    }

    /// Reports the crash, then ends the OS process at once, as a crashed process ends.
    func crash(_ reason: CrashReason) {
        _ = call(.crash(reason))
        sendOutput()
        _exit(0)
    }

    /// Writes to the process's standard output, which the fork server captures.
    func write(output: String) {
        Swift.print(output, terminator: "")
    }

    private func handle(_ delivery: ProcessDelivery, _ state: PhoneState) {
        current = state
        process.handle(delivery)
        sendOutput()
        guard channel.send(.done) else { _exit(0) }
    }

    private func sendOutput() {
        let output = capture.take()
        if !output.isEmpty { channel.send(.output(output)) }
    }
}
