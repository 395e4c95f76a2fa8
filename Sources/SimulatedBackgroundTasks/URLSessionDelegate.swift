import Foundation

/// `URLSessionDelegate`: what a session tells its delegate. Every method is optional, as on iOS.
public protocol URLSessionDelegate: AnyObject, Sendable {
    /// Every message for a background session's events has been delivered: call the
    /// completion handler that `application(_:handleEventsForBackgroundURLSession:completionHandler:)`
    /// was given.
    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession)
}

/// `URLSessionTaskDelegate`: what a session tells its delegate of its tasks.
public protocol URLSessionTaskDelegate: URLSessionDelegate {
    /// The task ended: `error` is `nil` if it completed.
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?)
}

/// `URLSessionDownloadDelegate`: what a session tells its delegate of its downloads.
public protocol URLSessionDownloadDelegate: URLSessionTaskDelegate {
    /// The download is at `location`, a temporary file that is removed when this returns.
    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL)
}

extension URLSessionDelegate {
    public func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {}
}

extension URLSessionTaskDelegate {
    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {}
}
