import BackgroundSim

/// The system's side of the app's background `URLSession`s on one simulated phone: the tasks
/// its transfer daemon carries, which outlive the process that made them, and those that ended
/// and whose news waits for the app.
///
/// The news of a task reaches the app's code through the session's delegate, in a process that
/// has made a session with the task's identifier, as on iOS:
/// - at once (asynchronously, after the code running then), if the process is running when the
///   task ends; otherwise
/// - when the system launches or resumes the app for the session's events (after
///   `application(_:handleEventsForBackgroundURLSession:completionHandler:)`, and followed by
///   `urlSessionDidFinishEvents(forBackgroundURLSession:)`), or when the app's code next runs.
final class BackgroundSessionStore {
    /// Tasks in the daemon, by transfer number.
    private var inFlight: [UInt32: BackgroundTransfer] = [:]
    /// Tasks that ended and that no process has heard of, in the order they ended.
    private var ended: [EndedTransfer] = []
    /// Per session identifier, the last task identifier given.
    private var lastTaskIdentifiers: [String: Int] = [:]
    /// The phone, whose current process hears of the tasks that end.
    private unowned let phone: SimulatedPhone

    init(phone: SimulatedPhone) {
        self.phone = phone
    }

    /// A new process: it hears of the tasks that end from now.
    func attach(_ host: ProcessHost) {
        host.app.work.onAppTransfersEnded = { [unowned self] ended in self.transfersEnded(ended) }
    }

    /// A task identifier for a new task of the session `identifier`, unique on the phone.
    func nextTaskIdentifier(session identifier: String) -> Int {
        let next = (lastTaskIdentifiers[identifier] ?? 0) + 1
        lastTaskIdentifiers[identifier] = next
        return next
    }

    /// Records a task handed to the daemon as transfer `number`.
    func handedOff(_ transfer: BackgroundTransfer, number: UInt32) {
        inFlight[number] = transfer
    }

    /// The tasks of the session `identifier` still in the daemon, in the order made.
    func tasksInFlight(session identifier: String) -> [BackgroundTransfer] {
        inFlight.values.filter { $0.session == identifier }.sorted { $0.taskIdentifier < $1.taskIdentifier }
    }

    /// Takes the ended tasks of the session `identifier` that no process has heard of,
    /// including those that ended at this instant and that the system has not yet passed on
    /// (which `host`'s model holds).
    func takeEnded(session identifier: String, from host: ProcessHost) -> [EndedTransfer] {
        record(host.app.work.takeEndedAppTransfers())
        let taken = ended.filter { $0.transfer.session == identifier }
        ended.removeAll { $0.transfer.session == identifier }
        return taken
    }

    /// The daemon's tasks ended: their news waits, and a running process hears it at once.
    private func transfersEnded(_ numbers: [(transfer: UInt32, outcome: AppTransferOutcome)]) {
        record(numbers)
        if let host = phone.host, host.isRunning { host.deliver(.run) }
    }

    private func record(_ numbers: [(transfer: UInt32, outcome: AppTransferOutcome)]) {
        for (number, outcome) in numbers {
            guard let transfer = inFlight.removeValue(forKey: number) else { continue }
            ended.append(EndedTransfer(transfer: transfer, outcome: outcome))
        }
    }
}
