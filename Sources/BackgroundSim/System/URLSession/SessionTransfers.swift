import SimKernel

/// The transfers the app has handed to background URL sessions: the system's transfer daemon
/// carries them whatever the app's state, one at a time, the oldest that the conditions allow
/// (``BackgroundURLSessionParameters``), integrated exactly between events like the app's own
/// executor.
///
/// A transfer may go when the network is up; on cellular only if its session allows cellular
/// and it is not discretionary; a discretionary one only on Wi-Fi, and on the charger unless the
/// parameters say otherwise; on a network in Low Data Mode only if it is not discretionary and
/// its session allows constrained networks. Each session counts the transfers that finished (completed or
/// failed) since the app last heard of them, so that the system can launch the app for them.
struct SessionTransfers {
    struct Transfer {
        var item: WorkItem
        var session: UInt8
        var discretionary: Bool
        /// Before this it may not start (the resume rate limiter's delay for a transfer created
        /// in the background).
        var startsAt: SimInstant
    }

    /// The sessions the app has used, by index.
    private(set) var sessions: [BackgroundSessionConfiguration] = []
    /// Per session, transfers finished since the app last heard of them.
    private(set) var unheard: [Int] = []
    /// Per session, transfers in flight.
    private(set) var inFlight: [Int] = []
    private(set) var transfers: [Transfer] = []
    /// The transfer in progress, if any (an index into ``transfers``).
    private(set) var current: Int?
    /// When the transfer in progress began to progress at the rates captured then.
    private(set) var activeSince: SimInstant?
    private var uploadRate = 0.0
    private var downloadRate = 0.0
    private var dataBudgetWeight = 0.0
    /// The conditions captured at the last ``setConditions``.
    private var path = NetworkPath.offline
    private var charging = false
    private var requiresPower = true

    var isEmpty: Bool { transfers.isEmpty }
    var count: Int { transfers.count }
    var isProgressing: Bool { activeSince != nil }

    /// The directions the transfer in progress still moves.
    var directions: (upload: Bool, download: Bool) {
        guard let current else { return (false, false) }
        return (transfers[current].item.uploadBytes > 0, transfers[current].item.downloadBytes > 0)
    }

    /// The index of `configuration`'s session, registering it the first time (at most 255).
    mutating func session(for configuration: BackgroundSessionConfiguration) -> UInt8? {
        if let index = sessions.firstIndex(where: { $0.identifier == configuration.identifier }) {
            sessions[index] = configuration
            return UInt8(index)
        }
        guard sessions.count < 255 else { return nil }
        sessions.append(configuration)
        unheard.append(0)
        inFlight.append(0)
        return UInt8(sessions.count - 1)
    }

    /// Hands `item` (its CPU part done) to `session` at `now`, to start no earlier than
    /// `startsAt`: its deadline becomes the earlier of its own and the session's resource timeout.
    mutating func add(_ item: WorkItem, session: UInt8, discretionary: Bool, at now: SimInstant, startsAt: SimInstant) {
        precondition(startsAt >= now, "SessionTransfers: a transfer may not start before it is created")
        var item = item
        item.deadline = Swift.min(item.deadline, now + sessions[Int(session)].timeoutIntervalForResource)
        transfers.append(Transfer(item: item, session: session, discretionary: discretionary, startsAt: startsAt))
        inFlight[Int(session)] += 1
        checkInvariantsIfEnabled()
    }

    /// Whether `transfer` may go at `instant` under the captured conditions.
    private func mayGo(_ transfer: Transfer, at instant: SimInstant) -> Bool {
        guard transfer.startsAt <= instant else { return false }
        // Low Data Mode: discretionary transfers wait [A], and a session that does not allow
        // constrained networks waits too [A].
        if path.isConstrained && (transfer.discretionary || !sessions[Int(transfer.session)].allowsConstrainedNetworkAccess) {
            return false
        }
        switch path.interface {
        case .none: return false
        case .cellular: return sessions[Int(transfer.session)].allowsCellularAccess && !transfer.discretionary
        case .wifi: return !transfer.discretionary || charging || !requiresPower
        }
    }

    private func firstGoing(at instant: SimInstant) -> Int? {
        transfers.firstIndex { mayGo($0, at: instant) }
    }

    /// Sets the conditions from `now`, after failing the transfers whose deadline has passed:
    /// the network, whether the phone is charging, the link's share left to the transfers
    /// (`linkShare`, 0.5 while the app's own executor transfers too) and how much a byte counts
    /// against the data budget.
    mutating func setConditions(at now: SimInstant, path: NetworkPath, charging: Bool, requiresPower: Bool, network: NetworkParameters,
                                linkShare: Double, dataBudgetWeight: Double, end: (WorkItem, WorkEngine.Ending) -> Void) {
        var index = 0
        while index < transfers.count {
            if transfers[index].item.deadline <= now { finish(at: index, .deadline, end: end) } else { index += 1 }
        }
        self.path = path
        self.charging = charging
        self.requiresPower = requiresPower
        current = firstGoing(at: now)
        guard current != nil else {
            activeSince = nil
            checkInvariantsIfEnabled()
            return
        }
        if activeSince == nil { activeSince = now }
        let throughput = network.throughput(on: path)
        uploadRate = throughput.uplinkMbps * 125_000 * linkShare
        downloadRate = throughput.downlinkMbps * 125_000 * linkShare
        self.dataBudgetWeight = dataBudgetWeight
        checkInvariantsIfEnabled()
    }

    /// Holds progress back until `instant` (the end of a radio promotion).
    mutating func delayProgress(until instant: SimInstant) {
        guard let since = activeSince, instant > since else { return }
        activeSince = instant
    }

    /// Completes the transfers finished by `now` at the captured rates; returns the bytes that
    /// count against the data budget.
    mutating func settle(at now: SimInstant, end: (WorkItem, WorkEngine.Ending) -> Void) -> Double {
        guard let since = activeSince, now > since else { return 0 }
        var cursor = since
        var budgetBytes = 0.0
        while cursor < now, let index = current {
            if transfers[index].item.deadline <= cursor {
                finish(at: index, .deadline, end: end)
                current = firstGoing(at: cursor)
                continue
            }
            let before = transfers[index].item.uploadBytes + transfers[index].item.downloadBytes
            let used = transfers[index].item.work(for: cursor.duration(to: now).seconds, uploadRate: uploadRate, downloadRate: downloadRate)
            budgetBytes += (before - transfers[index].item.uploadBytes - transfers[index].item.downloadBytes) * dataBudgetWeight
            cursor = Swift.min(now, cursor + .seconds(used))
            guard transfers[index].item.isDone else { break }
            let item = transfers[index].item
            finish(at: index, .completed(latencySeconds: item.created.duration(to: cursor).seconds, at: cursor), end: end)
            current = firstGoing(at: cursor)
        }
        activeSince = current == nil ? nil : now
        checkInvariantsIfEnabled()
        return budgetBytes
    }

    private mutating func finish(at index: Int, _ ending: WorkEngine.Ending, end: (WorkItem, WorkEngine.Ending) -> Void) {
        let transfer = transfers.remove(at: index)
        inFlight[Int(transfer.session)] -= 1
        unheard[Int(transfer.session)] += 1
        end(transfer.item, ending)
    }

    /// When the transfers next need attention: the transfer in progress finishing, the
    /// earliest deadline, or the next transfer the rate limiter holds back becoming free to start.
    func nextCheck(after now: SimInstant) -> SimInstant? {
        var next = transfers.lazy.map(\.item.deadline).min().flatMap { $0 < .distantFuture ? Swift.max(now, $0) : nil }
        if let free = transfers.lazy.map(\.startsAt).filter({ $0 > now }).min() { next = Swift.min(next ?? free, free) }
        if let since = activeSince, let current {
            let seconds = transfers[current].item.remainingSeconds(uploadRate: uploadRate, downloadRate: downloadRate)
            if seconds.isFinite {
                let done = Swift.max(now, since) + .nanoseconds(Int64((seconds * 1e9).rounded(.up)))
                next = Swift.min(next ?? done, done)
            }
        }
        return next
    }

    /// The app has heard of `session`'s finished transfers.
    mutating func markHeard(session: Int) {
        unheard[session] = 0
    }

    /// Sessions whose transfers have all finished, with some the app has not heard of.
    var sessionsWithEvents: [Int] {
        sessions.indices.filter { unheard[$0] > 0 && inFlight[$0] == 0 }
    }

    /// The app cancels its own transfer number `appTransfer` (settled to now first): it leaves
    /// the daemon, unfinished, and the app, which cancelled it, has heard of it. Returns the
    /// item, or `nil` if it is not in flight.
    mutating func cancel(appTransfer: UInt32) -> WorkItem? {
        guard let index = transfers.firstIndex(where: { $0.item.appTransfer == appTransfer }) else { return nil }
        let transfer = transfers.remove(at: index)
        inFlight[Int(transfer.session)] -= 1
        if let current {
            // The next ``setConditions`` picks the transfer to go on with.
            if current == index { self.current = nil; activeSince = nil } else if current > index { self.current = current - 1 }
        }
        checkInvariantsIfEnabled()
        return transfer.item
    }

    /// A force-quit: every transfer is cancelled [A] and handed back, progress lost (the app
    /// still has the work and may hand it over again), with the sessions they belonged to.
    mutating func cancelAll() -> [(item: WorkItem, session: UInt8)] {
        let cancelled = transfers.map { transfer -> (WorkItem, UInt8) in
            var item = transfer.item
            item.restart()
            return (item, transfer.session)
        }
        transfers.removeAll()
        for index in inFlight.indices { inFlight[index] = 0 }
        current = nil
        activeSince = nil
        checkInvariantsIfEnabled()
        return cancelled
    }

    /// Transfers still in flight at `end`: those past their deadline, and the rest.
    func expiredAndLive(at end: SimInstant) -> (expired: Int, live: Int) {
        let expired = transfers.count { $0.item.deadline <= end && !$0.item.isCover }
        return (expired, transfers.count { !$0.item.isCover } - expired)
    }
}
