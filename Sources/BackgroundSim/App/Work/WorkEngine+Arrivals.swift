import SimKernel

/// The items the workload makes (app sessions, a cadence) and the ones the policy makes.
extension WorkEngine {
    /// Creates the items of an app session that opened (or, with `closing`, closed) at `now`
    /// (`appSessions` arrivals, at the workload's ``WorkParameters/appSessionMoment``).
    func appSession(at now: SimInstant, day: Int, closing: Bool) {
        defer { checkInvariantsIfEnabled() }
        guard parameters.arrivals == .appSessions, closing == (parameters.appSessionMoment == .close) else { return }
        if day != itemStreamDay {
            itemStreamDay = day
            itemStream = RandomStream(seed: seed, label: Self.itemLabel, index: UInt64(bitPattern: Int64(day)))
        }
        let count = PoissonDistribution(mean: parameters.itemsPerAppSession).sample(using: &itemStream)
        for _ in 0..<count { append(created: now, stream: &itemStream) }
    }

    /// Adds the cadence items created up to `now`.
    func materialize(upTo now: SimInstant) {
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
        defer { checkInvariantsIfEnabled() }
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
}
