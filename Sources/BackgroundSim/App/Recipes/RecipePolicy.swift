import SimKernel

/// The policy a recipe describes (``RecipeParameters``): the built-in `"recipe"` policy.
///
/// What it keeps across process launches (on the app's `defaults`): when the last successful
/// run began, on the device clock, how many runs have failed in a row, and the pending flag
/// (``RecipeParameters/runWhenPending``). Runs in one process happen one after another: a run
/// asked for while another is working waits for it, then decides afresh. A run in progress
/// keeps the work going when the user arrives or leaves; it stops the work when it ends, unless
/// the app is in the foreground and works there (``RecipeParameters/workInForeground``).
package final class RecipePolicy: BackgroundPolicy {
    static let lastSuccessKey = "recipe.lastSuccess"
    static let failuresKey = "recipe.failures"
    static let pendingKey = "recipe.pending"

    let recipe: RecipeParameters
    /// The extension held while leaving with work, if any.
    private let extensionAssertion = ExtensionAssertion()
    /// A run is working in this process.
    private var runInProgress = false
    /// Runs waiting for the one in progress, in the order they were asked for.
    private var waitingRuns: [() -> Void] = []
    /// This process cannot run: the system launched it while the phone was locked.
    private var lockedOut = false
    /// The continued-processing task running in this process, if any.
    private var continuedTask: BackgroundTask?
    /// Continued-processing requests this process has submitted (each adds its count to the
    /// wildcard's prefix).
    private var continuedSubmitted = 0

    /// How a run ended.
    enum RunOutcome {
        /// It did its work (or had none): success.
        case succeeded
        /// It failed, or was stopped (expiration, a push's deadline).
        case failed
        /// It did nothing: too soon after the last success.
        case skipped
    }

    package init(parameters: RecipeParameters) {
        recipe = parameters
    }

    // MARK: The app's life

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        switch recipe.kind {
        case .refresh, .processing:
            app.taskScheduler.register(forTaskWithIdentifier: recipe.identifier) { [unowned self] task in
                if recipe.submitInHandler { submit(app) }
                run(app, task: task) { task.setTaskCompleted(success: $0 == .succeeded) }
            }
        case .continuedProcessing:
            app.taskScheduler.register(forTaskWithIdentifier: recipe.identifier) { [unowned self] task in
                continuedTask = task
                run(app, task: task) { [unowned self] outcome in
                    continuedTask = nil
                    task.setTaskCompleted(success: outcome == .succeeded)
                }
            }
        case .none:
            break
        }
        if !recipe.schedulerIdentifier.isEmpty {
            app.taskScheduler.register(forTaskWithIdentifier: recipe.schedulerIdentifier) { [unowned self] task in
                submitScheduler(app)            // this handler asks for the scheduler first
                submitTask(app)
                task.setTaskCompleted(success: true)
            }
        }
        if reason == .user {
            if recipe.workInForeground { startWork(app) }
        } else if recipe.needsUnlockedPhoneAtLaunch && !app.isProtectedDataAvailable {
            lockedOut = true
        }
        if recipe.submitOnLaunch { enterApp(app, extraMinutes: recipe.launchExtraMinutes) }
        if reason == .user {
            submitContinuedProcessing(app)
            if recipe.runOnLaunch && app.networkPath.isSatisfied && hasWorkToDo(app) { run(app, task: nil) { _ in } }
        }
    }

    package func didEnterBackground(_ app: AppContext) {
        if !recipe.sessionIdentifier.isEmpty {
            // Handing off goes on while the process runs; the extension keeps it running.
            if recipe.extensionWhenLeaving && app.work.isRunning && app.work.hasPendingWork { holdExtension(app, starting: false) }
        } else if recipe.extensionWhenLeaving && app.work.hasPendingWork {
            holdExtension(app, starting: true)
        } else if recipe.workInForeground && !runInProgress {
            app.work.stop()
        }
        if recipe.submitOnEnterBackground && submitsRequests {
            submit(app)
            if recipe.runWhenPending { app.defaults.set(true, forKey: Self.pendingKey) }
        }
    }

    package func willEnterForeground(_ app: AppContext) {
        lockedOut = false     // the user unlocked the phone
        extensionAssertion.end(app)
        // A run in progress keeps the work, and its end, as they are.
        if recipe.workInForeground && !runInProgress {
            if !recipe.sessionIdentifier.isEmpty {
                startWork(app)
            } else {
                app.work.onQueueEmpty = nil
                app.work.start()
            }
        }
        if recipe.submitOnForeground { enterApp(app, extraMinutes: recipe.foregroundExtraMinutes) }
        submitContinuedProcessing(app)
    }

    package func handleEventsForBackgroundURLSession(_ app: AppContext, identifier: String, completionHandler: @escaping () -> Void) {
        if !recipe.sessionIdentifier.isEmpty && app.work.hasPendingWork && !runInProgress { startWork(app) }
        completionHandler()
    }

    package func didReceiveRemoteNotification(_ app: AppContext, fetchCompletionHandler: @escaping (BackgroundFetchResult) -> Void) {
        // A run in progress is already doing the work.
        guard recipe.onPush == .run, !runInProgress, !isTooSoon(app), hasWorkToDo(app) else {
            fetchCompletionHandler(.noData)
            return
        }
        run(app, task: nil, deadline: .seconds(recipe.pushDeadlineSeconds)) { outcome in
            fetchCompletionHandler(outcome == .succeeded ? .newData : outcome == .skipped ? .noData : .failed)
        }
    }

    /// Whether the recipe submits refresh or processing requests (not with kinds
    /// `continuedProcessing` and `none`).
    private var submitsRequests: Bool { recipe.kind == .refresh || recipe.kind == .processing }

    /// Whether a run would have something to do: work queued, or items it adds itself.
    private func hasWorkToDo(_ app: AppContext) -> Bool {
        app.work.hasPendingWork || recipe.enqueuePerRun > 0 || recipe.padWithCover
    }

    /// Starts the app's own work: handing off to the background session (ending the extension
    /// when all is handed off) if the recipe has one, else working the queue.
    private func startWork(_ app: AppContext, limit: Int? = nil) {
        if recipe.sessionIdentifier.isEmpty {
            app.work.start(limit: limit)
        } else {
            app.work.onQueueEmpty = { [unowned self] in extensionAssertion.end(app) }
            try? app.work.startHandingOff(to: sessionConfiguration)
        }
    }

    /// The background session the recipe hands its transfers to.
    private var sessionConfiguration: BackgroundSessionConfiguration {
        var configuration = BackgroundSessionConfiguration.background(withIdentifier: recipe.sessionIdentifier)
        configuration.isDiscretionary = recipe.sessionIsDiscretionary
        configuration.allowsCellularAccess = recipe.sessionAllowsCellularAccess
        return configuration
    }

    /// `continuedProcessing`: the user is in the app with work queued and no continued task
    /// running, so it submits one (the next number after the wildcard's prefix).
    private func submitContinuedProcessing(_ app: AppContext) {
        guard recipe.kind == .continuedProcessing, continuedTask == nil, app.work.hasPendingWork else { return }
        continuedSubmitted += 1
        let identifier = String(recipe.identifier.dropLast()) + String(continuedSubmitted)
        try? app.taskScheduler.submit(ContinuedProcessingTaskRequest(identifier: identifier, strategy: recipe.continuedProcessingStrategy))
    }

    /// A launch or a return to the foreground: with a pending run, run first (without a task)
    /// and submit when it ends; otherwise submit now.
    private func enterApp(_ app: AppContext, extraMinutes: Double) {
        let submitAndMarkPending = { [unowned self] in
            submit(app, extraMinutes: extraMinutes)
            if recipe.runWhenPending { app.defaults.set(true, forKey: Self.pendingKey) }
        }
        if recipe.runWhenPending && app.defaults.bool(forKey: Self.pendingKey) {
            run(app, task: nil) { _ in submitAndMarkPending() }
        } else {
            submitAndMarkPending()
        }
    }

    // MARK: A run

    /// Whether a run now would be too soon after the last successful one, on the device clock
    /// (a last success in the future — the clock jumped back — is not).
    private func isTooSoon(_ app: AppContext) -> Bool {
        guard recipe.minimumIntervalMinutes > 0, let last = app.defaults.instant(forKey: Self.lastSuccessKey) else { return false }
        return last <= app.date && last.duration(to: app.date) < .minutes(recipe.minimumIntervalMinutes)
    }

    /// Runs once — for `task`, or in the app without one — and reports how it ended; waits
    /// first for a run in progress. With a `deadline`, a run still working that long after it
    /// started stops and fails.
    func run(_ app: AppContext, task: BackgroundTask?, deadline: SimDuration? = nil, completion: @escaping (RunOutcome) -> Void) {
        guard !runInProgress else {
            waitingRuns.append { [unowned self] in run(app, task: task, deadline: deadline, completion: completion) }
            return
        }
        let began = app.date
        if isTooSoon(app) {
            completion(.skipped)
            return
        }
        if lockedOut || (recipe.requiresWifi && app.networkPath.interface != .wifi) {
            finish(app, success: false, began: began, completion: completion)
            return
        }
        if !app.networkPath.isSatisfied && recipe.whenOffline != .wait {
            finish(app, success: recipe.whenOffline == .succeed, began: began, completion: completion)
            return
        }
        for _ in 0..<recipe.enqueuePerRun {
            try? app.work.enqueue(coverOrAddedItem(isCover: false))
        }
        if recipe.padWithCover {
            for _ in 0..<Swift.max(0, recipe.itemsPerRun - app.work.pendingCount) {
                try? app.work.enqueue(coverOrAddedItem(isCover: true))
            }
        }
        guard app.work.hasPendingWork else {
            finish(app, success: true, began: began, completion: completion)   // nothing to do
            return
        }
        runInProgress = true
        var finished = false
        let end = { [unowned self] (success: Bool) in
            guard !finished else { return }
            finished = true
            // The foreground's own work goes on; otherwise the work stops with the run.
            if !(recipe.workInForeground && app.applicationState == .active) { app.work.stop() }
            runInProgress = false
            finish(app, success: success, began: began, completion: completion)
        }
        if recipe.itemsPerRun > 0 { app.work.onLimitReached = { end(true) } }
        if recipe.setsExpirationHandler, let task {
            task.expirationHandler = { end(false) }
        }
        if let deadline { app.schedule(after: deadline) { end(false) } }
        startWork(app, limit: recipe.itemsPerRun > 0 ? recipe.itemsPerRun : nil)
        app.work.onQueueEmpty = { end(true) }
    }

    /// An item the recipe adds to a run: of the `enqueue…` sizes.
    private func coverOrAddedItem(isCover: Bool) -> WorkRequest {
        WorkRequest(uploadBytes: recipe.enqueueUploadBytes, downloadBytes: recipe.enqueueDownloadBytes,
                    cpuSeconds: recipe.enqueueCPUSeconds, isCover: isCover)
    }

    /// Records the run's outcome, reports it (success, or always with `completion: always`),
    /// does what the recipe says after success or failure, and starts the next waiting run.
    private func finish(_ app: AppContext, success: Bool, began: SimInstant, completion: (RunOutcome) -> Void) {
        if success {
            app.defaults.set(recipe.lastSuccessAt == .start ? began : app.date, forKey: Self.lastSuccessKey)
            app.defaults.set(0, forKey: Self.failuresKey)
            if recipe.runWhenPending { app.defaults.set(false, forKey: Self.pendingKey) }
        } else {
            app.defaults.set(app.defaults.integer(forKey: Self.failuresKey) + 1, forKey: Self.failuresKey)
        }
        completion(success || recipe.completion == .always ? .succeeded : .failed)
        if success && recipe.submitAfterSuccess { submit(app) }
        if !success && recipe.submitAfterFailure { submit(app, retrying: true) }
        if !waitingRuns.isEmpty { waitingRuns.removeFirst()() }
    }

    // MARK: Requests

    /// Submits the recipe's request (replacing a pending one of the same identifier), and the
    /// scheduler request if the recipe has one.
    func submit(_ app: AppContext, extraMinutes: Double = 0, retrying: Bool = false) {
        submitTask(app, extraMinutes: extraMinutes, retrying: retrying)
        submitScheduler(app)
    }

    /// Submits the recipe's own request.
    private func submitTask(_ app: AppContext, extraMinutes: Double = 0, retrying: Bool = false) {
        var request = recipe.kind == .refresh
            ? TaskRequest.appRefresh(identifier: recipe.identifier)
            : TaskRequest.processing(identifier: recipe.identifier, requiresExternalPower: recipe.requiresExternalPower,
                                     requiresNetworkConnectivity: recipe.requiresNetworkConnectivity)
        request.earliestBeginDate = earliestBegin(app, retrying: retrying) + .minutes(extraMinutes)
        try? app.taskScheduler.submit(request)
    }

    /// Submits the scheduler request, if the recipe has one.
    private func submitScheduler(_ app: AppContext) {
        guard !recipe.schedulerIdentifier.isEmpty else { return }
        var scheduler = TaskRequest.processing(identifier: recipe.schedulerIdentifier,
                                               requiresExternalPower: false, requiresNetworkConnectivity: false)
        scheduler.earliestBeginDate = nextWindow(app, opening: recipe.schedulerWindowTime)
        try? app.taskScheduler.submit(scheduler)
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
            return nextWindow(app, opening: recipe.windowTime)
        }
    }

    /// The next local day at `time`, plus 0 … `windowJitterMinutes` whole minutes, uniform, from
    /// the app's stream (as apps draw a random whole number of minutes over `0...60`).
    private func nextWindow(_ app: AppContext, opening time: TimeOfDay) -> SimInstant {
        let calendar = app.calendar
        let opens = calendar.midnight(ofDay: calendar.day(of: app.date) + 1) + time.sinceMidnight
        return opens + .minutes(Double(app.randomInt(in: 0...Int(recipe.windowJitterMinutes))))
    }

    // MARK: The extension

    /// Holds the extension while the queue has work, `starting` the work (else it is already
    /// running and ends the extension when the queue empties).
    private func holdExtension(_ app: AppContext, starting: Bool) {
        guard !extensionAssertion.isHeld else { return }
        extensionAssertion.begin(app, name: "recipe") { [unowned self] in
            app.work.stop()
            extensionAssertion.end(app)
        }
        guard starting else { return }
        app.work.onQueueEmpty = { [unowned self] in extensionAssertion.end(app) }
        app.work.start()
    }
}

extension PolicyDefinition {
    /// The built-in `"recipe"` policy: the policy a recipe describes.
    static let recipe = PolicyDefinition(
        name: "recipe", summary: "A policy described as data: request, delay rule, when to submit, retries, what a run does (docs/RECIPES.md).",
        parameters: RecipeParameters.self, taskIdentifiers: [RecipeParameters().identifier]) { RecipePolicy(parameters: $0) }
}
