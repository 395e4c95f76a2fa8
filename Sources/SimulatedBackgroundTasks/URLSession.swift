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
    public static let shared = URLSession()

    init() {}

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
        let body = process.server.respond(request, process.app.instant.sinceStart)
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
