extension WorkEngine: InternallyChecked {
    /// Traps unless the queue's bookkeeping holds: the head within the queue, a cadence owning
    /// the queue alone; every item created is completed, failed or still queued (in the queue,
    /// the cadence's backlog or a background session); each label's queued count is its items';
    /// the run's limit, senders, rates and data counted in range; the hand-off session known.
    func checkInvariants() {
        precondition(head >= 0 && head <= items.count, "WorkEngine: head \(head) outside the queue of \(items.count)")
        precondition(cadence == nil || items.isEmpty, "WorkEngine: items queued beside a cadence, which owns the queue")
        let queued = items[head...].count { !$0.isCover } + (cadence?.count ?? 0) + transfers.transfers.count { !$0.item.isCover }
        let ended = metrics.completed + metrics.failedDeadline + metrics.failedQueueFull + metrics.failedKilled + metrics.failedGivenUp
        precondition(metrics.created == ended + queued,
                     "WorkEngine: \(metrics.created) items created, \(ended) ended and \(queued) queued")
        precondition(labels.count == progressByLabel.count && labels.count <= WorkRequest.maximumLabels,
                     "WorkEngine: \(labels.count) labels, \(progressByLabel.count) progress counts")
        for (index, progress) in progressByLabel.enumerated() {
            let label = UInt16(index + 1)
            let queued = items[head...].count { $0.label == label } + transfers.transfers.count { $0.item.label == label }
            precondition(progress.queued == queued, "WorkEngine: label \(labels[index]) counts \(progress.queued) queued, has \(queued)")
        }
        precondition(remainingInRun.map { $0 >= 0 } ?? true, "WorkEngine: a negative number of items left in the run")
        precondition(sendersInRun >= 1, "WorkEngine: \(sendersInRun) senders")
        precondition((1...sendersInRun).contains(copiesOfHead) && (0..<sendersInRun).contains(unsentAtRunEnd),
                     "WorkEngine: \(copiesOfHead) copies of the head and \(unsentAtRunEnd) to drop with \(sendersInRun) senders")
        precondition(uploadRate >= 0 && downloadRate >= 0 && dataBudgetWeight >= 0, "WorkEngine: a negative rate or weight")
        precondition(dataBudgetBytes >= 0 && dataBudgetBytes.isFinite, "WorkEngine: \(dataBudgetBytes) bytes counted against the data budget")
        precondition(handOffSession.map { Int($0) < transfers.sessions.count } ?? true, "WorkEngine: hands off to an unknown session")
    }
}
