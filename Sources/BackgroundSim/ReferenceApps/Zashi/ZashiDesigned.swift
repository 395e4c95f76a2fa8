import SimKernel

/// Zashi's wallet sync as its design document describes it (Electric-Coin-Company/zashi-ios,
/// `BACKGROUND_SYNCING.md`): a processing task that requires power and network,
/// rescheduled first thing in its handler; a Wi-Fi check before the synchronizer starts; the
/// expiration handler stops the synchronizer; `setTaskCompleted(success: true)` only when fully
/// synced. Blocks accumulate while the phone is away (the workload's cadence); the synchronizer
/// also runs while the app is in the foreground.
package final class ZashiDesigned: BackgroundPolicy {
    package let parameters: ZashiDesignedParameters

    package init(parameters: ZashiDesignedParameters) {
        self.parameters = parameters
    }

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: parameters.identifier) { [unowned self] task in
            self.scheduleTask(app)                                   // 6
            guard !self.parameters.requiresWifi || app.networkPath.interface == .wifi else {
                task.setTaskCompleted(success: false)                // not on Wi-Fi: no sync
                return
            }
            app.work.onQueueEmpty = {                                // 11: fully synced
                app.work.stop()
                task.setTaskCompleted(success: true)
            }
            task.expirationHandler = {                               // 8
                app.work.stop()
                task.setTaskCompleted(success: false)
            }
            app.work.start()                                         // 7
        }
        if reason == .user { app.work.start() }
    }

    package func didEnterBackground(_ app: AppContext) {
        app.work.stop()
        scheduleTask(app)                                            // 10
    }

    package func willEnterForeground(_ app: AppContext) {
        app.work.onQueueEmpty = nil
        app.work.start()
    }

    func scheduleTask(_ app: AppContext) {
        var request = TaskRequest.processing(identifier: parameters.identifier,
                                             requiresExternalPower: parameters.requiresExternalPower,
                                             requiresNetworkConnectivity: parameters.requiresNetworkConnectivity)
        request.earliestBeginDate = app.date + .minutes(parameters.scheduleDelayMinutes)
        try? app.taskScheduler.submit(request)
    }
}
