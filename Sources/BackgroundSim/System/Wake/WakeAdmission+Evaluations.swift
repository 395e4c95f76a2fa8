import SimKernel

// When the system next looks at the pending task requests: the launch model's next possible
// launch over all of them, or the end of throttling, and which requests it passes over, and why.
extension WakeAdmission {
    /// A pending request whose next evaluation is later than the next one the system would
    /// otherwise make, and why: the evaluations in between are not made (and not logged).
    struct Deferral {
        var identifier: String
        var kind: TaskRequest.Kind
        /// When the request is next evaluated; `nil` until something changes (the app is used).
        var next: SimInstant?
        var reason: LaunchDenial
    }

    /// The evaluation event fired.
    mutating func evaluationFired() {
        evaluation.fired()
    }

    /// Schedules the next evaluation: the first moment, over all pending requests, at which the
    /// model might launch one (never before its earliest begin date), or the end of throttling,
    /// whichever is first.
    ///
    /// - Returns: The requests whose next evaluation moved later than the system's next look,
    ///   with why (not yet due, or the model's reason to skip), each reported once.
    mutating func scheduleNext(for pending: PendingRequests, in simulation: inout Simulation<WorldEvent>) -> [Deferral] {
        let now = simulation.now
        // An evaluation due at this very instant has not fired yet (it runs after the event being
        // handled); keep it rather than moving it to the model's next look.
        if evaluation.time == now && !pending.isEmpty { return [] }
        var next: SimInstant?
        var deferrals: [Deferral] = []
        if reportedDeferrals.count > pending.entries.count { reportedDeferrals.removeAll() }
        for entry in pending.entries {
            let look = model.nextEvaluation(for: entry.request.kind, after: now, notBefore: entry.earliest)
            if let look { next = Swift.min(next ?? look, look) }
            let identifier = entry.request.identifier
            let reported = reportedDeferrals.firstIndex { $0.identifier == identifier }
            guard reported.map({ reportedDeferrals[$0].next != look }) ?? true else { continue }
            // The model's reason to pass over the evaluations from the earliest begin date on;
            // otherwise, if the request is not yet due, that.
            let from = entry.earliest > now ? entry.earliest - .nanoseconds(1) : now
            guard let reason = model.skipReason(for: entry.request.kind, after: from) ?? (entry.earliest > now ? .notDue : nil) else { continue }
            deferrals.append(Deferral(identifier: identifier, kind: entry.request.kind, next: look, reason: reason))
            if let reported { reportedDeferrals[reported].next = look } else { reportedDeferrals.append((identifier, look)) }
        }
        if !pending.isEmpty, let throttledUntil, throttledUntil > now { next = Swift.min(next ?? throttledUntil, throttledUntil) }
        evaluation.set(.launchEvaluation, at: next, priority: .late, in: &simulation)
        checkInvariantsIfEnabled(pending: pending, now: now)
        return deferrals
    }
}
