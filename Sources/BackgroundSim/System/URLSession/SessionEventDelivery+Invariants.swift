extension SessionEventDelivery: InternallyChecked {
    /// Traps unless sessions wait at most once each and always with a launch scheduled for
    /// them (or, none sending launch events, for the app to run), handlers are owed only within
    /// a window, and the limiter's delay is the first delay doubled a whole number of times, or
    /// zero.
    func checkInvariants() {
        for (index, session) in waiting.enumerated() {
            precondition(!waiting[..<index].contains(session), "SessionEventDelivery: session \(session) waits twice")
        }
        precondition(waiting.isEmpty || relaunch.isScheduled || waitsForAppToRun,
                     "SessionEventDelivery: sessions wait with no launch scheduled")
        precondition(!waitsForAppToRun || (!waiting.isEmpty && !relaunch.isScheduled),
                     "SessionEventDelivery: waits for the app to run with nothing waiting, or a launch scheduled")
        precondition(outstanding.isEmpty || window != nil, "SessionEventDelivery: handlers owed with no window")
        var delay = parameters.resumeDelaySeconds
        while delay > 0, delay < delaySeconds { delay *= 2 }
        precondition(delaySeconds == 0 || delay == delaySeconds, "SessionEventDelivery: the limiter's delay \(delaySeconds) s is not a doubling of the first")
    }
}
