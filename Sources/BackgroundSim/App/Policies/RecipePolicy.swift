import SimKernel

/// The policy a recipe describes (``RecipeParameters``): the built-in `"recipe"` policy.
///
/// What it keeps across process launches (on the app's `defaults`): when the last successful
/// run began, on the device clock, and how many runs have failed in a row.
package final class RecipePolicy: BackgroundPolicy {
    static let lastSuccessKey = "recipe.lastSuccess"
    static let failuresKey = "recipe.failures"

    let recipe: RecipeParameters
    /// The extension held while leaving with work, if any.
    private var extensionID = BackgroundTaskIdentifier.invalid

    package init(parameters: RecipeParameters) {
        recipe = parameters
    }

    // MARK: The app's life

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: recipe.identifier) { [unowned self] task in
            self.run(task, app)
        }
        if recipe.submitOnLaunch { submit(app, extraMinutes: recipe.launchExtraMinutes) }
        if recipe.workInForeground && reason == .user { app.work.start() }
    }

    package func didEnterBackground(_ app: AppContext) {
        if recipe.extensionWhenLeaving && app.work.hasPendingWork {
            holdExtension(app)
        } else if recipe.workInForeground {
            app.work.stop()
        }
        if recipe.submitOnEnterBackground { submit(app) }
    }

    package func willEnterForeground(_ app: AppContext) {
        endExtension(app)
        if recipe.workInForeground {
            app.work.onQueueEmpty = nil
            app.work.start()
        }
        if recipe.submitOnForeground { submit(app) }
    }

    // MARK: A run

    func run(_ task: BackgroundTask, _ app: AppContext) {
        if recipe.submitInHandler { submit(app) }
        if recipe.minimumIntervalMinutes > 0, let last = app.defaults.instant(forKey: Self.lastSuccessKey),
           last.duration(to: app.date) < .minutes(recipe.minimumIntervalMinutes), last <= app.date {
            task.setTaskCompleted(success: false)      // too soon: skipped
            return
        }
        if recipe.requiresWifi && app.networkPath.interface != .wifi {
            finish(task, app, success: false)
            return
        }
        for _ in 0..<recipe.enqueuePerRun {
            try? app.work.enqueue(WorkRequest(uploadBytes: recipe.enqueueUploadBytes, downloadBytes: recipe.enqueueDownloadBytes,
                                              cpuSeconds: recipe.enqueueCPUSeconds))
        }
        guard app.work.hasPendingWork else {
            finish(task, app, success: true)           // nothing to do
            return
        }
        var finished = false
        let began = app.date
        let done = { [unowned self] in
            guard !finished else { return }
            finished = true
            app.work.stop()
            finish(task, app, success: true, began: began)
        }
        if recipe.itemsPerRun > 0 { app.work.onLimitReached = done }
        app.work.onQueueEmpty = done
        if recipe.setsExpirationHandler {
            task.expirationHandler = { [unowned self] in
                guard !finished else { return }
                finished = true
                app.work.stop()
                finish(task, app, success: recipe.completion == .always, began: began)
            }
        }
        app.work.start(limit: recipe.itemsPerRun > 0 ? recipe.itemsPerRun : nil)
    }

    /// Completes `task` and does what the recipe says after success or failure.
    private func finish(_ task: BackgroundTask, _ app: AppContext, success: Bool, began: SimInstant? = nil) {
        let reported = success || recipe.completion == .always
        if success {
            app.defaults.set(began ?? app.date, forKey: Self.lastSuccessKey)
            app.defaults.set(0, forKey: Self.failuresKey)
        } else {
            app.defaults.set(app.defaults.integer(forKey: Self.failuresKey) + 1, forKey: Self.failuresKey)
        }
        task.setTaskCompleted(success: reported)
        if success && recipe.submitAfterSuccess { submit(app) }
        if !success && recipe.submitAfterFailure { submit(app, retrying: true) }
    }

    // MARK: Requests

    /// Submits the recipe's request (replacing a pending one of the same identifier).
    func submit(_ app: AppContext, extraMinutes: Double = 0, retrying: Bool = false) {
        var request = recipe.kind == .refresh
            ? TaskRequest.appRefresh(identifier: recipe.identifier)
            : TaskRequest.processing(identifier: recipe.identifier, requiresExternalPower: recipe.requiresExternalPower,
                                     requiresNetworkConnectivity: recipe.requiresNetworkConnectivity)
        request.earliestBeginDate = earliestBegin(app, retrying: retrying) + .minutes(extraMinutes)
        try? app.taskScheduler.submit(request)
    }

    /// The earliest begin date the delay rule (or, after a failure, the retry rule) gives.
    func earliestBegin(_ app: AppContext, retrying: Bool) -> SimInstant {
        let now = app.date
        if retrying && recipe.retryRule != .none {
            let minutes: Double
            switch recipe.retryRule {
            case .doubling:
                let failures = Swift.max(1, app.defaults.integer(forKey: Self.failuresKey))
                minutes = Swift.min(recipe.retryMaximumMinutes, recipe.retryMinimumMinutes * PortableMath.pow(2, Double(Swift.min(failures - 1, 60))))
            default:
                minutes = recipe.retryMinimumMinutes + (recipe.retryMaximumMinutes - recipe.retryMinimumMinutes) * app.randomUnit()
            }
            return now + .minutes(minutes)
        }
        switch recipe.delayRule {
        case .fixed:
            return now + .minutes(recipe.delayMinutes)
        case .exponential:
            let draw = -recipe.delayMinutes * PortableMath.log(1 - app.randomUnit())
            return now + .minutes(Swift.min(recipe.maximumDelayMinutes, Swift.max(recipe.minimumDelayMinutes, draw)))
        case .nextWindow:
            let calendar = app.calendar
            let opens = calendar.midnight(ofDay: calendar.day(of: now) + 1) + recipe.windowTime.sinceMidnight
            return opens + .minutes(recipe.windowJitterMinutes * app.randomUnit())
        }
    }

    // MARK: The extension

    private func holdExtension(_ app: AppContext) {
        guard extensionID == .invalid else { return }
        extensionID = app.beginBackgroundTask(withName: "recipe") { [unowned self] in
            app.work.stop()
            endExtension(app)
        }
        app.work.onQueueEmpty = { [unowned self] in endExtension(app) }
        app.work.start()
    }

    private func endExtension(_ app: AppContext) {
        guard extensionID != .invalid else { return }
        let id = extensionID
        extensionID = .invalid
        app.endBackgroundTask(id)
    }
}
