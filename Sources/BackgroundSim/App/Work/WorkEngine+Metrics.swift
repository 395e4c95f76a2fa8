import SimKernel

/// How items leave the queue, counted in the report's metrics and each label's progress.
extension WorkEngine {
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

    /// Moves a labelled item from queued to completed or failed.
    private func count(_ label: UInt16, failed: Bool) {
        guard label > 0 else { return }
        let index = Int(label) - 1
        progressByLabel[index].queued -= 1
        if failed { progressByLabel[index].failed += 1 } else { progressByLabel[index].completed += 1 }
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
}
