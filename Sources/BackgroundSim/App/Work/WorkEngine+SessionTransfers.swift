import SimKernel

/// The transfers handed to background URL sessions: the queue's items in hand-off mode, and
/// the app's own transfers (SimulatedBackgroundTasks), which the system's daemon carries.
extension WorkEngine {
    /// The policy starts work in hand-off mode: each item's CPU time is spent in the app, then
    /// its transfer goes to `session` (a cadence workload is not handed off: its items stay in
    /// the executor).
    ///
    /// Items with no CPU time left are handed off at once (the app creates their upload tasks
    /// in this call), the rest as the executor prepares them.
    func startHandingOff(to configuration: BackgroundSessionConfiguration, at now: SimInstant, inForeground: Bool,
                         backgroundStartDelay: SimDuration) {
        defer { checkInvariantsIfEnabled() }
        start(limit: nil)
        guard cadence == nil else { return }
        settle(at: now)
        handOffSession = transfers.session(for: configuration)
        inBackground = !inForeground
        self.backgroundStartDelay = backgroundStartDelay
        while head < items.count, items[head].deadline > now, items[head].cpuSeconds == 0 { handOffHead(at: now) }
    }

    /// Passes the item in hand to the hand-off session at `now` (its CPU part done).
    func handOffHead(at now: SimInstant) {
        guard let session = handOffSession else { return }
        let discretionary = transfers.sessions[Int(session)].isDiscretionary || inBackground
        lastHandOffDelay = inBackground ? backgroundStartDelay : .zero
        transfers.add(items[head], session: session, discretionary: discretionary, at: now, startsAt: now + lastHandOffDelay)
        handedOff += 1
        handedOffSession = session
        head += 1
    }

    /// The app has heard of `session`'s finished transfers.
    func markHeard(session: Int) {
        transfers.markHeard(session: session)
    }

    /// How many transfers were handed off since the last call, and how long the last of them
    /// waits before it may start; resets the count.
    func takeHandedOff() -> (count: Int, startsIn: SimDuration, session: UInt8?) {
        defer { handedOff = 0 }
        return (handedOff, lastHandOffDelay, handedOffSession)
    }

    /// Counts a handed-off transfer leaving the daemon, as any item, and among those the
    /// system's daemon completed; an app's own transfer is kept for it to hear of.
    func endTransfer(_ item: WorkItem, _ ending: Ending) {
        if case .completed = ending, !item.isCover { metrics.completedBySession += 1 }
        end(item, ending)
        if item.appTransfer != 0 {
            let outcome: AppTransferOutcome = if case .completed = ending { .completed } else { .timedOut }
            endedAppTransfers.append((item.appTransfer, outcome))
        }
    }

    /// Hands one transfer of the app's own code to the background session `configuration` at
    /// `now`, to start no earlier than `notBefore` from now, nor before the resume rate
    /// limiter's delay (`backgroundStartDelay`) if the app is not in the foreground; returns its
    /// number, or `nil` when it moves no bytes (the daemon carries only transfers that move some)
    /// or the app already has 255 sessions. It counts as a work item.
    func handOffAppTransfer(uploadBytes: Double, downloadBytes: Double, to configuration: BackgroundSessionConfiguration,
                            notBefore: SimDuration, at now: SimInstant, inForeground: Bool, backgroundStartDelay: SimDuration) -> UInt32? {
        defer { checkInvariantsIfEnabled() }
        guard uploadBytes > 0 || downloadBytes > 0, let session = transfers.session(for: configuration) else { return nil }
        settle(at: now)
        lastAppTransfer += 1
        metrics.created += 1
        var item = WorkItem(created: now, deadline: .distantFuture, cpuSeconds: 0, uploadBytes: uploadBytes, downloadBytes: downloadBytes)
        item.appTransfer = lastAppTransfer
        let delay = inForeground ? .zero : backgroundStartDelay
        transfers.add(item, session: session, discretionary: configuration.isDiscretionary || !inForeground, at: now,
                      startsAt: now + Swift.max(delay, notBefore))
        handedOff += 1
        lastHandOffDelay = delay
        handedOffSession = session
        return lastAppTransfer
    }

    /// The app cancels its transfer number `transfer` at `now`: it fails as given up, and is
    /// reported ended, cancelled, if it was in flight.
    func cancelAppTransfer(_ transfer: UInt32, at now: SimInstant) {
        defer { checkInvariantsIfEnabled() }
        settle(at: now)
        guard let item = transfers.cancel(appTransfer: transfer) else { return }
        end(item, .givenUp)
        endedAppTransfers.append((transfer, .cancelled))
    }

    /// Takes the app's transfers that ended and were not yet passed on.
    func takeEndedAppTransfers() -> [(transfer: UInt32, outcome: AppTransferOutcome)] {
        defer { endedAppTransfers.removeAll() }
        return endedAppTransfers
    }

    /// Passes the app's ended transfers to ``onAppTransfersEnded``, if any ended (and drops
    /// them if nothing listens, so that the check that passes them on is not set again).
    func reportEndedAppTransfers() {
        guard !endedAppTransfers.isEmpty else { return }
        let ended = takeEndedAppTransfers()
        onAppTransfersEnded?(ended)
    }

    /// A force-quit cancels every background session's transfers [A]: they return to the queue,
    /// progress lost (the app still has the work). Returns how many each session lost.
    func cancelTransfers(at now: SimInstant) -> [(session: String, count: Int)] {
        defer { checkInvariantsIfEnabled() }
        settle(at: now)
        let cancelled = transfers.cancelAll()
        var counts: [(session: String, count: Int)] = []
        for (item, session) in cancelled {
            if item.appTransfer != 0 {
                // The app's own task fails, cancelled; the app hears of it when it next makes
                // the session [A].
                end(item, .givenUp)
                endedAppTransfers.append((item.appTransfer, .cancelled))
            } else {
                compactQueue()
                items.append(item)
            }
            let name = transfers.sessions[Int(session)].identifier
            if let index = counts.firstIndex(where: { $0.session == name }) { counts[index].count += 1 } else { counts.append((name, 1)) }
        }
        return counts
    }
}
