import BackgroundSim
import SimKernel

// The app's calls and the system's answers in ``WireWriter``'s format: a byte for the case, then
// its payload in declaration order.

extension SystemCall {
    private enum Tag: UInt8 {
        case registerTask, submit, submitContinued, cancelRequest, cancelAllRequests, pendingRequests
        case setExpirationHandler, completeTask, reportProgress, recordActionCancelled
        case beginBackgroundTask, endBackgroundTask, scheduleTimer, cancelTimer, crash
        case randomBits, randomInteger, storedValue, store
        case startRequest, stopRequest, discardQueuedRequests
        case nextSessionTaskIdentifier, handOffTransfer, cancelTransfer, transfersInFlight, takeEndedTransfers
        case completePush, completeSessionEvents
        case signpost, launchEnvironment
    }

    func write(to writer: inout WireWriter) {
        switch self {
        case .registerTask(let identifier, let handler):
            writer.write(Tag.registerTask.rawValue)
            writer.write(identifier)
            writer.write(handler.rawValue)
        case .submit(let request):
            writer.write(Tag.submit.rawValue)
            request.write(to: &writer)
        case .submitContinued(let request):
            writer.write(Tag.submitContinued.rawValue)
            writer.write(request.identifier)
            writer.write(request.strategy.rawValue)
        case .cancelRequest(let identifier):
            writer.write(Tag.cancelRequest.rawValue)
            writer.write(identifier)
        case .cancelAllRequests: writer.write(Tag.cancelAllRequests.rawValue)
        case .pendingRequests: writer.write(Tag.pendingRequests.rawValue)
        case .setExpirationHandler(let task, let handler):
            writer.write(Tag.setExpirationHandler.rawValue)
            writer.write(task.rawValue)
            writer.write(handler) { $0.write($1.rawValue) }
        case .completeTask(let task, let success):
            writer.write(Tag.completeTask.rawValue)
            writer.write(task.rawValue)
            writer.write(success)
        case .reportProgress(let task, let completed, let total):
            writer.write(Tag.reportProgress.rawValue)
            writer.write(task.rawValue)
            writer.write(completed)
            writer.write(total)
        case .recordActionCancelled(let task):
            writer.write(Tag.recordActionCancelled.rawValue)
            writer.write(task.rawValue)
        case .beginBackgroundTask(let name, let handler):
            writer.write(Tag.beginBackgroundTask.rawValue)
            writer.write(name) { $0.write($1) }
            writer.write(handler) { $0.write($1.rawValue) }
        case .endBackgroundTask(let identifier):
            writer.write(Tag.endBackgroundTask.rawValue)
            writer.write(identifier)
        case .scheduleTimer(let nanoseconds, let handler):
            writer.write(Tag.scheduleTimer.rawValue)
            writer.write(nanoseconds)
            writer.write(handler.rawValue)
        case .cancelTimer(let timer):
            writer.write(Tag.cancelTimer.rawValue)
            writer.write(timer)
        case .crash(let reason):
            writer.write(Tag.crash.rawValue)
            writer.write(case: reason)
        case .randomBits: writer.write(Tag.randomBits.rawValue)
        case .randomInteger(let lower, let upper):
            writer.write(Tag.randomInteger.rawValue)
            writer.write(lower)
            writer.write(upper)
        case .storedValue(let key):
            writer.write(Tag.storedValue.rawValue)
            writer.write(key)
        case .store(let key, let value):
            writer.write(Tag.store.rawValue)
            writer.write(key)
            writer.write(value) { $1.write(to: &$0) }
        case .startRequest(let upload, let download, let onSent):
            writer.write(Tag.startRequest.rawValue)
            writer.write(upload)
            writer.write(download)
            writer.write(onSent.rawValue)
        case .stopRequest: writer.write(Tag.stopRequest.rawValue)
        case .discardQueuedRequests: writer.write(Tag.discardQueuedRequests.rawValue)
        case .nextSessionTaskIdentifier(let session):
            writer.write(Tag.nextSessionTaskIdentifier.rawValue)
            writer.write(session)
        case .handOffTransfer(let transfer, let configuration, let upload, let download, let notBefore):
            writer.write(Tag.handOffTransfer.rawValue)
            transfer.write(to: &writer)
            configuration.write(to: &writer)
            writer.write(upload)
            writer.write(download)
            writer.write(notBefore)
        case .cancelTransfer(let transfer):
            writer.write(Tag.cancelTransfer.rawValue)
            writer.write(transfer)
        case .transfersInFlight(let session):
            writer.write(Tag.transfersInFlight.rawValue)
            writer.write(session)
        case .takeEndedTransfers(let session):
            writer.write(Tag.takeEndedTransfers.rawValue)
            writer.write(session)
        case .completePush(let completion, let result):
            writer.write(Tag.completePush.rawValue)
            writer.write(completion.rawValue)
            writer.write(case: result)
        case .completeSessionEvents(let completion):
            writer.write(Tag.completeSessionEvents.rawValue)
            writer.write(completion.rawValue)
        case .signpost(let signpost):
            writer.write(Tag.signpost.rawValue)
            writer.write(case: signpost.kind)
            writer.write(signpost.category)
            writer.write(signpost.name)
            writer.write(signpost.id)
        case .launchEnvironment: writer.write(Tag.launchEnvironment.rawValue)
        }
    }

    init(from reader: inout WireReader) {
        switch reader.readCase(Tag.self) {
        case .registerTask:
            self = .registerTask(identifier: reader.readString(), handler: CallbackID(rawValue: reader.readUInt32()))
        case .submit: self = .submit(TaskRequest(from: &reader))
        case .submitContinued:
            self = .submitContinued(ContinuedProcessingTaskRequest(identifier: reader.readString(),
                                                                   strategy: reader.readCase(ContinuedProcessingTaskRequest.SubmissionStrategy.self)))
        case .cancelRequest: self = .cancelRequest(identifier: reader.readString())
        case .cancelAllRequests: self = .cancelAllRequests
        case .pendingRequests: self = .pendingRequests
        case .setExpirationHandler:
            self = .setExpirationHandler(task: TaskHandle(rawValue: reader.readUInt32()),
                                         handler: reader.readOptional { CallbackID(rawValue: $0.readUInt32()) })
        case .completeTask: self = .completeTask(task: TaskHandle(rawValue: reader.readUInt32()), success: reader.readBool())
        case .reportProgress:
            self = .reportProgress(task: TaskHandle(rawValue: reader.readUInt32()), completed: reader.readInt64(), total: reader.readInt64())
        case .recordActionCancelled: self = .recordActionCancelled(task: TaskHandle(rawValue: reader.readUInt32()))
        case .beginBackgroundTask:
            self = .beginBackgroundTask(name: reader.readOptional { $0.readString() },
                                        expirationHandler: reader.readOptional { CallbackID(rawValue: $0.readUInt32()) })
        case .endBackgroundTask: self = .endBackgroundTask(identifier: reader.readInt())
        case .scheduleTimer: self = .scheduleTimer(afterNanoseconds: reader.readInt64(), handler: CallbackID(rawValue: reader.readUInt32()))
        case .cancelTimer: self = .cancelTimer(reader.readUInt32())
        case .crash: self = .crash(reader.read(case: CrashReason.self))
        case .randomBits: self = .randomBits
        case .randomInteger: self = .randomInteger(lower: reader.readInt(), upper: reader.readInt())
        case .storedValue: self = .storedValue(key: reader.readString())
        case .store: self = .store(key: reader.readString(), value: reader.readOptional { PersistentStore.Value(from: &$0) })
        case .startRequest:
            self = .startRequest(uploadBytes: reader.readInt(), downloadBytes: reader.readInt(), onSent: CallbackID(rawValue: reader.readUInt32()))
        case .stopRequest: self = .stopRequest
        case .discardQueuedRequests: self = .discardQueuedRequests
        case .nextSessionTaskIdentifier: self = .nextSessionTaskIdentifier(session: reader.readString())
        case .handOffTransfer:
            self = .handOffTransfer(BackgroundTransfer(from: &reader), configuration: BackgroundSessionConfiguration(from: &reader),
                                    uploadBytes: reader.readInt(), downloadBytes: reader.readInt(), notBefore: reader.readDuration())
        case .cancelTransfer: self = .cancelTransfer(reader.readUInt32())
        case .transfersInFlight: self = .transfersInFlight(session: reader.readString())
        case .takeEndedTransfers: self = .takeEndedTransfers(session: reader.readString())
        case .completePush: self = .completePush(CompletionHandle(rawValue: reader.readUInt32()), reader.read(case: BackgroundFetchResult.self))
        case .completeSessionEvents: self = .completeSessionEvents(CompletionHandle(rawValue: reader.readUInt32()))
        case .signpost:
            let kind = reader.read(case: AppSignpost.Kind.self)
            let category = reader.readString()
            self = .signpost(AppSignpost(kind, name: reader.readString(), category: category, id: reader.readUInt64()))
        case .launchEnvironment: self = .launchEnvironment
        }
    }
}

extension SystemCallResult {
    private enum Tag: UInt8 { case none, bool, integer, bits, refusal, requests, value, transfer, transfers, endedTransfers, launch }

    func write(to writer: inout WireWriter) {
        switch self {
        case .none: writer.write(Tag.none.rawValue)
        case .bool(let value):
            writer.write(Tag.bool.rawValue)
            writer.write(value)
        case .integer(let value):
            writer.write(Tag.integer.rawValue)
            writer.write(value)
        case .bits(let value):
            writer.write(Tag.bits.rawValue)
            writer.write(value)
        case .refusal(let code):
            writer.write(Tag.refusal.rawValue)
            writer.write(code) { $0.write(case: $1) }
        case .requests(let requests):
            writer.write(Tag.requests.rawValue)
            writer.write(requests) { $1.write(to: &$0) }
        case .value(let value):
            writer.write(Tag.value.rawValue)
            writer.write(value) { $1.write(to: &$0) }
        case .transfer(let number):
            writer.write(Tag.transfer.rawValue)
            writer.write(number) { $0.write($1) }
        case .transfers(let transfers):
            writer.write(Tag.transfers.rawValue)
            writer.write(transfers) { $1.write(to: &$0) }
        case .endedTransfers(let ended):
            writer.write(Tag.endedTransfers.rawValue)
            writer.write(ended) { writer, ended in
                ended.transfer.write(to: &writer)
                writer.write(case: ended.outcome)
            }
        case .launch(let environment, let arguments):
            writer.write(Tag.launch.rawValue)
            writer.write(environment) { $0.write($1) }
            writer.write(arguments) { $0.write($1) }
        }
    }

    init(from reader: inout WireReader) {
        switch reader.readCase(Tag.self) {
        case .none: self = .none
        case .bool: self = .bool(reader.readBool())
        case .integer: self = .integer(reader.readInt())
        case .bits: self = .bits(reader.readUInt64())
        case .refusal: self = .refusal(reader.readOptional { $0.read(case: TaskSchedulerError.Code.self) })
        case .requests: self = .requests(reader.readArray { TaskRequest(from: &$0) })
        case .value: self = .value(reader.readOptional { PersistentStore.Value(from: &$0) })
        case .transfer: self = .transfer(reader.readOptional { $0.readUInt32() })
        case .transfers: self = .transfers(reader.readArray { BackgroundTransfer(from: &$0) })
        case .endedTransfers:
            self = .endedTransfers(reader.readArray { EndedTransfer(transfer: BackgroundTransfer(from: &$0), outcome: $0.read(case: AppTransferOutcome.self)) })
        case .launch:
            let environment = reader.readArray { $0.readString() }
            self = .launch(environment: environment, arguments: reader.readArray { $0.readString() })
        }
    }
}
