import SimKernel

/// The app's work: a queue of items that survives process termination, and an executor that
/// makes progress on it only while the policy has started it, the process runs (foreground, or
/// background with an assertion or a task — never while suspended) and, for items that
/// transfer data, the network allows.
///
/// Progress is integrated exactly between events. While the executor is active, work proceeds
/// item by item at the current network's throughput (CPU first, then upload, then download);
/// ``settle(at:)`` brings it up to a moment, completing the items finished by then with their
/// exact completion times. The executor needs an event only when the items in hand run out or
/// the run's limit is reached (``nextCheck(after:)``), never one per item.
///
/// A policy may instead hand the transfers to a background URL session
/// (``startHandingOff(to:)``): the executor then spends each item's CPU time in the app and
/// passes the item to ``transfers``, which the system's daemon carries on whatever the app's
/// state.
///
/// Simplifications [Inf]: one item at a time; the radio is kept in transfer for the whole active
/// stretch of a run that has network work (CPU phases included), and a radio promotion delays
/// all progress, CPU included, until data flows.
package final class WorkEngine {
    static let itemLabel = StreamLabel("work.items")

    let parameters: WorkParameters
    let seed: UInt64

    // MARK: The persistent queue

    /// App-session items from `head` on are queued; earlier slots are finished and reclaimed on
    /// compaction.
    private var items: [WorkItem] = []
    private var head = 0
    /// Cadence items, kept as a run of indices (`nil` unless arrivals are `cadence`).
    private var cadence: CadenceBacklog?
    private var itemStream = RandomStream(seed: 0)
    private var itemStreamDay = Int.min
    /// When the simulation ends (``SimulationRunner`` sets it before running): an item that
    /// never completes counts in ``WorkMetrics/censoredLatency`` from its creation to it.
    var runEnd = SimInstant.distantFuture

    // MARK: The run (per process)

    /// The policy has started the executor.
    package private(set) var isStarted = false
    /// Items the run may still complete; `nil` for no limit.
    private var remainingInRun: Int?
    /// Senders working the queue's head at once in this run (``start(limit:senders:)``); 1
    /// unless a policy models its own jobs overlapping.
    private var sendersInRun = 1
    /// When effective progress began, at the rates captured then; `nil` while not progressing.
    private(set) var activeSince: SimInstant?
    private var uploadRate = 0.0
    private var downloadRate = 0.0
    /// How much each byte the executor transfers now counts against the app's data budget: 0
    /// unless on cellular while not in the foreground (captured with the rates).
    private var dataBudgetWeight = 0.0
    /// Bytes counted against the data budget so far (weighted).
    private(set) var dataBudgetBytes = 0.0
    /// Set once a run's end (queue empty, limit reached) has been reported; a new run clears it.
    var runEndReported = false
    /// The background session the executor hands items' transfers to, if it is in that mode.
    private(set) var handOffSession: UInt8?
    /// Whether the app was not in the foreground at the last conditions (its transfers are then
    /// discretionary [A]).
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private var inBackground = false
    /// How long a transfer handed off while not in the foreground waits before it may start (the
    /// resume rate limiter's delay at the last conditions).
    private var backgroundStartDelay = SimDuration.zero
    /// The transfers handed to background URL sessions (the system's daemon carries them).
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private(set) var transfers = SessionTransfers()
    /// Called when the queue runs empty during a run, and when the run's limit is reached.
    var onQueueEmpty: (() -> Void)?
    var onLimitReached: (() -> Void)?

    // MARK: Metrics

    /// What the work has done so far (as of the last settle).
    package private(set) var metrics = WorkMetrics()
    /// The labels policies gave their items; an item's label is its index here plus one.
    private(set) var labels: [String] = []
    /// Each label's items, queued, completed and failed (as of the last settle).
    private(set) var progressByLabel: [WorkProgress] = []

    init(parameters: WorkParameters, seed: UInt64) {
        self.parameters = parameters
        self.seed = seed
        if parameters.arrivals == .cadence {
            let p = parameters
            let template = WorkItem(created: .start, deadline: .distantFuture, cpuSeconds: p.cpuMedianSeconds,
                                    uploadBytes: p.uploadMedianKilobytes * 1_000, downloadBytes: p.downloadMedianKilobytes * 1_000)
            cadence = CadenceBacklog(parameters: parameters, template: template)
        }
    }

    /// Items queued of both kinds (only one kind is ever in use).
    private var queuedCount: Int { items.count - head + (cadence?.count ?? 0) }

    /// The item being worked on, or next to be.
    private var headItem: WorkItem? {
        if let cadence { return cadence.headItem }
        return head < items.count ? items[head] : nil
    }

    /// Whether the executor is making progress now.
    package var isProgressing: Bool { activeSince != nil }

    /// When the oldest queued item was created, as of the last settle; `nil` with none queued.
    package var oldestQueuedItemCreation: SimInstant? { headItem?.created }

    /// Items queued (arrived and not finished), after bringing cadence arrivals up to `now`.
    func pendingCount(at now: SimInstant) -> Int {
        materialize(upTo: now)
        return queuedCount
    }

    /// Whether the item being worked on needs the network (not when its transfer is handed off).
    var headNeedsNetwork: Bool { handOffSession == nil && (headItem?.needsNetwork ?? false) }

    /// The share of a CPU core the executor uses while active: the share of the item in hand's
    /// time spent computing (CPU first, then transfers) [Inf].
    var headCPUShare: Double {
        guard activeSince != nil, let item = headItem else { return 0 }
        if handOffSession != nil { return 1 }
        let total = item.remainingSeconds(uploadRate: uploadRate, downloadRate: downloadRate)
        return total > 0 && total.isFinite ? item.cpuSeconds / total : 0
    }

    /// Which directions the item being worked on still transfers.
    var headDirections: (upload: Bool, download: Bool) {
        guard handOffSession == nil, let item = headItem else { return (false, false) }
        return (item.uploadBytes > 0, item.downloadBytes > 0)
    }

    // MARK: Arrivals

    /// Creates the items of an app session that opened (or, with `closing`, closed) at `now`
    /// (`appSessions` arrivals, at the workload's ``WorkParameters/appSessionMoment``).
    func appSession(at now: SimInstant, day: Int, closing: Bool) {
        guard parameters.arrivals == .appSessions, closing == (parameters.appSessionMoment == .close) else { return }
        if day != itemStreamDay {
            itemStreamDay = day
            itemStream = RandomStream(seed: seed, label: Self.itemLabel, index: UInt64(bitPattern: Int64(day)))
        }
        let count = PoissonDistribution(mean: parameters.itemsPerAppSession).sample(using: &itemStream)
        for _ in 0..<count { append(created: now, stream: &itemStream) }
    }

    /// Adds the cadence items created up to `now`.
    private func materialize(upTo now: SimInstant) {
        guard cadence != nil else { return }
        let counts = cadence!.arrive(upTo: now) { censor(created: $0) }
        metrics.created += counts.arrived
        metrics.failedQueueFull += counts.dropped
    }

    private func append(created: SimInstant, stream: inout RandomStream) {
        metrics.created += 1
        let p = parameters
        guard items.count - head < parameters.maximumQueuedItems else {
            metrics.failedQueueFull += 1
            censor(created: created)
            return
        }
        let random = p.arrivals == .appSessions
        func size(_ median: Double, _ sigma: Double, _ scale: Double) -> Double {
            guard median > 0 else { return 0 }
            return (random ? LogNormalDistribution(median: median, sigma: sigma).sample(using: &stream) : median) * scale
        }
        let cpu = size(p.cpuMedianSeconds, p.cpuSigma, 1)
        let upload = size(p.uploadMedianKilobytes, p.uploadSigma, 1_000)
        let download = size(p.downloadMedianKilobytes, p.downloadSigma, 1_000)
        let deadline = p.deadlineHours > 0 ? created + .hours(p.deadlineHours) : .distantFuture
        compactQueue()
        items.append(WorkItem(created: created, deadline: deadline, cpuSeconds: cpu, uploadBytes: upload, downloadBytes: download))
    }

    // MARK: Items the policy makes

    /// Queues an item the policy made; its deadline is `request.deadline` after `now`, or the
    /// workload's `deadlineHours` if it gives none.
    ///
    /// - Throws: A ``ScenarioIssue`` naming the request's field if a value is not finite, is
    ///   negative or out of range, if it asks for no work, if there are too many labels, or if
    ///   the scenario's workload is a cadence (which owns the queue).
    func enqueue(_ request: WorkRequest, at now: SimInstant) throws(ScenarioIssue) {
        var validator = ParameterValidator()
        request.validate(&validator)
        if let issue = validator.issues.first { throw issue }
        guard cadence == nil else {
            throw ScenarioIssue(path: "work.arrivals", message: "a cadence workload owns the queue; a policy may add items with arrivals \"none\" or \"appSessions\"")
        }
        var label: UInt16 = 0
        if !request.label.isEmpty {
            if let index = labels.firstIndex(of: request.label) {
                label = UInt16(index + 1)
            } else {
                guard labels.count < WorkRequest.maximumLabels else {
                    throw ScenarioIssue(path: "label", message: "expected at most \(WorkRequest.maximumLabels) distinct labels in a run")
                }
                labels.append(request.label)
                progressByLabel.append(WorkProgress())
                label = UInt16(labels.count)
            }
        }
        if !request.isCover { metrics.created += 1 }
        guard items.count - head < parameters.maximumQueuedItems else {
            if request.isCover {
                metrics.coverUnsent += 1
            } else {
                metrics.failedQueueFull += 1
                censor(created: now)
            }
            if label > 0 { progressByLabel[Int(label) - 1].failed += 1 }
            return
        }
        let deadline = request.deadline.map { now + $0 }
            ?? (parameters.deadlineHours > 0 ? now + .hours(parameters.deadlineHours) : .distantFuture)
        compactQueue()
        var item = WorkItem(created: now, deadline: deadline, cpuSeconds: request.cpuSeconds,
                            uploadBytes: request.uploadBytes, downloadBytes: request.downloadBytes)
        item.label = label
        item.isCover = request.isCover
        items.append(item)
        if label > 0 { progressByLabel[Int(label) - 1].queued += 1 }
    }

    /// The progress of the items labelled `label` at `now` (after a settle): queued items whose
    /// deadline has passed count as failed.
    func progress(label: String, at now: SimInstant) -> WorkProgress {
        guard let index = labels.firstIndex(of: label) else { return WorkProgress() }
        var progress = progressByLabel[index]
        let expired = items[head...].count { $0.label == UInt16(index + 1) && $0.deadline <= now }
        progress.queued -= expired
        progress.failed += expired
        return progress
    }

    /// How a queued item left the queue.
    enum Ending {
        case completed(latencySeconds: Double, at: SimInstant), deadline, killed, givenUp
    }

    /// Counts `item` leaving the queue: in the report's items and latency, or, for cover
    /// traffic, in `coverSent` and `coverUnsent`; and in its label's progress.
    func end(_ item: WorkItem, _ ending: Ending) {
        if case .completed(_, let at) = ending, item.totalUploadBytes > 0 {
            metrics.uploadTraffic.record(at: at, isCover: item.isCover)
        }
        switch (ending, item.isCover) {
        case (.completed, true): metrics.coverSent += 1
        case (_, true): metrics.coverUnsent += 1
        case (.completed(let latency, _), false):
            metrics.completed += 1
            metrics.completedBytes += item.totalUploadBytes + item.totalDownloadBytes
            metrics.latency.record(latency)
        case (.deadline, false): metrics.failedDeadline += 1
        case (.killed, false): metrics.failedKilled += 1
        case (.givenUp, false): metrics.failedGivenUp += 1
        }
        if case .completed = ending {} else if !item.isCover {
            censor(created: item.created)
        }
        if case .completed = ending { count(item.label, failed: false) } else { count(item.label, failed: true) }
    }

    /// Counts a handed-off transfer leaving the daemon, as any item, and among those the
    /// system's daemon completed; an app's own transfer is kept for it to hear of.
    private func endTransfer(_ item: WorkItem, _ ending: Ending) {
        if case .completed = ending, !item.isCover { metrics.completedBySession += 1 }
        end(item, ending)
        if item.appTransfer != 0 {
            let outcome: AppTransferOutcome = if case .completed = ending { .completed } else { .timedOut }
            endedAppTransfers.append((item.appTransfer, outcome))
        }
    }

    // MARK: The app's own background-session transfers

    /// The app's own transfers that ended since the system last passed them on, in order.
    private(set) var endedAppTransfers: [(transfer: UInt32, outcome: AppTransferOutcome)] = []
    /// The number of the app's latest transfer.
    private var lastAppTransfer: UInt32 = 0
    /// Hears the app's own transfers as they end (set by SimulatedBackgroundTasks, for the
    /// whole run: the transfers outlive the process that made them).
    var onAppTransfersEnded: (([(transfer: UInt32, outcome: AppTransferOutcome)]) -> Void)?

    /// Hands one transfer of the app's own code to the background session `configuration` at
    /// `now`, to start no earlier than `notBefore` from now, nor before the resume rate
    /// limiter's delay (`backgroundStartDelay`) if the app is not in the foreground; returns its
    /// number, or `nil` when it moves no bytes (the daemon carries only transfers that move some)
    /// or the app already has 255 sessions. It counts as a work item.
    func handOffAppTransfer(uploadBytes: Double, downloadBytes: Double, to configuration: BackgroundSessionConfiguration,
                            notBefore: SimDuration, at now: SimInstant, inForeground: Bool, backgroundStartDelay: SimDuration) -> UInt32? {
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

    /// Moves a labelled item from queued to completed or failed.
    private func count(_ label: UInt16, failed: Bool) {
        guard label > 0 else { return }
        let index = Int(label) - 1
        progressByLabel[index].queued -= 1
        if failed { progressByLabel[index].failed += 1 } else { progressByLabel[index].completed += 1 }
    }

    /// Reclaims finished slots once they are most of the array, so the queue stays O(queued).
    private func compactQueue() {
        if head > 1_024 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
    }

    /// Adds one item, for the package's tests.
    package func enqueue(created: SimInstant, cpuSeconds: Double = 0, uploadBytes: Double = 0, downloadBytes: Double = 0) {
        metrics.created += 1
        let deadline = parameters.deadlineHours > 0 ? created + .hours(parameters.deadlineHours) : .distantFuture
        items.append(WorkItem(created: created, deadline: deadline, cpuSeconds: cpuSeconds, uploadBytes: uploadBytes, downloadBytes: downloadBytes))
    }

    // MARK: The run

    /// The policy starts work; `limit` caps the items this run completes.
    ///
    /// With `senders` above 1, that many of the app's jobs work the queue at once in lockstep,
    /// each peeking at the head, sending it and then dequeuing whatever is at the head by then
    /// (CoverDrop's jobs, ``CoverDropShipped``): every item is sent `senders` times — the link
    /// is shared, so it takes that many times as long and counts that many times against the
    /// data budget — and the `senders − 1` items queued behind it are dequeued unsent (they
    /// fail as given up, or count as unsent cover). A cadence workload and a hand-off ignore
    /// `senders`.
    func start(limit: Int?, senders: Int = 1) {
        isStarted = true
        remainingInRun = limit
        sendersInRun = senders
        runEndReported = false
        handOffSession = nil
    }

    /// The policy starts work in hand-off mode: each item's CPU time is spent in the app, then
    /// its transfer goes to `session` (a cadence workload is not handed off: its items stay in
    /// the executor).
    ///
    /// Items with no CPU time left are handed off at once (the app creates their upload tasks
    /// in this call), the rest as the executor prepares them.
    func startHandingOff(to configuration: BackgroundSessionConfiguration, at now: SimInstant, inForeground: Bool,
                         backgroundStartDelay: SimDuration) {
        start(limit: nil)
        guard cadence == nil else { return }
        settle(at: now)
        handOffSession = transfers.session(for: configuration)
        inBackground = !inForeground
        self.backgroundStartDelay = backgroundStartDelay
        while head < items.count, items[head].deadline > now, items[head].cpuSeconds == 0 { handOffHead(at: now) }
    }

    /// Passes the item in hand to the hand-off session at `now` (its CPU part done).
    private func handOffHead(at now: SimInstant) {
        guard let session = handOffSession else { return }
        let discretionary = transfers.sessions[Int(session)].isDiscretionary || inBackground
        lastHandOffDelay = inBackground ? backgroundStartDelay : .zero
        transfers.add(items[head], session: session, discretionary: discretionary, at: now, startsAt: now + lastHandOffDelay)
        handedOff += 1
        handedOffSession = session
        head += 1
    }

    /// Transfers handed off since the system last asked (``takeHandedOff()``), the wait the
    /// last of them was given, and its session.
    private var handedOff = 0
    private var lastHandOffDelay = SimDuration.zero
    private var handedOffSession: UInt8?

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

    /// The policy stops work (progress so far is kept if items are resumable).
    func stop(at now: SimInstant) {
        settle(at: now)
        isStarted = false
        remainingInRun = nil
        sendersInRun = 1
    }

    /// Sets whether work can progress from `now`, at the network `path`'s throughput.
    ///
    /// - Returns: Whether the executor is now progressing.
    @discardableResult
    func setConditions(at now: SimInstant, processRunning: Bool, path: NetworkPath, network: NetworkParameters,
                       dataBudgetWeight: Double = 0, transferDataBudgetWeight: Double = 0, inForeground: Bool = false, charging: Bool = false,
                       discretionaryRequiresPower: Bool = true, backgroundStartDelay: SimDuration = .zero) -> Bool {
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
            let share = sendersInRun == 1 ? 1 : 1 / Double(sendersInRun)
            uploadRate = throughput.uplinkMbps * 125_000 * share
            downloadRate = throughput.downlinkMbps * 125_000 * share
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
        transfers.delayProgress(until: instant)
        guard let since = activeSince, instant > since else { return }
        activeSince = instant
    }

    /// Completes the items finished by `now` at the rates in force, failing those whose deadline
    /// passes before work on them starts; and the handed-off transfers finished by then.
    func settle(at now: SimInstant) {
        if transfers.isProgressing { dataBudgetBytes += transfers.settle(at: now, end: { endTransfer($0, $1) }) }
        settleExecutor(at: now)
    }

    private func settleExecutor(at now: SimInstant) {
        guard let since = activeSince, now > since else { return }
        materialize(upTo: now)
        if cadence != nil {
            // The histograms are updated in place: a local copy of one would copy its buckets.
            let uploads = cadence!.uploads
            let bytesPerItem = cadence!.template.totalUploadBytes + cadence!.template.totalDownloadBytes
            let result = cadence!.work(from: since, to: now, uploadRate: uploadRate, downloadRate: downloadRate,
                                       limit: remainingInRun, completed: { at, seconds in
                metrics.latency.record(seconds)
                metrics.completedBytes += bytesPerItem
                if uploads { metrics.uploadTraffic.record(at: at, isCover: false) }
            }, failed: { censor(created: $0) })
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
            let used = items[head].work(for: cursor.duration(to: now).seconds, uploadRate: uploadRate, downloadRate: downloadRate)
            dataBudgetBytes += (before - items[head].uploadBytes - items[head].downloadBytes) * dataBudgetWeight * Double(sendersInRun)
            cursor = Swift.min(now, cursor + .seconds(used))
            if handOffSession != nil && items[head].cpuSeconds == 0 && !items[head].isDone {
                handOffHead(at: cursor)
                continue
            }
            guard items[head].isDone else { break }
            end(items[head], .completed(latencySeconds: items[head].created.duration(to: cursor).seconds, at: cursor))
            // Every sender's copy went on the wire; the other senders dequeue the items behind.
            if sendersInRun > 1 && items[head].totalUploadBytes > 0 {
                for _ in 1..<sendersInRun { metrics.uploadTraffic.record(at: cursor, isCover: items[head].isCover) }
            }
            head += 1
            var dequeuedUnsent = sendersInRun - 1
            while dequeuedUnsent > 0, head < items.count, items[head].created <= cursor {
                end(items[head], .givenUp)
                head += 1
                dequeuedUnsent -= 1
            }
            if let remaining = remainingInRun {
                remainingInRun = remaining - 1
                if remaining - 1 == 0 { break }
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
        var count = 0
        let limit = Swift.min(64, remainingInRun ?? .max)
        while index < items.count && count < limit {
            seconds += items[index].remainingSeconds(uploadRate: uploadRate, downloadRate: downloadRate)
            index += sendersInRun
            count += 1
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
        sendersInRun = 1
        handOffSession = nil
        onQueueEmpty = nil
        onLimitReached = nil
    }

    /// A force-quit cancels every background session's transfers [A]: they return to the queue,
    /// progress lost (the app still has the work). Returns how many each session lost.
    func cancelTransfers(at now: SimInstant) -> [(session: String, count: Int)] {
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

    /// Counts queued items whose deadline has passed by `end` as failed (for the report).
    func finish(at end: SimInstant) -> WorkMetrics {
        settle(at: end)
        materialize(upTo: end)
        var result = metrics
        if let cadence {
            let counts = cadence.expiredAndLive(at: end)
            result.failedDeadline += counts.expired
            result.backlogAtEnd = counts.live
            cadence.forEachQueued { Self.censor(created: $0, runEnd: end, in: &result.censoredLatency) }
            return result
        }
        let inFlight = transfers.expiredAndLive(at: end)
        result.failedDeadline += inFlight.expired
        result.backlogAtEnd += inFlight.live
        result.coverUnsent += transfers.transfers.count { $0.item.isCover }
        for transfer in transfers.transfers where !transfer.item.isCover {
            Self.censor(created: transfer.item.created, runEnd: end, in: &result.censoredLatency)
        }
        for item in items[head...] {
            switch (item.isCover, item.deadline <= end) {
            case (true, _): result.coverUnsent += 1
            case (false, true): result.failedDeadline += 1
            case (false, false): result.backlogAtEnd += 1
            }
            if !item.isCover { Self.censor(created: item.created, runEnd: end, in: &result.censoredLatency) }
        }
        return result
    }

    /// Counts an item that never completed, created at `created`, as a censored latency
    /// (``WorkMetrics/censoredLatency``): from its creation to the run's end.
    private func censor(created: SimInstant) {
        Self.censor(created: created, runEnd: runEnd, in: &metrics.censoredLatency)
    }

    private static func censor(created: SimInstant, runEnd: SimInstant, in histogram: inout LogHistogram) {
        histogram.record(Swift.max(0, created.duration(to: runEnd).seconds))
    }
}
