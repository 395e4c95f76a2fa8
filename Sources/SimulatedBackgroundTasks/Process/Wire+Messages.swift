import BackgroundSim
import SimKernel

// The messages of the pipe between the system and an app process, in ``WireWriter``'s format:
// each enum as a byte for its case (its position among the cases declared here, or in the
// model's `allCases`), then its payload in declaration order.

extension MessageToProcess {
    private enum Tag: UInt8 { case deliver, result, exit, spawn }

    func write(to writer: inout WireWriter) {
        switch self {
        case .deliver(let delivery, let state):
            writer.write(Tag.deliver.rawValue)
            delivery.write(to: &writer)
            state.write(to: &writer)
        case .result(let result, let state):
            writer.write(Tag.result.rawValue)
            result.write(to: &writer)
            state.write(to: &writer)
        case .exit:
            writer.write(Tag.exit.rawValue)
        case .spawn(let processor):
            writer.write(Tag.spawn.rawValue)
            writer.write(Int64(processor))
        }
    }

    init(from reader: inout WireReader) {
        switch reader.readCase(Tag.self) {
        case .deliver: self = .deliver(ProcessDelivery(from: &reader), PhoneState(from: &reader))
        case .result: self = .result(SystemCallResult(from: &reader), PhoneState(from: &reader))
        case .exit: self = .exit
        case .spawn: self = .spawn(processor: Int32(truncatingIfNeeded: reader.readInt64()))
        }
    }
}

extension MessageToSystem {
    private enum Tag: UInt8 { case call, output, done, ended, ready }

    func write(to writer: inout WireWriter) {
        switch self {
        case .call(let call):
            writer.write(Tag.call.rawValue)
            call.write(to: &writer)
        case .output(let bytes):
            writer.write(Tag.output.rawValue)
            writer.write(bytes)
        case .done:
            writer.write(Tag.done.rawValue)
        case .ready:
            writer.write(Tag.ready.rawValue)
        case .ended(let exit, let output):
            writer.write(Tag.ended.rawValue)
            switch exit {
            case .exited(let status):
                writer.write(false)
                writer.write(Int64(status))
            case .signaled(let signal):
                writer.write(true)
                writer.write(Int64(signal))
            }
            writer.write(output)
        }
    }

    init(from reader: inout WireReader) {
        switch reader.readCase(Tag.self) {
        case .call: self = .call(SystemCall(from: &reader))
        case .output: self = .output(reader.readBytes())
        case .done: self = .done
        case .ready: self = .ready
        case .ended:
            let signaled = reader.readBool()
            let code = Int32(truncatingIfNeeded: reader.readInt64())
            self = .ended(signaled ? .signaled(code) : .exited(code), output: reader.readBytes())
        }
    }
}

// MARK: The phone's state

extension PhoneState {
    func write(to writer: inout WireWriter) {
        writer.write(instant)
        writer.write(clockReading)
        writer.write(isActive)
        writer.write(isRunning)
        writer.write(backgroundTimeRemaining)
        writer.write(isProtectedDataAvailable)
        writer.write(isBackgroundAppRefreshOn)
        writer.write(isLowPowerModeEnabled)
        writer.write(batteryLevel)
        writer.write(case: batteryState)
        writer.write(case: thermalState)
        networkPath.write(to: &writer)
    }

    init(from reader: inout WireReader) {
        self.init(instant: reader.readInstant(), clockReading: reader.readInstant(), isActive: reader.readBool(),
                  isRunning: reader.readBool(), backgroundTimeRemaining: reader.readDuration(),
                  isProtectedDataAvailable: reader.readBool(), isBackgroundAppRefreshOn: reader.readBool(),
                  isLowPowerModeEnabled: reader.readBool(), batteryLevel: reader.readDouble(),
                  batteryState: reader.read(case: BatteryState.self), thermalState: reader.read(case: ThermalState.self),
                  networkPath: NetworkPath(from: &reader))
    }
}

// MARK: Deliveries

extension ProcessDelivery {
    private enum Tag: UInt8 {
        case launch, didEnterBackground, willEnterForeground, willTerminate, handleSessionEvents, remoteNotification, taskLaunched,
             callback, run
    }

    func write(to writer: inout WireWriter) {
        switch self {
        case .launch(let reason, let clockStartSeconds):
            writer.write(Tag.launch.rawValue)
            writer.write(case: reason)
            writer.write(clockStartSeconds)
        case .didEnterBackground: writer.write(Tag.didEnterBackground.rawValue)
        case .willEnterForeground: writer.write(Tag.willEnterForeground.rawValue)
        case .willTerminate: writer.write(Tag.willTerminate.rawValue)
        case .handleSessionEvents(let session, let completion):
            writer.write(Tag.handleSessionEvents.rawValue)
            writer.write(session)
            writer.write(completion.rawValue)
        case .remoteNotification(let completion):
            writer.write(Tag.remoteNotification.rawValue)
            writer.write(completion.rawValue)
        case .taskLaunched(let handler, let task, let identifier, let kind):
            writer.write(Tag.taskLaunched.rawValue)
            writer.write(handler.rawValue)
            writer.write(task.rawValue)
            writer.write(identifier)
            writer.write(kind.rawValue)
        case .callback(let callback):
            writer.write(Tag.callback.rawValue)
            writer.write(callback.rawValue)
        case .run: writer.write(Tag.run.rawValue)
        }
    }

    init(from reader: inout WireReader) {
        switch reader.readCase(Tag.self) {
        case .launch: self = .launch(reason: reader.read(case: LaunchReason.self), clockStartSeconds: reader.readInt64())
        case .didEnterBackground: self = .didEnterBackground
        case .willEnterForeground: self = .willEnterForeground
        case .willTerminate: self = .willTerminate
        case .handleSessionEvents:
            self = .handleSessionEvents(session: reader.readString(), completion: CompletionHandle(rawValue: reader.readUInt32()))
        case .remoteNotification: self = .remoteNotification(completion: CompletionHandle(rawValue: reader.readUInt32()))
        case .taskLaunched:
            self = .taskLaunched(handler: CallbackID(rawValue: reader.readUInt32()), task: TaskHandle(rawValue: reader.readUInt32()),
                                 identifier: reader.readString(), kind: reader.readCase(BackgroundSim.BackgroundTask.Kind.self))
        case .callback: self = .callback(CallbackID(rawValue: reader.readUInt32()))
        case .run: self = .run
        }
    }
}
