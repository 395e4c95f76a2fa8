extension SystemMetrics: InternallyChecked {
    /// Traps unless the figures agree with one another as the log they count implies: the
    /// launches by hour are the refresh and processing launches; what the launches on the
    /// charger, the cold launches, the session relaunches, the push outcomes, the kills, the
    /// expirations, the completions and the cancellations count is a part of what they come
    /// from; and the time accounts are not negative and reach no further than the last account.
    func checkInvariants() {
        let byHour = launchHourHistogram.reduce(0, +)
        precondition(byHour == launches, "SystemMetrics: \(byHour) launches by hour, \(launches) refresh and processing launches")
        precondition(launchesWhileCharging <= byHour, "SystemMetrics: \(launchesWhileCharging) launches on the charger of \(byHour)")
        precondition(backgroundProcessLaunches <= backgroundWakes, "SystemMetrics: \(backgroundProcessLaunches) cold launches of \(backgroundWakes) wakes")
        precondition(sessionRelaunches <= backgroundWakes, "SystemMetrics: \(sessionRelaunches) session relaunches of \(backgroundWakes) wakes")
        precondition(sessionCompletionHandlersNotCalled <= sessionRelaunches,
                     "SystemMetrics: \(sessionCompletionHandlersNotCalled) session handlers missed of \(sessionRelaunches) relaunches")
        precondition(sessionTransfersCancelled <= sessionTransfersCreated,
                     "SystemMetrics: \(sessionTransfersCancelled) session transfers cancelled of \(sessionTransfersCreated)")
        let pushesEnded = pushesDelivered + pushesCoalesced + pushesDiscarded
        precondition(pushesEnded <= pushesSent, "SystemMetrics: \(pushesEnded) pushes delivered, coalesced or discarded of \(pushesSent) sent")
        precondition(pushKills <= pushesDelivered, "SystemMetrics: \(pushKills) push kills of \(pushesDelivered) deliveries")
        precondition(assertionExpirations <= assertionsBegun, "SystemMetrics: \(assertionExpirations) assertion expirations of \(assertionsBegun) begun")
        let tasks = tasksLaunched.total
        precondition(expirations <= tasks, "SystemMetrics: \(expirations) task expirations of \(tasks) tasks launched")
        let completed = tasksCompletedSuccessfully + tasksCompletedUnsuccessfully
        precondition(completed <= tasks, "SystemMetrics: \(completed) tasks completed of \(tasks) launched")
        precondition(foregroundNanoseconds >= 0 && backgroundNanoseconds >= 0, "SystemMetrics: a negative time account")
        precondition(foregroundNanoseconds + backgroundNanoseconds <= accountedUntil.nanosecondsSinceStart,
                     "SystemMetrics: \(foregroundNanoseconds + backgroundNanoseconds) ns accounted by \(accountedUntil)")
    }
}
