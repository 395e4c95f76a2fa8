/// How one of the app's own background-session transfers ended (SimulatedBackgroundTasks'
/// `URLSession` tasks, handed over with ``WorkController/handOffAppTransfer(uploadBytes:downloadBytes:to:notBefore:)``).
package enum AppTransferOutcome: Sendable, Equatable, CaseIterable {
    /// Every byte went.
    case completed
    /// Its session's `timeoutIntervalForResource` passed first.
    case timedOut
    /// The app cancelled it, or a force-quit did [A].
    case cancelled
}
