/// `Task.sleep(for:)` and `Task.sleep(nanoseconds:)`, exact in simulated time.
///
/// A file that imports this module (or `SimulatedBackgroundTasks`, which brings it) calls these
/// instead of the standard library's: a module's own declarations shadow those of the modules it
/// imports. On a thread bound to a simulation, the task sleeps exactly `duration` of simulated
/// time, and a cancellation ends the sleep at once with `CancellationError`, as the standard
/// library's does; on any other thread, they sleep on the continuous clock as the standard
/// library's do.
///
/// The standard library's own sleeps (`Task.sleep(for:tolerance:clock:)` with a tolerance or a
/// clock, `Task.sleep(until:clock:)`, `ContinuousClock().sleep(for:)`) still reach the simulated
/// executor, but as a deadline on the real clock, read back to the millisecond
/// (``SimulatedExecutor``); a thread held up for longer than half a millisecond between the
/// call and the scheduling moves such a sleep.
extension Task where Success == Never, Failure == Never {
    public static func sleep(for duration: Duration) async throws {
        guard JobQueue.current != nil else {
            // No simulation on this thread: a real sleep, as the standard library's.
            try await ContinuousClock().sleep(until: .now.advanced(by: duration), tolerance: nil)
            return
        }
        try await SimulatedSleep.sleep(nanoseconds: JobQueue.nanoseconds(duration))
    }

    public static func sleep(nanoseconds duration: UInt64) async throws {
        guard JobQueue.current != nil else {
            try await ContinuousClock().sleep(until: .now.advanced(by: .nanoseconds(duration)), tolerance: nil)
            return
        }
        try await SimulatedSleep.sleep(nanoseconds: Int64(clamping: duration))
    }
}

/// One simulated sleep: a continuation resumed by a callback the executor runs when the sleep
/// ends, or by the task's cancellation, whichever comes first. Everything happens on the
/// simulation's thread.
final class SimulatedSleep: @unchecked Sendable {
    private var continuation: UnsafeContinuation<Void, any Error>?
    private var callback: UInt64?
    private var finished = false
    private let queue: JobQueue

    private init(queue: JobQueue) {
        self.queue = queue
    }

    static func sleep(nanoseconds: Int64) async throws {
        guard let queue = JobQueue.current else { return }
        let sleep = SimulatedSleep(queue: queue)
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                sleep.start(continuation, nanoseconds: nanoseconds)
            }
        } onCancel: {
            sleep.cancel()
        }
    }

    private func start(_ continuation: UnsafeContinuation<Void, any Error>, nanoseconds: Int64) {
        guard !finished else {
            continuation.resume(throwing: CancellationError())
            return
        }
        self.continuation = continuation
        callback = queue.schedule(afterNanoseconds: nanoseconds) { [self] in
            finish(throwing: nil)
        }
    }

    /// The task was cancelled: the sleep ends now, and its callback is taken back.
    private func cancel() {
        if let callback { queue.withdraw(callback) }
        finish(throwing: CancellationError())
    }

    private func finish(throwing error: (any Error)?) {
        guard !finished else { return }
        finished = true
        guard let continuation else { return }
        self.continuation = nil
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
    }
}
