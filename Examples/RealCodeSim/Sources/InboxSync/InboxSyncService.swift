// A messaging app's inbox sync, written the way apps write their background services — and the
// way that goes wrong if a simulated process is not a process: a `static let shared` singleton
// with an initialisation state, a static "registered" flag, sync jobs on an `OperationQueue`,
// an expiration handler that completes the task from `DispatchQueue.main`, and a start-up path
// that runs once per process. Our own code; only the imports would differ in the app.
#if os(iOS)
import BackgroundTasks
import Foundation
import os
import UIKit
#else
import SimulatedBackgroundTasks
#endif

final class InboxSyncService: @unchecked Sendable {
    /// The service: one per process.
    static let shared = InboxSyncService()
    static let refreshIdentifier = "com.example.inbox.refresh"
    /// Set once the refresh handler is registered in this process: registering twice crashes.
    nonisolated(unsafe) static var hasRegisteredTasks = false
    /// The bytes one sync downloads: the new messages with their attachments.
    static let syncBytes = 8_000_000

    private enum State { case uninitialized, initialized }
    private var state = State.uninitialized
    /// Sync jobs, one at a time.
    private var jobs = InboxSyncService.makeJobQueue()
    private let logger = Logger(subsystem: "com.example.inbox", category: "sync")

    /// The start-up path, at every launch: registers the refresh handler once per process, then
    /// initialises the service once per process — a sync of the inbox, and a failsafe refresh
    /// asked for in case the app is not opened again.
    func start() {
        if !Self.hasRegisteredTasks {
            Self.hasRegisteredTasks = true
            BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refreshIdentifier, using: nil) { task in
                Self.shared.handleRefresh(task)
            }
        }
        guard state == .uninitialized else { return }
        state = .initialized
        logger.info("start-up: syncing the inbox")
        sync(reason: "start-up")
        scheduleRefresh()
    }

    /// The refresh: asks for the next one, then syncs; on expiration the jobs are cancelled and
    /// the task completed from the main queue, as apps often do — once, whichever comes first.
    private func handleRefresh(_ task: BGTask) {
        scheduleRefresh()
        let completion = CompletionOnce(task)
        sync(reason: "refresh") { success in completion.complete(success: success) }
        let jobs = self.jobs
        task.expirationHandler = {
            jobs.cancelAllOperations()
            DispatchQueue.main.async { completion.complete(success: false) }
        }
    }

    /// Asks for a refresh in about an hour.
    func scheduleRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: Self.refreshIdentifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 60 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            logger.error("submit failed: \(String(describing: error), privacy: .public)")
        }
    }

    /// Downloads what is new, as an operation on the jobs queue; `completion` hears whether it
    /// finished.
    private func sync(reason: String, completion: @escaping @Sendable (Bool) -> Void = { _ in }) {
        let logger = self.logger
        let operation = SyncOperation { finished in
            logger.info("\(reason) sync \(finished ? "done" : "stopped", privacy: .public)")
            if finished { UserDefaults.standard.set(Date(), forKey: "inbox.lastSync") }
            completion(finished)
        }
        jobs.addOperation(operation)
    }

    /// Puts the process's own state back as a new process has it: what a build of this service
    /// that did not trust its statics would call at each launch (the tests compare one with a
    /// process per launch).
    static func resetProcessState() {
        hasRegisteredTasks = false
        shared.state = .uninitialized
        shared.jobs = makeJobQueue()
    }

    private static func makeJobQueue() -> OperationQueue {
        let queue = OperationQueue()
        queue.name = "com.example.inbox.jobs"
        queue.maxConcurrentOperationCount = 1
        return queue
    }
}

/// Completes a task once: the sync's end and the expiration race to it.
final class CompletionOnce: @unchecked Sendable {
    private let task: BGTask
    private var completed = false

    init(_ task: BGTask) {
        self.task = task
    }

    func complete(success: Bool) {
        guard !completed else { return }
        completed = true
        task.setTaskCompleted(success: success)
    }
}

/// One sync: an asynchronous operation that downloads the inbox with `URLSession` and finishes
/// when the download ends or the operation is cancelled.
final class SyncOperation: Operation, @unchecked Sendable {
    private let done: @Sendable (Bool) -> Void
    private var task: Task<Void, Never>?
    private var finished = false
    private var executing = false

    init(done: @escaping @Sendable (Bool) -> Void) {
        self.done = done
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { executing }
    override var isFinished: Bool { finished }

    override func start() {
        guard !isCancelled else { return finish(success: false) }
        willChangeValue(forKey: "isExecuting")
        executing = true
        didChangeValue(forKey: "isExecuting")
        task = Task { [self] in
            let request = URLRequest(url: URL(string: "https://inbox.example.com/new")!)
            let success = (try? await URLSession.shared.data(for: request)) != nil
            finish(success: success)
        }
    }

    override func cancel() {
        super.cancel()
        task?.cancel()
    }

    private func finish(success: Bool) {
        guard !finished else { return }
        done(success && !isCancelled)
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        executing = false
        finished = true
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }
}
