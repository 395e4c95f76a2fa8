import SimKernel

extension WakeAdmission {
    /// Runs ``checkInvariants(pending:now:)`` when the package is built with
    /// `SIMKERNEL_INTERNAL_CHECKS`.
    @inline(__always)
    func checkInvariantsIfEnabled(pending: PendingRequests, now: SimInstant) {
        #if SIMKERNEL_INTERNAL_CHECKS
        checkInvariants(pending: pending, now: now)
        #endif
    }

    /// Traps unless, after scheduling, an evaluation is pending exactly when requests are, and a
    /// throttled app is looked at again no later than the throttle's end.
    func checkInvariants(pending: PendingRequests, now: SimInstant) {
        if pending.isEmpty {
            precondition(evaluation.time == nil, "WakeAdmission: an evaluation with nothing pending")
        }
        if !pending.isEmpty, let throttledUntil, throttledUntil > now {
            precondition(evaluation.time.map { $0 <= throttledUntil } == true, "WakeAdmission: no evaluation by the throttle's end")
        }
    }
}
