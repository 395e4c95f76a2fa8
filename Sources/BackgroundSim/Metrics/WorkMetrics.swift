/// Counters of the app's work.
public struct WorkMetrics: Sendable, Equatable {
    public var created = 0
    public var completed = 0
    public var failedDeadline = 0
    public var failedQueueFull = 0
    /// Non-resumable items in progress when the system killed the app.
    public var failedKilled = 0
    /// Items the policy gave up on.
    public var failedGivenUp = 0
    public var backlogAtEnd = 0
    /// Cover-traffic items (``WorkRequest/isCover``) sent, and those that never were (dropped
    /// on a full queue, past a deadline, killed, given up, or still queued at the end). Neither
    /// counts in the fields above.
    public var coverSent = 0
    public var coverUnsent = 0
    /// Of ``completed``, the items a background URL session's transfer completed (the system's
    /// daemon, whatever the app's state).
    public var completedBySession = 0
    /// Uploads day by day, and how much of them is real work.
    package var uploadTraffic = UploadTraffic()
    /// Bytes the completed items carried, uploads and downloads (cover traffic left out): the
    /// work delivered, for energy per byte.
    public var completedBytes = 0.0
    /// Seconds from creation to completion of each completed item.
    public var latency = LogHistogram()
    /// Each item that never completed — failed (its deadline, a full queue, a kill, the policy
    /// giving up) or still queued at the run's end — as a censored latency: seconds from its
    /// creation to the run's end (it was not delivered by then). Not to its deadline: a policy
    /// that set short deadlines would then shorten its latency by failing work. One value per
    /// item of ``failed`` and ``backlogAtEnd``; cover traffic is left out, as from ``latency``.
    public var censoredLatency = LogHistogram()

    /// The latency over every item: ``latency`` and ``censoredLatency`` together. A policy
    /// cannot shorten it by dropping work, as it can the completed items' latency.
    public var latencyOverAllItems: LogHistogram {
        var all = latency
        all.merge(censoredLatency)
        return all
    }

    public var failed: Int { failedDeadline + failedQueueFull + failedKilled + failedGivenUp }
}
