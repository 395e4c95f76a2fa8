import SimKernel

/// Proton Drive's Photos backup as shipped (ProtonDriveApps/ios-drive at `97efc13`): a module
/// of its own, with its own processing task, apart from the uploads the user starts
/// (``ProtonUploadShipped``), and with the availability states of the app's
/// "Computational Availability" design:
///
/// - **Entering the background**: a running backup with photos waiting carries on under a
///   `beginBackgroundTask` extension until they are up or it expires (otherwise it stops), and
///   the module submits its processing request: no earliest begin date if photos are waiting,
///   otherwise one day ahead; network required, power not. The reminder is submitted too (see
///   ``ProtonPhotosBackupParameters/remindsOfNewPhotos``): an app refresh 2 days ahead, then 4,
///   8, … while the process lives.
/// - **The task**: the backup runs until nothing is left (complete with true) or the task
///   expires (stop, complete with false); either way the request is submitted again, by the same
///   rule. The task completes only after an upload, so with nothing to upload — or off Wi-Fi,
///   as the backup is Wi-Fi only by default — it runs until it expires (false).
/// - With an app lock that has an auto-lock timeout, nothing is submitted.
/// - **The foreground** (a launch or a return): the module cancels its request and the
///   reminder (resetting the reminder's 2, 4, 8… days), completes a running task with true,
///   ends the extension, and the backup continues in the foreground.
/// - **The reminder's task**: completes at once with true (the app's notification is not
///   modelled) and submits the next reminder.
///
/// The workload is the photos waiting to be backed up (for example a cadence of photos taken).
package final class ProtonPhotosBackup: BackgroundPolicy {
    package let parameters: ProtonPhotosBackupParameters
    private var task: BackgroundTask?
    /// The extension the backup runs under after the user leaves, if any.
    private var leavingExtension: BackgroundTaskIdentifier?
    /// The reminder's exponent: its next request is 2^this days ahead (in memory, per process).
    private var reminderIteration = 1

    package init(parameters: ProtonPhotosBackupParameters) {
        self.parameters = parameters
    }

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: parameters.identifier) { [unowned self] task in
            run(task, app)
        }
        if parameters.remindsOfNewPhotos {
            app.taskScheduler.register(forTaskWithIdentifier: parameters.reminderIdentifier) { [unowned self] task in
                task.setTaskCompleted(success: true)
                submitReminder(app)
            }
        }
        if reason == .user { enterForeground(app) }
    }

    package func didEnterBackground(_ app: AppContext) {
        if parameters.uploadsWhenLeaving && app.work.isRunning && app.work.hasPendingWork {
            let finish = { [unowned self] in
                app.work.stop()
                endExtension(app)
            }
            leavingExtension = app.beginBackgroundTask(withName: "photos backup", expirationHandler: finish)
            app.work.onQueueEmpty = finish
        } else {
            app.work.stop()
        }
        submit(app)
        if parameters.remindsOfNewPhotos { submitReminder(app) }
    }

    package func willEnterForeground(_ app: AppContext) {
        enterForeground(app)
    }

    private func enterForeground(_ app: AppContext) {
        app.taskScheduler.cancel(taskRequestWithIdentifier: parameters.identifier)
        if parameters.remindsOfNewPhotos {
            app.taskScheduler.cancel(taskRequestWithIdentifier: parameters.reminderIdentifier)
            reminderIteration = 1
        }
        complete(success: true, app, resubmit: false)
        endExtension(app)
        app.work.onQueueEmpty = nil
        if mayUpload(app) { app.work.start() }
    }

    /// Whether the backup may upload on the current network.
    private func mayUpload(_ app: AppContext) -> Bool {
        !parameters.wifiOnly || app.networkPath.interface == .wifi
    }

    private func run(_ task: BackgroundTask, _ app: AppContext) {
        self.task = task
        task.expirationHandler = { [unowned self] in
            app.work.stop()
            complete(success: false, app, resubmit: true)
        }
        // Nothing to upload, or not allowed to: no upload event, so the task runs until it expires.
        guard app.work.hasPendingWork, mayUpload(app) else { return }
        app.work.onQueueEmpty = { [unowned self] in
            app.work.stop()
            complete(success: true, app, resubmit: true)
        }
        app.work.start()
    }

    /// Completes the running task, if any, and submits the next request if asked.
    private func complete(success: Bool, _ app: AppContext, resubmit: Bool) {
        guard let task else { return }
        self.task = nil
        task.setTaskCompleted(success: success)
        if resubmit { submit(app) }
    }

    /// Ends the leaving extension, if any.
    private func endExtension(_ app: AppContext) {
        guard let identifier = leavingExtension else { return }
        leavingExtension = nil
        app.endBackgroundTask(identifier)
    }

    /// Submits the reminder 2^iteration days ahead, then doubles the next one's delay.
    private func submitReminder(_ app: AppContext) {
        var request = TaskRequest.appRefresh(identifier: parameters.reminderIdentifier)
        let days = Double(1 << Swift.min(reminderIteration, 20))
        request.earliestBeginDate = app.date + .hours(24 * days)
        do {
            try app.taskScheduler.submit(request)
            reminderIteration += 1
        } catch {}
    }

    /// Submits the module's request: at once when photos are waiting, else a day ahead.
    private func submit(_ app: AppContext) {
        guard !parameters.appLockWithTimeout else { return }
        var request = TaskRequest.processing(identifier: parameters.identifier,
                                             requiresExternalPower: parameters.requiresExternalPower,
                                             requiresNetworkConnectivity: parameters.requiresNetworkConnectivity)
        request.earliestBeginDate = app.work.hasPendingWork ? nil : app.date + SimDuration.hours(parameters.idleDelayHours)
        try? app.taskScheduler.submit(request)
    }
}
