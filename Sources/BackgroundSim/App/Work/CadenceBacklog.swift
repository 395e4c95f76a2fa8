import SimKernel

/// The queue of cadence items (one every `interval`, all alike), kept as a run of indices rather
/// than stored items: item k is created at k × interval; items `head ..< next` have arrived and
/// are unfinished; the head may be partly done.
///
/// A day of Zashi's blocks is 1,152 items; storing and settling each one as a struct would cost
/// more than the rest of the simulation, so completions are computed with arithmetic and only
/// each latency is recorded.
struct CadenceBacklog {
    let interval: SimDuration
    /// A fresh item's work (its `created` and `deadline` are not used).
    let template: WorkItem
    /// Whether the items upload (for the upload-traffic figures).
    var uploads: Bool { template.totalUploadBytes > 0 }
    /// Hours to live after creation; 0 for none.
    let deadlineHours: Double
    let capacity: Int

    /// The first unfinished item's index, and the next item to arrive.
    private(set) var head: Int64 = 1
    private(set) var next: Int64 = 1
    /// The head item's remaining work, if it has been started.
    private(set) var partial: WorkItem?

    init(parameters: WorkParameters, template: WorkItem) {
        defer { checkInvariantsIfEnabled() }
        interval = .seconds(parameters.cadenceSeconds)
        self.template = template
        deadlineHours = parameters.deadlineHours
        capacity = parameters.maximumQueuedItems
    }

    func created(_ index: Int64) -> SimInstant {
        precondition(index >= 1, "CadenceBacklog: item \(index); the first is item 1")
        return SimInstant(nanosecondsSinceStart: index * interval.nanoseconds)
    }

    var count: Int { Int(next - head) }

    /// Items that arrived up to `now`, dropping the oldest beyond the capacity; `dropped` hears
    /// each dropped item's creation.
    /// - Returns: (arrived, dropped).
    mutating func arrive(upTo now: SimInstant, dropped: (_ created: SimInstant) -> Void) -> (arrived: Int, dropped: Int) {
        defer { checkInvariantsIfEnabled() }
        let last = now.nanosecondsSinceStart / interval.nanoseconds
        guard last >= next else { return (0, 0) }
        let arrived = Int(last - next + 1)
        next = last + 1
        let excess = count - capacity
        guard excess > 0 else { return (arrived, 0) }
        for index in head..<(head + Int64(excess)) { dropped(created(index)) }
        head += Int64(excess)
        partial = nil
        return (arrived, excess)
    }

    /// The item at the head, with its remaining work.
    var headItem: WorkItem? {
        guard head < next else { return nil }
        var item = partial ?? template
        item.created = created(head)
        item.deadline = deadline(created: item.created)
        return item
    }

    /// Works from `cursor` to `now`, completing items and failing those whose deadline passed
    /// before work on them started, and records both in `metrics`: each completion's latency,
    /// bytes and (for uploads) upload, each failure's censored latency to `runEnd`
    /// (``WorkEngine/censor(created:runEnd:in:)``); not the counts, which it returns.
    ///
    /// The metrics come in as one `inout` argument rather than through closures the caller
    /// fills: a closure that updated the engine's metrics, a class's stored property, paid for a
    /// dynamic exclusivity check at each item (a fifth of all the work zashi-designed did).
    ///
    /// - Returns: the items completed and failed, and the bytes they moved.
    mutating func work(from cursor: SimInstant, to now: SimInstant, uploadRate: Double, downloadRate: Double,
                       limit: Int?, runEnd: SimInstant, into metrics: inout WorkMetrics) -> (completed: Int, failed: Int, bytes: Double) {
        precondition(cursor <= now, "CadenceBacklog: work from \(cursor) back to \(now)")
        precondition(uploadRate >= 0 && downloadRate >= 0 && uploadRate.isFinite && downloadRate.isFinite, "CadenceBacklog: work at \(uploadRate) B/s up, \(downloadRate) B/s down")
        precondition(limit.map { $0 >= 0 } ?? true, "CadenceBacklog: a negative limit")
        defer { checkInvariantsIfEnabled() }
        var cursor = cursor
        var done = 0
        var failed = 0
        var bytes = 0.0
        let uploads = self.uploads
        let bytesPerItem = template.totalUploadBytes + template.totalDownloadBytes
        func complete(at time: SimInstant, created: SimInstant) {
            metrics.latency.record(created.duration(to: time).seconds)
            metrics.completedBytes += bytesPerItem
            if uploads { metrics.uploadTraffic.record(at: time, isCover: false) }
            done += 1
            head += 1
        }
        let fresh = template.remainingSeconds(uploadRate: uploadRate, downloadRate: downloadRate)
        while cursor < now, head < next, done < (limit ?? .max) {
            let createdAt = created(head)
            if createdAt > cursor {
                cursor = createdAt
                if cursor >= now { break }
            }
            if deadlineHours > 0 && createdAt + .hours(deadlineHours) <= cursor {
                WorkEngine.censor(created: createdAt, runEnd: runEnd, in: &metrics.censoredLatency)
                failed += 1
                head += 1
                partial = nil
                continue
            }
            // A fresh item that fits in the time left completes by arithmetic.
            let available = cursor.duration(to: now).seconds
            if partial == nil && fresh <= available {
                cursor = Swift.min(now, cursor + .seconds(fresh))
                bytes += bytesPerItem
                complete(at: cursor, created: createdAt)
                continue
            }
            var item = partial ?? template
            let before = item.uploadBytes + item.downloadBytes
            let used = item.work(for: available, uploadRate: uploadRate, downloadRate: downloadRate)
            bytes += before - item.uploadBytes - item.downloadBytes
            cursor = Swift.min(now, cursor + .seconds(used))
            if item.isDone {
                complete(at: cursor, created: createdAt)
                partial = nil
            } else {
                partial = item
                break
            }
        }
        return (done, failed, bytes)
    }

    /// Seconds of work for the items in hand, at most `limit` of them.
    func remainingSeconds(uploadRate: Double, downloadRate: Double, limit: Int) -> Double {
        guard let first = headItem else { return 0 }
        let rest = min(Int64(limit), next - head) - 1
        return first.remainingSeconds(uploadRate: uploadRate, downloadRate: downloadRate)
            + Double(Swift.max(0, rest)) * template.remainingSeconds(uploadRate: uploadRate, downloadRate: downloadRate)
    }

    /// Loses the head item's progress.
    mutating func restartHead() {
        defer { checkInvariantsIfEnabled() }
        partial = nil
    }

    /// Drops the head item (it failed); returns its creation.
    @discardableResult
    mutating func dropHead() -> SimInstant? {
        guard head < next else { return nil }
        defer {
            head += 1
            partial = nil
            checkInvariantsIfEnabled()
        }
        return created(head)
    }

    /// Drops every queued item; `dropped` hears each one's creation.
    mutating func dropAll(_ dropped: (_ created: SimInstant) -> Void) {
        defer { checkInvariantsIfEnabled() }
        for index in head..<next { dropped(created(index)) }
        head = next
        partial = nil
    }

    /// The deadline of an item created at `created`.
    func deadline(created: SimInstant) -> SimInstant { deadlineHours > 0 ? created + .hours(deadlineHours) : .distantFuture }

    /// Each queued item's creation, oldest first.
    func forEachQueued(_ body: (_ created: SimInstant) -> Void) {
        for index in head..<next { body(created(index)) }
    }

    /// Items queued at `end` whose deadline has passed, and those still within it.
    func expiredAndLive(at end: SimInstant) -> (expired: Int, live: Int) {
        guard deadlineHours > 0, head < next else { return (0, count) }
        // Items created at or before `end − deadline` have expired.
        let cutoff = (end - .hours(deadlineHours)).nanosecondsSinceStart
        let lastExpired = cutoff >= 0 ? cutoff / interval.nanoseconds : -1
        let expired = Int(Swift.max(0, Swift.min(next - 1, lastExpired) - head + 1))
        assert(expired <= count, "CadenceBacklog: \(expired) of \(count) items expired")
        return (expired, count - expired)
    }
}
