import BackgroundSim
import Foundation

/// The requests one process's `URLSession.shared` has in hand, sent one at a time through the
/// simulated phone's network (``WorkController``): each one's bytes, up and down, take the
/// network's time and the radio's energy, and count in the run's `work` report as an item.
///
/// A request waits while the app is suspended, as the executor does, and fails at once with
/// `URLError(.notConnectedToInternet)` when there is no network as it starts. The app's own
/// requests are the only items in the queue: the scenario's workload must add none
/// (`work.arrivals` "none"), or its items would be sent in their place.
///
/// Simplifications [Inf]: requests go one at a time, in the order made (a real session runs
/// several at once over shared bandwidth, which takes about as long in all); a request the
/// network drops part way waits for the network to return instead of failing after the
/// request's timeout; a request that moves no bytes (a bodiless request with an empty
/// response) takes no time.
final class NetworkRequests {
    private unowned let process: SimulatedProcess
    /// Requests waiting for the one in flight, in the order made.
    private var waiting: [Request] = []
    /// The request being sent, if any.
    private var inFlight: Request?
    private var nextSerial: UInt64 = 0

    private struct Request {
        let serial: UInt64
        let upload: Int
        let download: Int
        let finish: (Result<Void, URLError>) -> Void
    }

    init(process: SimulatedProcess) {
        self.process = process
    }

    /// Queues a request that uploads `upload` bytes and downloads `download`; `finish` is called
    /// in the app's code when it is done or fails. Returns the request's serial, for
    /// ``cancel(_:)``.
    func send(upload: Int, download: Int, finish: @escaping (Result<Void, URLError>) -> Void) -> UInt64 {
        nextSerial += 1
        waiting.append(Request(serial: nextSerial, upload: upload, download: download, finish: finish))
        startNext()
        return nextSerial
    }

    /// Cancels a request: it fails with `URLError(.cancelled)`, and, if it was being sent, the
    /// bytes not yet sent are not.
    func cancel(_ serial: UInt64) {
        if let index = waiting.firstIndex(where: { $0.serial == serial }) {
            waiting.remove(at: index).finish(.failure(URLError(.cancelled)))
        } else if let request = inFlight, request.serial == serial {
            inFlight = nil
            if let sentCallback { process.callbacks.remove(sentCallback) }
            sentCallback = nil
            process.call(.stopRequest)
            request.finish(.failure(URLError(.cancelled)))
            startNext()
        }
    }

    /// What the system calls back when the request in flight is sent.
    private var sentCallback: CallbackID?

    /// Starts the next request, if none is in flight.
    private func startNext() {
        while inFlight == nil, !waiting.isEmpty {
            let request = waiting.removeFirst()
            guard process.state.networkPath.isSatisfied else {
                request.finish(.failure(URLError(.notConnectedToInternet)))
                continue
            }
            guard request.upload > 0 || request.download > 0 else {
                request.finish(.success(()))
                continue
            }
            let onSent = process.callbacks.add(once: true) { [unowned self] in
                process.run { self.sent() }
            }
            guard case .bool(true) = process.call(.startRequest(uploadBytes: request.upload, downloadBytes: request.download, onSent: onSent)) else {
                // Refused (too large), or the queue is full of the workload's own items.
                process.callbacks.remove(onSent)
                request.finish(.failure(URLError(.cannotLoadFromNetwork)))
                continue
            }
            inFlight = request
            sentCallback = onSent
        }
    }

    /// The request in flight was sent.
    private func sent() {
        guard let request = inFlight else { return }
        inFlight = nil
        sentCallback = nil
        request.finish(.success(()))
        startNext()
    }
}
