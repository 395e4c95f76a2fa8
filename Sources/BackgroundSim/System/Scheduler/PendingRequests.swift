import SimKernel

/// The task requests the app has submitted and the system has not yet launched or dropped, with
/// `BGTaskScheduler`'s rules for submitting: at most one pending refresh request and ten
/// processing requests, and a new request replacing a pending one with the same identifier [A].
struct PendingRequests {
    /// A request and the true time from which it may begin.
    struct Entry {
        var request: TaskRequest
        /// The earliest begin date converted from the device clock to true time when submitted,
        /// and never before the submission.
        var earliest: SimInstant
    }

    /// In the order they were submitted.
    private(set) var entries: [Entry] = []

    /// The most pending requests of `kind` (`BGTaskScheduler.submit` docs [A]).
    static func limit(of kind: TaskRequest.Kind) -> Int { kind == .appRefresh ? 1 : 10 }

    var isEmpty: Bool { entries.isEmpty }

    /// The number of pending requests of `kind`.
    func count(of kind: TaskRequest.Kind) -> Int {
        entries.count { $0.request.kind == kind }
    }

    /// Whether submitting `request` would exceed its kind's limit (a request with the same
    /// identifier would be replaced, so it does not count).
    func wouldExceedLimit(_ request: TaskRequest) -> Bool {
        let others = entries.count { $0.request.kind == request.kind && $0.request.identifier != request.identifier }
        return others >= Self.limit(of: request.kind)
    }

    /// Adds `request`, replacing a pending one with the same identifier.
    ///
    /// - Precondition: The limit allows it (``wouldExceedLimit(_:)`` is false).
    mutating func submit(_ request: TaskRequest, earliest: SimInstant) {
        precondition(!wouldExceedLimit(request), "PendingRequests: submit over the limit")
        entries.removeAll { $0.request.identifier == request.identifier }
        entries.append(Entry(request: request, earliest: earliest))
        checkInvariantsIfEnabled()
    }

    /// Removes the request with `identifier`, if pending.
    mutating func remove(identifier: String) {
        entries.removeAll { $0.request.identifier == identifier }
        checkInvariantsIfEnabled()
    }

    /// Removes the requests with the identifiers of `launched`.
    mutating func remove(_ launched: [Entry]) {
        entries.removeAll { entry in launched.contains { $0.request.identifier == entry.request.identifier } }
        checkInvariantsIfEnabled()
    }

    mutating func removeAll() {
        entries.removeAll()
    }
}
