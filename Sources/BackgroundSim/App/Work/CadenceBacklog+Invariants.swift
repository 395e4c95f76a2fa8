extension CadenceBacklog: InternallyChecked {
    /// Traps unless the run of indices is a queue: items arrive one interval apart from the
    /// first (index 1), the head is not past the next arrival, no more are queued than the
    /// capacity, a partly done item is the head's and not yet done, and the template has work
    /// in it that is finite and not negative.
    func checkInvariants() {
        precondition(interval > .zero, "CadenceBacklog: items \(interval) apart")
        precondition(head >= 1 && head <= next, "CadenceBacklog: head \(head), next \(next)")
        precondition(capacity >= 0 && count <= capacity, "CadenceBacklog: \(count) items queued of a capacity of \(capacity)")
        precondition(deadlineHours >= 0 && deadlineHours.isFinite, "CadenceBacklog: items live \(deadlineHours) h")
        if let partial {
            precondition(head < next, "CadenceBacklog: a partly done item with nothing queued")
            precondition(!partial.isDone, "CadenceBacklog: a partly done item with no work left")
        }
        precondition(template.cpuSeconds >= 0 && template.uploadBytes >= 0 && template.downloadBytes >= 0,
                     "CadenceBacklog: negative work in every item")
        precondition(template.cpuSeconds.isFinite && template.uploadBytes.isFinite && template.downloadBytes.isFinite,
                     "CadenceBacklog: infinite work in every item")
    }
}
