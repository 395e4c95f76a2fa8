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
    var items: [WorkItem] = []
    var head = 0
    /// Cadence items, kept as a run of indices (`nil` unless arrivals are `cadence`).
    var cadence: CadenceBacklog?
    var itemStream = RandomStream(seed: 0)
    var itemStreamDay = Int.min
    /// When the simulation ends (``SimulationRunner`` sets it before running): an item that
    /// never completes counts in ``WorkMetrics/censoredLatency`` from its creation to it.
    var runEnd = SimInstant.distantFuture

    // MARK: The run (per process)

    /// The policy has started the executor.
    package internal(set) var isStarted = false
    /// Items the run may still complete; `nil` for no limit.
    var remainingInRun: Int?
    /// The app's jobs working the queue at once in this run (``start(limit:senders:)``); 1
    /// unless a policy models its own jobs overlapping.
    var sendersInRun = 1
    /// How many times the item in hand goes on the wire: every overlapping job's copy of the
    /// run's first item, then 1.
    var copiesOfHead = 1
    /// Items the overlapping jobs' last dequeues remove unsent when the run reaches its limit.
    var unsentAtRunEnd = 0
    /// When effective progress began, at the rates captured then; `nil` while not progressing.
    var activeSince: SimInstant?
    var uploadRate = 0.0
    var downloadRate = 0.0
    /// How much each byte the executor transfers now counts against the app's data budget: 0
    /// unless on cellular while not in the foreground (captured with the rates).
    var dataBudgetWeight = 0.0
    /// Bytes counted against the data budget so far (weighted).
    var dataBudgetBytes = 0.0
    /// Set once a run's end (queue empty, limit reached) has been reported; a new run clears it.
    var runEndReported = false
    /// The background session the executor hands items' transfers to, if it is in that mode.
    var handOffSession: UInt8?
    /// Whether the app was not in the foreground at the last conditions (its transfers are then
    /// discretionary [A]).
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var inBackground = false
    /// How long a transfer handed off while not in the foreground waits before it may start (the
    /// resume rate limiter's delay at the last conditions).
    var backgroundStartDelay = SimDuration.zero
    /// The transfers handed to background URL sessions (the system's daemon carries them).
    #if !SIMKERNEL_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    var transfers = SessionTransfers()
    /// Called when the queue runs empty during a run, and when the run's limit is reached.
    var onQueueEmpty: (() -> Void)?
    var onLimitReached: (() -> Void)?

    // MARK: Metrics

    /// What the work has done so far (as of the last settle).
    package internal(set) var metrics = WorkMetrics()
    /// The labels policies gave their items; an item's label is its index here plus one.
    var labels: [String] = []
    /// Each label's items, queued, completed and failed (as of the last settle).
    var progressByLabel: [WorkProgress] = []

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
    var queuedCount: Int { items.count - head + (cadence?.count ?? 0) }

    /// The item being worked on, or next to be.
    var headItem: WorkItem? {
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

    // MARK: The app's own background-session transfers

    /// The app's own transfers that ended since the system last passed them on, in order.
    var endedAppTransfers: [(transfer: UInt32, outcome: AppTransferOutcome)] = []
    /// The number of the app's latest transfer.
    var lastAppTransfer: UInt32 = 0
    /// Hears the app's own transfers as they end (set by SimulatedBackgroundTasks, for the
    /// whole run: the transfers outlive the process that made them).
    var onAppTransfersEnded: (([(transfer: UInt32, outcome: AppTransferOutcome)]) -> Void)?

    /// Transfers handed off since the system last asked (``takeHandedOff()``), the wait the
    /// last of them was given, and its session.
    var handedOff = 0
    var lastHandOffDelay = SimDuration.zero
    var handedOffSession: UInt8?

    /// Reclaims finished slots once they are most of the array, so the queue stays O(queued).
    func compactQueue() {
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

    /// Counts an item that never completed, created at `created`, as a censored latency
    /// (``WorkMetrics/censoredLatency``): from its creation to the run's end.
    func censor(created: SimInstant) {
        Self.censor(created: created, runEnd: runEnd, in: &metrics.censoredLatency)
    }

    static func censor(created: SimInstant, runEnd: SimInstant, in histogram: inout LogHistogram) {
        histogram.record(Swift.max(0, created.duration(to: runEnd).seconds))
    }
}
