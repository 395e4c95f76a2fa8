import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `URLSessionTask`: one request of a session made with a configuration, started with
/// ``resume()``; its session's delegate hears how it ends.
///
/// A background session's task is carried by the system's transfer daemon on the simulated
/// phone; any other session's goes through the app's own requests, like `URLSession.shared`'s.
open class URLSessionTask: @unchecked Sendable {
    /// `URLSessionTask.State`.
    public enum State: Int, Sendable {
        case running = 0, suspended = 1, canceling = 2, completed = 3
    }

    /// Unique among its session's tasks.
    public let taskIdentifier: Int
    /// The request it was made with.
    public let originalRequest: URLRequest?
    /// The request it sends: its original request.
    open var currentRequest: URLRequest? { originalRequest }
    /// The app's own description of the task.
    open var taskDescription: String?
    /// The earliest time a background task may start; `nil` for no delay.
    open var earliestBeginDate: Date?
    /// Bytes the app expects to send and receive (`NSURLSessionTransferSizeUnknown`, −1, by
    /// default); the simulation moves the real amounts.
    open var countOfBytesClientExpectsToSend: Int64 = -1
    open var countOfBytesClientExpectsToReceive: Int64 = -1
    /// Where the task is.
    open internal(set) var state: State = .suspended
    /// The response, once the task completed (status 200).
    open internal(set) var response: URLResponse?
    /// Why the task failed, once it did.
    open internal(set) var error: (any Error)?

    /// The session that made it.
    let session: URLSession
    /// Bytes it uploads.
    let uploadBytes: Int
    /// An upload whose file did not exist when the task was made.
    var fileIsMissing = false
    /// For a download, what the server answers, once it started.
    var body: Data?
    /// The transfer it is in the daemon (a background task that was resumed); 0 before.
    var transfer: UInt32 = 0
    /// The request it is among the app's own (another session's task that was resumed); 0 before.
    var requestSerial: UInt64 = 0

    init(session: URLSession, taskIdentifier: Int, request: URLRequest, uploadBytes: Int, body: Data?) {
        self.session = session
        self.taskIdentifier = taskIdentifier
        originalRequest = request
        self.uploadBytes = uploadBytes
        self.body = body
    }

    /// Starts the task (once; a later call does nothing).
    open func resume() {
        guard state == .suspended else { return }
        state = .running
        session.start(self)
    }

    /// Cancels the task: it ends with `URLError(.cancelled)`.
    open func cancel() {
        guard state == .running || state == .suspended else { return }
        let wasRunning = state == .running
        state = .canceling
        session.cancel(self, wasRunning: wasRunning)
    }
}

/// `URLSessionUploadTask`: uploads a file (`uploadTask(with:fromFile:)`).
open class URLSessionUploadTask: URLSessionTask, @unchecked Sendable {}

/// `URLSessionDownloadTask`: downloads the response to a file, which the delegate's
/// `urlSession(_:downloadTask:didFinishDownloadingTo:)` must move before it returns.
open class URLSessionDownloadTask: URLSessionTask, @unchecked Sendable {}
