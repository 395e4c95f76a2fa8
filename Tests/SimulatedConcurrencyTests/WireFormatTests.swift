import BackgroundSim
import SimKernel
@testable import SimulatedBackgroundTasks
import Testing

/// Every message between the system and an app process reads back as it was written, with every
/// field away from its default, so that a field the format forgets fails here.
@Suite("The pipe's messages read back as written")
struct WireFormatTests {
    static let state = PhoneState(
        instant: .init(nanosecondsSinceStart: 123_456_789), clockReading: .init(nanosecondsSinceStart: -5), isActive: true,
        isRunning: true, backgroundTimeRemaining: .seconds(29), isProtectedDataAvailable: false, isBackgroundAppRefreshOn: false,
        isLowPowerModeEnabled: true, batteryLevel: 0.37, batteryState: .charging, thermalState: .serious,
        networkPath: path)

    static var path: NetworkPath {
        var path = NetworkPath.offline
        path.interface = .cellular
        path.technology = .fiveG
        path.signal = .poor
        path.isConstrained = true
        return path
    }

    static var transfer: BackgroundTransfer { BackgroundTransfer(session: "s", taskIdentifier: 7, details: [1, 2, 255]) }

    static var configuration: BackgroundSessionConfiguration {
        var configuration = BackgroundSessionConfiguration(identifier: "com.example.up")
        configuration.isDiscretionary = true
        configuration.allowsCellularAccess = false
        configuration.allowsConstrainedNetworkAccess = false
        configuration.sessionSendsLaunchEvents = false
        configuration.timeoutIntervalForResource = .hours(3)
        return configuration
    }

    static var request: TaskRequest {
        var request = TaskRequest.processing(identifier: "p", requiresExternalPower: true, requiresNetworkConnectivity: true)
        request.earliestBeginDate = .init(nanosecondsSinceStart: 99)
        return request
    }

    static let calls: [SystemCall] = [
        .registerTask(identifier: "r", handler: CallbackID(rawValue: 3)), .submit(request),
        .submitContinued(ContinuedProcessingTaskRequest(identifier: "c.1", strategy: .fail)), .cancelRequest(identifier: "x"),
        .cancelAllRequests, .pendingRequests, .setExpirationHandler(task: TaskHandle(rawValue: 4), handler: CallbackID(rawValue: 5)),
        .setExpirationHandler(task: TaskHandle(rawValue: 4), handler: nil), .completeTask(task: TaskHandle(rawValue: 6), success: true),
        .reportProgress(task: TaskHandle(rawValue: 1), completed: 3, total: 10), .recordActionCancelled(task: TaskHandle(rawValue: 2)),
        .beginBackgroundTask(name: "n", expirationHandler: CallbackID(rawValue: 9)), .beginBackgroundTask(name: nil, expirationHandler: nil),
        .endBackgroundTask(identifier: 12), .scheduleTimer(afterNanoseconds: 5_000, handler: CallbackID(rawValue: 11)), .cancelTimer(8),
        .crash(.blockingWait), .randomBits, .randomInteger(lower: -3, upper: 60), .storedValue(key: "k"),
        .store(key: "k", value: .strings(["a", "b"])), .store(key: "k", value: nil), .store(key: "d", value: .double(2.5)),
        .store(key: "i", value: .instant(.init(nanosecondsSinceStart: 77))), .store(key: "p", value: .propertyList([0, 1])),
        .startRequest(uploadBytes: 10, downloadBytes: 20, onSent: CallbackID(rawValue: 13)), .stopRequest, .discardQueuedRequests,
        .nextSessionTaskIdentifier(session: "s"),
        .handOffTransfer(transfer, configuration: configuration, uploadBytes: 1, downloadBytes: 2, notBefore: .seconds(4)),
        .cancelTransfer(21), .transfersInFlight(session: "s"), .takeEndedTransfers(session: "s"),
        .completePush(CompletionHandle(rawValue: 1), .failed), .completeSessionEvents(CompletionHandle(rawValue: 2)),
    ]

    static let results: [SystemCallResult] = [
        .none, .bool(true), .integer(-9), .bits(.max), .refusal(.tooManyPendingTaskRequests), .refusal(nil), .requests([request]),
        .value(.bytes([9])), .value(nil), .transfer(3), .transfer(nil), .transfers([transfer]),
        .endedTransfers([EndedTransfer(transfer: transfer, outcome: .timedOut)]),
    ]

    static let deliveries: [ProcessDelivery] = [
        .launch(reason: .remoteNotification, clockStartSeconds: 1_700_000_000), .didEnterBackground, .willEnterForeground, .willTerminate,
        .handleSessionEvents(session: "s", completion: CompletionHandle(rawValue: 3)), .remoteNotification(completion: CompletionHandle(rawValue: 4)),
        .taskLaunched(handler: CallbackID(rawValue: 1), task: TaskHandle(rawValue: 2), identifier: "t", kind: .continuedProcessing),
        .callback(CallbackID(rawValue: 8)), .run,
    ]

    static func roundTrip<Message: WireMessage & Equatable>(_ message: Message) -> Message {
        var writer = WireWriter()
        message.write(to: &writer)
        var reader = WireReader(writer.bytes)
        let read = Message(from: &reader)
        #expect(reader.isAtEnd)
        return read
    }

    @Test("every call, answer and delivery, with the phone's state, reads back equal")
    func messagesRoundTrip() {
        for call in Self.calls { #expect(Self.roundTrip(MessageToSystem.call(call)) == .call(call)) }
        for result in Self.results { #expect(Self.roundTrip(MessageToProcess.result(result, Self.state)) == .result(result, Self.state)) }
        for delivery in Self.deliveries {
            #expect(Self.roundTrip(MessageToProcess.deliver(delivery, Self.state)) == .deliver(delivery, Self.state))
        }
        for message: MessageToSystem in [.done, .ready, .output(Array("a line\n".utf8)), .ended(.signaled(4), output: [1]), .ended(.exited(3), output: [])] {
            #expect(Self.roundTrip(message) == message)
        }
        for message: MessageToProcess in [.exit, .spawn(processor: 1), .spawn(processor: -1)] { #expect(Self.roundTrip(message) == message) }
    }

    @Test("the values that cross have the fields the format writes: a field added to one must be added to the format")
    func fieldsCounted() {
        #expect(Mirror(reflecting: Self.state).children.count == 12)
        #expect(Mirror(reflecting: Self.configuration).children.count == 6)
        #expect(Mirror(reflecting: Self.request).children.count == 5)
        #expect(Mirror(reflecting: Self.state.networkPath).children.count == 4)
    }

    @Test("a request's details for the transfer daemon read back: URL, method, headers, body, kind, answer and description")
    func transferDetails() {
        var request = URLRequest(url: URL(string: "https://example.com/up?x=1")!)
        request.httpMethod = "PUT"
        request.setValue("b", forHTTPHeaderField: "X-B")
        request.setValue("a", forHTTPHeaderField: "X-A")
        request.httpBody = Data([1, 2])
        let details = TransferDetails(request: request, isDownload: true, body: Data([3]), taskDescription: "photo")
        let read = TransferDetails(details.encoded)
        #expect(read.request.url == request.url && read.request.httpMethod == "PUT" && read.request.httpBody == Data([1, 2]))
        #expect(read.request.value(forHTTPHeaderField: "X-A") == "a" && read.request.value(forHTTPHeaderField: "X-B") == "b")
        #expect(read.isDownload && read.body == Data([3]) && read.taskDescription == "photo")
    }
}
