import BackgroundSim
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

// The tasks of sessions made with a configuration: a background session's go to the system's
// transfer daemon (`BackgroundSessionStore`, on the system's side), any other's through the process's own requests
// (`NetworkRequests`); the delegate hears how each ends, asynchronously, on the simulation's
// thread.
extension URLSession {
    /// The process the session's work belongs to: its own, or, for the shared session, the one
    /// whose code is running.
    private var owner: SimulatedProcess { process ?? SimulatedProcess.required(by: "URLSession") }

    /// The session's tasks that have not ended: its own, or, for the shared session (which
    /// simulations on other threads use at the same time), those of the process running.
    private var tasks: SessionTasks { process == nil ? owner.sharedSessionTasks : ownTasks }

    func nextTaskIdentifier() -> Int {
        if let identifier = configuration.identifier {
            guard case .integer(let next) = owner.call(.nextSessionTaskIdentifier(session: identifier)) else { return 0 }
            return next
        }
        tasks.lastIdentifier += 1
        return tasks.lastIdentifier
    }

    /// `task`, kept among the session's tasks until it ends.
    func made<Kind: URLSessionTask>(_ task: Kind) -> Kind {
        tasks.live[task.taskIdentifier] = task
        return task
    }

    /// The process ended: its code will not run again, so the session lets go of its delegate
    /// and its tasks (which, with the delegate's hold on the session, would keep them all).
    func processEnded() {
        delegate = nil
        ownTasks.live.removeAll()
    }

    /// The tasks that have not ended: those made in this process, and a background session's
    /// tasks that an earlier process made and the system still carries.
    func liveTasks() -> [URLSessionTask] {
        if let identifier = configuration.identifier {
            guard case .transfers(let inFlight) = owner.call(.transfersInFlight(session: identifier)) else { return [] }
            for transfer in inFlight where tasks.live[transfer.taskIdentifier] == nil {
                tasks.live[transfer.taskIdentifier] = task(rebuilding: transfer)
            }
        }
        return tasks.live.values.sorted { $0.taskIdentifier < $1.taskIdentifier }
    }

    /// A task object for a transfer an earlier process made, as iOS gives the app on relaunch.
    private func task(rebuilding transfer: BackgroundTransfer) -> URLSessionTask {
        let details = TransferDetails(transfer.details)
        let task: URLSessionTask = details.isDownload
            ? URLSessionDownloadTask(session: self, taskIdentifier: transfer.taskIdentifier, request: details.request, uploadBytes: 0, body: nil)
            : URLSessionUploadTask(session: self, taskIdentifier: transfer.taskIdentifier, request: details.request, uploadBytes: 0, body: nil)
        task.taskDescription = details.taskDescription
        task.state = .running
        return task
    }

    /// Starts `task`: hands it to the daemon, or sends it as one of the process's requests.
    func start(_ task: URLSessionTask) {
        let process = owner
        let request = task.originalRequest ?? URLRequest(url: URL(fileURLWithPath: "/"))
        let isDownload = task is URLSessionDownloadTask
        let body = isDownload ? process.server.respond(request, process.state.instant.sinceStart) : Data()
        task.body = body
        if task.fileIsMissing {
            deliver([(task, URLError(.fileDoesNotExist))], finishEvents: false)
            return
        }
        // Nothing to carry: done at once, as a request that moves no bytes is.
        if task.uploadBytes == 0 && body.isEmpty {
            deliver([(task, nil)], finishEvents: false)
            return
        }
        guard let background = configuration.backgroundSession else {
            task.requestSerial = process.requests.send(upload: task.uploadBytes, download: body.count) { [weak self] result in
                guard let self else { return }
                switch result {
                case .success: deliver([(task, nil)], finishEvents: false)
                case .failure(let error): deliver([(task, error)], finishEvents: false)
                }
            }
            return
        }
        let notBefore = task.earliestBeginDate.map { process.delay(until: $0) } ?? .zero
        let details = TransferDetails(request: request, isDownload: isDownload, body: body, taskDescription: task.taskDescription)
        let transfer = BackgroundTransfer(session: background.identifier, taskIdentifier: task.taskIdentifier, details: details.encoded)
        guard case .transfer(let number?) = process.call(.handOffTransfer(transfer, configuration: background, uploadBytes: task.uploadBytes,
                                                                          downloadBytes: body.count, notBefore: notBefore)) else {
            // A process that is no longer current, or a 256th session: nothing is carried.
            deliver([(task, URLError(.cannotConnectToHost))], finishEvents: false)
            return
        }
        task.transfer = number
    }

    /// Cancels `task`: a running one is stopped, and ends `URLError(.cancelled)` as any task
    /// ends; one never resumed ends so at once.
    func cancel(_ task: URLSessionTask, wasRunning: Bool) {
        guard wasRunning else {
            deliver([(task, URLError(.cancelled))], finishEvents: false)
            return
        }
        if task.transfer != 0 {
            owner.call(.cancelTransfer(task.transfer))
        } else if task.requestSerial != 0 {
            owner.requests.cancel(task.requestSerial)
        }
    }

    /// Tells the delegate of the background tasks of this session that ended — `ended`, from
    /// the store — and then, with `finishEvents`, that the session's events are all delivered.
    func deliverBackgroundNews(_ ended: [EndedTransfer], finishEvents: Bool) {
        let endings: [(URLSessionTask, (any Error)?)] = ended.map { ended in
            let (transfer, outcome) = (ended.transfer, ended.outcome)
            let task = tasks.live[transfer.taskIdentifier] ?? task(rebuilding: transfer)
            task.body = TransferDetails(transfer.details).body
            let error: (any Error)? = switch outcome {
            case .completed: nil
            case .timedOut: URLError(.timedOut)
            // Cancelled by the app's own `cancel()`, or by a force-quit, which iOS reports with
            // a reason [A].
            case .cancelled where task.state == .canceling: URLError(.cancelled)
            case .cancelled: URLError(.cancelled, userInfo: [NSURLErrorBackgroundTaskCancelledReasonKey: NSURLErrorCancelledReasonUserForceQuitApplication])
            }
            return (task, error)
        }
        deliver(endings, finishEvents: finishEvents)
    }

    /// Tells the delegate, in a `Task` of the app's (after the code running now), that each of
    /// `endings` ended, in order — a download first hands over its file — and then, with
    /// `finishEvents`, that the session's background events are all delivered.
    private func deliver(_ endings: [(URLSessionTask, (any Error)?)], finishEvents: Bool) {
        for (task, _) in endings { tasks.live[task.taskIdentifier] = nil }
        let endings = SimulationThreadBound(endings)
        Task {
            for (task, error) in endings.value { complete(task, error: error) }
            if finishEvents { delegate?.urlSessionDidFinishEvents(forBackgroundURLSession: self) }
        }
    }

    private func complete(_ task: URLSessionTask, error: (any Error)?) {
        task.state = .completed
        task.error = error
        if error == nil, let url = task.originalRequest?.url {
            task.response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil)
        }
        if error == nil, let download = task as? URLSessionDownloadTask, let delegate = delegate as? URLSessionDownloadDelegate {
            let location = DownloadedFiles.write(task.body ?? Data())
            delegate.urlSession(self, downloadTask: download, didFinishDownloadingTo: location)
            try? FileManager.default.removeItem(at: location)
        }
        (delegate as? URLSessionTaskDelegate)?.urlSession(self, task: task, didCompleteWithError: error)
    }
}

/// The tasks of a session that have not ended, by task identifier, and the last identifier
/// given (for a session that is not a background one: a background session's identifiers are
/// the phone's, ``BackgroundSessionStore``).
final class SessionTasks {
    var live: [Int: URLSessionTask] = [:]
    var lastIdentifier = 0
}

extension URLSessionConfiguration {
    /// A copy, as a session keeps of the configuration it is made with.
    func copy() -> URLSessionConfiguration {
        let copy = URLSessionConfiguration(identifier: identifier)
        copy.isDiscretionary = isDiscretionary
        copy.sessionSendsLaunchEvents = sessionSendsLaunchEvents
        copy.allowsCellularAccess = allowsCellularAccess
        copy.allowsExpensiveNetworkAccess = allowsExpensiveNetworkAccess
        copy.allowsConstrainedNetworkAccess = allowsConstrainedNetworkAccess
        copy.timeoutIntervalForRequest = timeoutIntervalForRequest
        copy.timeoutIntervalForResource = timeoutIntervalForResource
        copy.protocolClasses = protocolClasses
        copy.requiresDNSSECValidation = requiresDNSSECValidation
        copy.httpAdditionalHeaders = httpAdditionalHeaders
        copy.waitsForConnectivity = waitsForConnectivity
        copy.httpMaximumConnectionsPerHost = httpMaximumConnectionsPerHost
        return copy
    }
}

/// The temporary files downloads are handed over in, each removed when the delegate's method
/// returns. Their contents are the server's answer; their paths differ from run to run (named
/// after the OS process), so the app's code should not depend on the path, only move the file.
private enum DownloadedFiles {
    private static let count = Mutex(0)

    static func write(_ data: Data) -> URL {
        let number = count.withLock { count in
            count += 1
            return count
        }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("bgsim-download-\(ProcessInfo.processInfo.processIdentifier)-\(number).tmp")
        try? data.write(to: url)
        return url
    }
}
