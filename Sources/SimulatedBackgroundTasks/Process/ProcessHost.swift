import BackgroundSim
import SimKernel

/// The system's side of one launch of the app's process: it carries out the app's calls
/// (``SystemCall``) on the iOS model, and delivers what the model does for the app
/// (``ProcessDelivery``) to the process, wherever the process runs (``ProcessLink``): in this OS
/// process, or in one of its own.
///
/// It keeps the model's objects the app refers to by number — the tasks it launched, the
/// app's timers, the completion handlers it gave — for as long as the process lives.
final class ProcessHost {
    /// The model's view of the app, for this launch.
    let app: AppContext
    /// The phone: what outlives the process.
    unowned let phone: SimulatedPhone
    /// Where the app's code runs; set once, right after the host is made.
    var link: (any ProcessLink)!

    private var tasks: [TaskHandle: BackgroundSim.BackgroundTask] = [:]
    private var lastTask: UInt32 = 0
    private var timers: [UInt32: AppTimer] = [:]
    private var lastTimer: UInt32 = 0
    private var pushCompletions: [CompletionHandle: (BackgroundFetchResult) -> Void] = [:]
    private var sessionCompletions: [CompletionHandle: () -> Void] = [:]
    private var lastCompletion: UInt32 = 0
    /// The app's side reported a crash of this process.
    private var crashReported = false
    /// What the process wrote after its last newline.
    private var partialLine: [UInt8] = []
    /// A call the process does not wait on is being carried out.
    private var performingWithoutAnswer = false

    /// The label of the work-queue items that are the app's own requests.
    static let requestLabel = "URLSession"

    init(app: AppContext, phone: SimulatedPhone) {
        self.app = app
        self.phone = phone
    }

    deinit {
        end()
    }

    /// The phone and the process now, as the app's code reads them.
    var state: PhoneState { PhoneState(app) }

    /// Whether the process is running (in the foreground, or in the background and not
    /// suspended).
    var isRunning: Bool { app.isRunning }

    /// Runs the app's code for `delivery`, and the async work it starts.
    func deliver(_ delivery: ProcessDelivery) {
        precondition(!performingWithoutAnswer, "ProcessHost: the system ran the app's code during a call the app does not wait on")
        link.deliver(delivery)
    }

    /// The process ended: its code runs no more, and what it wrote last is recorded.
    func end() {
        flushOutput()
        link?.end()
    }

    /// Keeps a silent push's completion handler for the app to call.
    func keep(pushCompletion: @escaping (BackgroundFetchResult) -> Void) -> CompletionHandle {
        lastCompletion += 1
        let handle = CompletionHandle(rawValue: lastCompletion)
        pushCompletions[handle] = pushCompletion
        return handle
    }

    /// Keeps the completion handler of a background session's events for the app to call.
    func keep(sessionCompletion: @escaping () -> Void) -> CompletionHandle {
        lastCompletion += 1
        let handle = CompletionHandle(rawValue: lastCompletion)
        sessionCompletions[handle] = sessionCompletion
        return handle
    }

    /// The app's OS process ended without the system ending it: a crash (unless the app's side
    /// reported one first), recorded after what the process last wrote; the simulated process
    /// ends once the callback returns.
    func processEnded(_ exit: ProcessExit) {
        flushOutput()
        if !crashReported { app.crash(exit.crashReason) }
        crashReported = true
    }

    // MARK: Output

    /// Records what the process wrote, a line at a time (the log's `appOutput` events); an
    /// unfinished line waits for the rest.
    func recordOutput(_ bytes: [UInt8]) {
        var start = bytes.startIndex
        while let newline = bytes[start...].firstIndex(of: 10) {
            partialLine.append(contentsOf: bytes[start..<newline])
            app.recordOutput(String(decoding: partialLine, as: UTF8.self))
            partialLine.removeAll(keepingCapacity: true)
            start = newline + 1
        }
        partialLine.append(contentsOf: bytes[start...])
    }

    /// Records the unfinished line the process wrote last, if any.
    func flushOutput() {
        guard !partialLine.isEmpty else { return }
        app.recordOutput(String(decoding: partialLine, as: UTF8.self))
        partialLine.removeAll()
    }

    // MARK: Calls

    /// Carries out one of the app's calls.
    func perform(_ call: SystemCall) -> SystemCallResult {
        switch call {
        case .registerTask(let identifier, let handler):
            return .bool(app.taskScheduler.register(forTaskWithIdentifier: identifier) { [weak self] task in
                guard let self else { return }
                deliver(.taskLaunched(handler: handler, task: keep(task), identifier: task.identifier, kind: task.kind))
            })
        case .submit(let request):
            do { try app.taskScheduler.submit(request) } catch { return .refusal(error.code) }
            return .refusal(nil)
        case .submitContinued(let request):
            do { try app.taskScheduler.submit(request) } catch { return .refusal(error.code) }
            return .refusal(nil)
        case .cancelRequest(let identifier):
            app.taskScheduler.cancel(taskRequestWithIdentifier: identifier)
        case .cancelAllRequests:
            app.taskScheduler.cancelAllTaskRequests()
        case .pendingRequests:
            return .requests(app.taskScheduler.pendingTaskRequests())
        case .setExpirationHandler(let task, let handler):
            tasks[task]?.expirationHandler = handler.map { handler in { [weak self] in self?.deliver(.callback(handler)) } }
        case .completeTask(let task, let success):
            tasks[task]?.setTaskCompleted(success: success)
        case .reportProgress(let task, let completed, let total):
            guard let task = tasks[task] else { return .bool(false) }
            if completed != task.completedUnitCount || total != task.totalUnitCount {
                task.updateProgress(completedUnitCount: completed, totalUnitCount: total)
            }
            return .bool(task.completion == nil)
        case .recordActionCancelled(let task):
            tasks[task]?.recordActionCancelled()
        case .launchEnvironment:
            let environment = app.launchEnvironment
            return .launch(environment: environment.keys.sorted().map { "\($0)=\(environment[$0]!)" }, arguments: app.launchArguments)
        case .signpost(let signpost):
            app.signpost(signpost.kind, name: signpost.name, category: signpost.category, id: signpost.id)
        case .beginBackgroundTask(let name, let handler):
            let identifier = app.beginBackgroundTask(withName: name, expirationHandler: handler.map { handler in
                { [weak self] in self?.deliver(.callback(handler)) }
            })
            return .integer(identifier.rawValue)
        case .endBackgroundTask(let identifier):
            app.endBackgroundTask(BackgroundTaskIdentifier(rawValue: identifier))
        case .scheduleTimer(let nanoseconds, let handler):
            lastTimer += 1
            let number = lastTimer
            timers[number] = app.schedule(after: .nanoseconds(Swift.max(0, nanoseconds))) { [weak self] in
                self?.timers[number] = nil
                self?.deliver(.callback(handler))
            }
            return .integer(Int(number))
        case .cancelTimer(let number):
            if let timer = timers.removeValue(forKey: number) { app.cancel(timer) }
        case .crash(let reason):
            crashReported = true
            app.crash(reason)
        case .randomBits:
            return .bits(app.randomBits())
        case .randomInteger(let lower, let upper):
            return .integer(app.randomInt(in: lower...upper))
        case .storedValue(let key):
            return .value(app.defaults.value(forKey: key))
        case .store(let key, let value):
            if let value { app.defaults.set(value, forKey: key) } else { app.defaults.removeObject(forKey: key) }
        case .startRequest(let upload, let download, let onSent):
            return .bool(startRequest(uploadBytes: upload, downloadBytes: download, onSent: onSent))
        case .stopRequest:
            app.work.onLimitReached = nil
            app.work.stop()
            app.work.giveUp()
        case .discardQueuedRequests:
            discardQueuedRequests()
        case .nextSessionTaskIdentifier(let session):
            return .integer(phone.backgroundSessions.nextTaskIdentifier(session: session))
        case .handOffTransfer(let transfer, let configuration, let upload, let download, let notBefore):
            guard let number = app.work.handOffAppTransfer(uploadBytes: Double(upload), downloadBytes: Double(download),
                                                           to: configuration, notBefore: notBefore) else { return .transfer(nil) }
            phone.backgroundSessions.handedOff(transfer, number: number)
            return .transfer(number)
        case .cancelTransfer(let number):
            app.work.cancelAppTransfer(number)
        case .transfersInFlight(let session):
            return .transfers(phone.backgroundSessions.tasksInFlight(session: session))
        case .takeEndedTransfers(let session):
            return .endedTransfers(phone.backgroundSessions.takeEnded(session: session, from: self))
        case .completePush(let handle, let result):
            pushCompletions[handle]?(result)
        case .completeSessionEvents(let handle):
            sessionCompletions[handle]?()
        }
        return .none
    }

    /// Carries out a call the process does not wait on (``SystemCall/awaitsAnswer``): the
    /// system must run none of the app's code meanwhile, for the process is not listening.
    func perform(withoutAnswer call: SystemCall) {
        performingWithoutAnswer = true
        defer { performingWithoutAnswer = false }
        _ = perform(call)
    }

    /// Gives up the requests an earlier process left in the queue (a terminated process's
    /// requests die with it).
    func discardQueuedRequests() {
        if app.work.progress(label: Self.requestLabel).queued > 0 { app.work.giveUp() }
    }

    /// A task the model launched, by number.
    private func keep(_ task: BackgroundSim.BackgroundTask) -> TaskHandle {
        lastTask += 1
        let handle = TaskHandle(rawValue: lastTask)
        tasks[handle] = task
        return handle
    }

    /// Queues one request's bytes as an item of the app's work and starts sending it; `onSent`
    /// is delivered when it is sent. False when the queue refuses it (too large, or full of the
    /// workload's own items).
    private func startRequest(uploadBytes: Int, downloadBytes: Int, onSent: CallbackID) -> Bool {
        let work = app.work
        let queued = work.progress(label: Self.requestLabel).queued
        try? work.enqueue(WorkRequest(uploadBytes: Double(uploadBytes), downloadBytes: Double(downloadBytes), label: Self.requestLabel))
        guard work.progress(label: Self.requestLabel).queued > queued else { return false }
        work.onLimitReached = { [weak self] in
            work.onLimitReached = nil
            self?.deliver(.callback(onSent))
        }
        work.start(limit: 1)
        return true
    }
}
