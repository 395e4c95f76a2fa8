import SimKernel

/// The executor: a run the policy starts and stops, progressing while the process runs and
/// the network allows, integrated exactly between events.
extension WorkEngine {
    /// The policy starts work; `limit` caps the items this run completes.
    ///
    /// With `senders` n above 1, that many of the app's jobs work the queue at once, each
    /// `limit` times peeking at the head, sending it and then dequeuing whatever is at the head
    /// by then (CoverDrop's jobs, ``CoverDropShipped``), the first to finish a send always the
    /// same job [Inf]. All n peek before any dequeues, so the run's first item goes on the wire
    /// n times (the link shared: n times as long, n times against the data budget). After it
    /// each job peeks just after its own dequeue, so the jobs send different items: each of the
    /// later rounds sends the next n items once (one after another here, at the full rate: the
    /// same time on the link as n at once). The n·`limit` dequeues run n − 1 ahead of the
    /// sends, so when the run ends the last n − 1 items dequeued were never sent (they fail as
    /// given up, or count as unsent cover): with 2 jobs of 2 sends, m1 twice, m2 and m3, and m4
    /// lost. `limit` counts each job's sends; the run completes 1 + (limit − 1)·n items. A
    /// cadence workload and a hand-off ignore `senders`.
    func start(limit: Int?, senders: Int = 1) {
        precondition(limit.map { $0 >= 0 } ?? true, "WorkEngine.start: a limit of \(limit!) items; expected at least 0")
        precondition(senders >= 1, "WorkEngine.start: \(senders) senders; expected at least 1")
        defer { checkInvariantsIfEnabled() }
        isStarted = true
        remainingInRun = senders == 1 ? limit : limit.map { $0 == 0 ? 0 : 1 + ($0 - 1) * senders }
        sendersInRun = senders
        copiesOfHead = senders
        unsentAtRunEnd = senders - 1
        runEndReported = false
        handOffSession = nil
    }

    /// The policy stops work (progress so far is kept if items are resumable).
    func stop(at now: SimInstant) {
        defer { checkInvariantsIfEnabled() }
        settle(at: now)
        isStarted = false
        remainingInRun = nil
        endOverlap()
    }

    /// Back to one sender.
    private func endOverlap() {
        sendersInRun = 1
        copiesOfHead = 1
        unsentAtRunEnd = 0
    }

    /// Sets whether work can progress from `now`, at the network `path`'s throughput.
    ///
    /// - Returns: Whether the executor is now progressing.
    @discardableResult
    func setConditions(at now: SimInstant, processRunning: Bool, path: NetworkPath, network: NetworkParameters,
                       dataBudgetWeight: Double = 0, transferDataBudgetWeight: Double = 0, inForeground: Bool = false, charging: Bool = false,
                       discretionaryRequiresPower: Bool = true, backgroundStartDelay: SimDuration = .zero) -> Bool {
        defer { checkInvariantsIfEnabled() }
        settle(at: now)
        materialize(upTo: now)
        inBackground = !inForeground
        self.backgroundStartDelay = backgroundStartDelay
        // Items with no CPU left are handed off at once.
        if handOffSession != nil && isStarted && processRunning {
            while head < items.count, items[head].deadline > now, items[head].cpuSeconds == 0 { handOffHead(at: now) }
        }
        // An item whose deadline has passed fails now, rather than block the items behind it
        // until the executor reaches it.
        while cadence == nil, head < items.count, items[head].deadline <= now {
            end(items[head], .deadline)
            head += 1
        }
        let throughput = network.throughput(on: path)
        let canWork = isStarted && processRunning && queuedCount > 0 && (!headNeedsNetwork || path.isSatisfied)
        if canWork {
            if activeSince == nil { activeSince = now }
            uploadRate = throughput.uplinkMbps * 125_000
            downloadRate = throughput.downlinkMbps * 125_000
            self.dataBudgetWeight = dataBudgetWeight
        } else {
            activeSince = nil
            if !parameters.resumable { restartHead() }
        }
        if handOffSession != nil { uploadRate = 0; downloadRate = 0 }
        let executorOnLink = activeSince != nil && headNeedsNetwork
        if !transfers.isEmpty {
            transfers.setConditions(at: now, path: path, charging: charging, requiresPower: discretionaryRequiresPower,
                                    network: network, linkShare: executorOnLink ? 0.5 : 1, dataBudgetWeight: transferDataBudgetWeight,
                                    end: { endTransfer($0, $1) })
            if executorOnLink && transfers.isProgressing { uploadRate *= 0.5; downloadRate *= 0.5 }
        }
        return activeSince != nil
    }

    /// Holds progress back until `instant` (the end of a radio promotion: data flows after it).
    func delayProgress(until instant: SimInstant) {
        defer { checkInvariantsIfEnabled() }
        transfers.delayProgress(until: instant)
        guard let since = activeSince, instant > since else { return }
        activeSince = instant
    }

    /// Completes the items finished by `now` at the rates in force, failing those whose deadline
    /// passes before work on them starts; and the handed-off transfers finished by then.
    func settle(at now: SimInstant) {
        defer { checkInvariantsIfEnabled() }
        if transfers.isProgressing { dataBudgetBytes += transfers.settle(at: now, end: { endTransfer($0, $1) }) }
        settleExecutor(at: now)
    }

    private func settleExecutor(at now: SimInstant) {
        guard let since = activeSince, now > since else { return }
        materialize(upTo: now)
        if cadence != nil {
            // The histograms are updated in place: a local copy of one would copy its buckets.
            let result = cadence!.work(from: since, to: now, uploadRate: uploadRate, downloadRate: downloadRate,
                                       limit: remainingInRun, runEnd: runEnd, into: &metrics)
            dataBudgetBytes += result.bytes * dataBudgetWeight
            metrics.completed += result.completed
            metrics.failedDeadline += result.failed
            if let remaining = remainingInRun { remainingInRun = remaining - result.completed }
            activeSince = now
            return
        }
        var cursor = since
        while cursor < now, head < items.count {
            if items[head].created > cursor {
                cursor = items[head].created
                if cursor >= now { break }
            }
            if items[head].deadline <= cursor {
                end(items[head], .deadline)
                head += 1
                continue
            }
            let before = items[head].uploadBytes + items[head].downloadBytes
            // Each copy of the item in hand takes its share of the link.
            let copies = Double(copiesOfHead)
            let used = items[head].work(for: cursor.duration(to: now).seconds, uploadRate: uploadRate / copies, downloadRate: downloadRate / copies)
            dataBudgetBytes += (before - items[head].uploadBytes - items[head].downloadBytes) * dataBudgetWeight * copies
            cursor = Swift.min(now, cursor + .seconds(used))
            if handOffSession != nil && items[head].cpuSeconds == 0 && !items[head].isDone {
                handOffHead(at: cursor)
                continue
            }
            guard items[head].isDone else { break }
            end(items[head], .completed(latencySeconds: items[head].created.duration(to: cursor).seconds, at: cursor))
            // Every job's copy of the run's first item went on the wire.
            if copiesOfHead > 1 && items[head].totalUploadBytes > 0 {
                for _ in 1..<copiesOfHead { metrics.uploadTraffic.record(at: cursor, isCover: items[head].isCover) }
            }
            copiesOfHead = 1
            head += 1
            if let remaining = remainingInRun {
                remainingInRun = remaining - 1
                if remaining - 1 == 0 {
                    // The jobs' last dequeues, n − 1 ahead of their sends.
                    while unsentAtRunEnd > 0, head < items.count, items[head].created <= cursor {
                        end(items[head], .givenUp)
                        head += 1
                        unsentAtRunEnd -= 1
                    }
                    break
                }
            }
        }
        activeSince = now
    }

    /// After settling: whether the run has ended (queue empty, or limit reached), for the
    /// caller to stop and notify.
    var runFinished: (queueEmpty: Bool, limitReached: Bool) {
        (queuedCount == 0, remainingInRun == 0)
    }

    /// When the executor next needs attention: the completion of the items in hand (at most 64
    /// ahead, to bound the work); while started but held, the deadline of the item in hand;
    /// otherwise `nil`.
    func nextCheck(after now: SimInstant) -> SimInstant? {
        let executor = executorNextCheck(after: now)
        guard let transfer = transfers.nextCheck(after: now) else { return executor }
        return Swift.min(executor ?? transfer, transfer)
    }

    private func executorNextCheck(after now: SimInstant) -> SimInstant? {
        guard let since = activeSince else {
            // Started but held (no network for the item in hand): look again when that item's
            // deadline passes, so that it fails then and frees the items behind it.
            guard isStarted, cadence == nil, head < items.count, items[head].deadline < .distantFuture else { return nil }
            return Swift.max(now, items[head].deadline)
        }
        if let cadence {
            let seconds = cadence.remainingSeconds(uploadRate: uploadRate, downloadRate: downloadRate,
                                                   limit: Swift.min(remainingInRun ?? .max, 4_096))
            guard seconds.isFinite else { return nil }
            return Swift.max(now, since) + .nanoseconds(Int64((seconds * 1e9).rounded(.up)))
        }
        if handOffSession != nil {
            // The item in hand is handed off when its CPU part is done.
            guard head < items.count else { return nil }
            return Swift.max(now, since) + .nanoseconds(Int64((items[head].cpuSeconds * 1e9).rounded(.up)))
        }
        var seconds = 0.0
        var index = head
        var copies = Double(copiesOfHead)
        let limit = Swift.min(64, remainingInRun ?? .max)
        while index < items.count && index - head < limit {
            seconds += items[index].remainingSeconds(uploadRate: uploadRate / copies, downloadRate: downloadRate / copies)
            index += 1
            copies = 1
        }
        guard seconds.isFinite else { return nil }
        // Rounded up, so that settling then finds the items done.
        return Swift.max(now, since) + .nanoseconds(Int64((seconds * 1e9).rounded(.up)))
    }

    /// The process ended: the run's state goes; the queue stays. A non-resumable item in
    /// progress loses its progress.
    /// Loses the progress of the item in hand.
    private func restartHead() {
        if cadence != nil {
            cadence!.restartHead()
        } else if head < items.count {
            items[head].restart()
        }
    }

    /// The policy gives up: every queued item fails (`givenUp`).
    func giveUp(at now: SimInstant) {
        defer { checkInvariantsIfEnabled() }
        settle(at: now)
        materialize(upTo: now)
        if let cadence { metrics.failedGivenUp += cadence.count }
        for index in head..<items.count { end(items[index], .givenUp) }
        items.removeAll()
        head = 0
        if cadence != nil {
            cadence!.dropAll { censor(created: $0) }
        }
    }

    /// The process ended. With `killed`, a non-resumable item in progress fails (`killed`);
    /// otherwise it loses its progress. The run's state goes; the queue stays.
    func processTerminated(at now: SimInstant, killed: Bool = false) {
        defer { checkInvariantsIfEnabled() }
        let wasActive = activeSince != nil
        settle(at: now)
        if killed && wasActive && !parameters.resumable && queuedCount > 0 {
            if cadence != nil {
                metrics.failedKilled += 1
                if let created = cadence!.dropHead() { censor(created: created) }
            } else {
                end(items[head], .killed)
                head += 1
            }
        }
        if !parameters.resumable { restartHead() }
        activeSince = nil
        isStarted = false
        remainingInRun = nil
        endOverlap()
        handOffSession = nil
        onQueueEmpty = nil
        onLimitReached = nil
    }
}
