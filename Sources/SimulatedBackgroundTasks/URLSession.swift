import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `URLSession`: the app's ordinary requests, sent over the simulated phone's network.
///
/// `URLSession.shared` is one object, as on iOS; each call reaches the process whose code makes
/// it. A request uploads its body (`httpBody`, or the data it is given) and downloads the
/// response the policy's ``SimulatedServer`` makes for it, through the phone's network: it takes
/// the network's time and the radio's energy, waits while the app is suspended, and fails with
/// `URLError(.notConnectedToInternet)` when there is no network as it starts, or with
/// `URLError(.cancelled)` when its task is cancelled. The response has status 200. (What is
/// modelled and what is not: docs/RUN-YOUR-OWN-CODE.md.)
///
///     let (_, response) = try await URLSession.shared.upload(for: request, from: message)
open class URLSession: @unchecked Sendable {
    /// The shared session.
    public static let shared = URLSession(sharedWith: .default)

    /// How the session's requests go (a copy of the configuration it was made with).
    public let configuration: URLSessionConfiguration
    /// The delegate that hears of its tasks (until the process that made the session ends).
    public internal(set) var delegate: (any URLSessionDelegate)?
    /// The process that made it; `nil` for the shared session, which serves every process.
    weak var process: SimulatedProcess?
    /// Its tasks, unless it is the shared session, whose tasks each process keeps.
    let ownTasks = SessionTasks()

    private init(sharedWith configuration: URLSessionConfiguration) {
        self.configuration = configuration
        delegate = nil
    }

    /// A session with `configuration`, whose tasks `delegate` hears of. The delegate's methods
    /// run on the simulation's thread, whatever `queue` is.
    ///
    /// A background configuration's session picks up the tasks of its identifier that the
    /// system carried on while the app was away, and hears of those that ended.
    public init(configuration: URLSessionConfiguration, delegate: (any URLSessionDelegate)? = nil, delegateQueue queue: OperationQueue? = nil) {
        let process = SimulatedProcess.required(by: "URLSession(configuration:delegate:delegateQueue:)")
        self.configuration = configuration.copy()
        self.delegate = delegate
        self.process = process
        process.sessionsMade.append(self)
    }

    /// A session with `configuration` and no delegate.
    public convenience init(configuration: URLSessionConfiguration) {
        self.init(configuration: configuration, delegate: nil, delegateQueue: nil)
    }

    /// A task that uploads the file at `fileURL` (its size, read as the task is made), with
    /// `request`'s headers. A file that does not exist then makes the task fail, when resumed,
    /// with `URLError(.fileDoesNotExist)`.
    open func uploadTask(with request: URLRequest, fromFile fileURL: URL) -> URLSessionUploadTask {
        let size = (try? FileManager.default.attributesOfItem(atPath: fileURL.path)[.size] as? NSNumber)?.intValue
        let task = URLSessionUploadTask(session: self, taskIdentifier: nextTaskIdentifier(), request: request, uploadBytes: size ?? 0, body: nil)
        task.fileIsMissing = size == nil
        return made(task)
    }

    /// A task that downloads what the server answers to `request` to a file.
    open func downloadTask(with request: URLRequest) -> URLSessionDownloadTask {
        made(URLSessionDownloadTask(session: self, taskIdentifier: nextTaskIdentifier(), request: request, uploadBytes: 0, body: nil))
    }

    /// A task that downloads `url` to a file.
    open func downloadTask(with url: URL) -> URLSessionDownloadTask {
        downloadTask(with: URLRequest(url: url))
    }

    /// Hands `completionHandler` the session's tasks that have not ended — in a background
    /// session, those the system still carries, made by this process or an earlier one.
    open func getAllTasks(completionHandler: @escaping @Sendable ([URLSessionTask]) -> Void) {
        completionHandler(liveTasks())
    }

    /// The session's tasks that have not ended.
    open var allTasks: [URLSessionTask] {
        get async { liveTasks() }
    }

    /// Sends `request` (its `httpBody` is uploaded) and returns the response.
    open func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await send(request, bytes: request.httpBody?.count ?? 0)
    }

    /// Sends a GET request for `url` and returns the response.
    open func data(from url: URL) async throws -> (Data, URLResponse) {
        try await send(URLRequest(url: url), bytes: 0)
    }

    /// Sends `request` with `bodyData` as its body and returns the response.
    open func upload(for request: URLRequest, from bodyData: Data) async throws -> (Data, URLResponse) {
        try await send(request, bytes: bodyData.count)
    }

    private func send(_ request: URLRequest, bytes: Int) async throws -> (Data, URLResponse) {
        let process = SimulatedProcess.required(by: "URLSession")
        let handle = RequestHandle(requests: process.requests)
        let body = process.server.respond(request, process.state.instant.sinceStart)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard !Task.isCancelled else {
                    continuation.resume(throwing: URLError(.cancelled))
                    return
                }
                handle.serial = handle.requests.send(upload: bytes, download: body.count) { result in
                    continuation.resume(with: result.mapError { $0 })
                }
            }
        } onCancel: {
            // The simulation runs the app's code and its tasks on one thread, so a cancellation
            // reaches here from the app's code, never at the same time as the request's work.
            handle.cancel()
        }
        let url = request.url ?? URL(fileURLWithPath: "/")
        return (body, HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil)!)
    }
}

/// A request in the process's line, for its task's cancellation handler.
private final class RequestHandle: @unchecked Sendable {
    let requests: NetworkRequests
    /// The request's serial once it is queued; 0 before.
    var serial: UInt64 = 0

    init(requests: NetworkRequests) {
        self.requests = requests
    }

    func cancel() {
        if serial != 0 { requests.cancel(serial) }
    }
}
