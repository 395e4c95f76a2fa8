import SimKernel

/// The Guardian's CoverDrop background message sending as its iOS code ships it (guardian/coverdrop
/// at `a43016f`, `ios/reference/CoverDropCore/Sources/CoverDropCore/Services/`), which differs from
/// its design document (``CoverDropDesigned``) in what a run sends, when runs happen and how
/// they end:
///
/// - **Every foreground and every launch** (`onAppForeground`, called from
///   `willEnterForeground` and, since `b7fba50` (2025-10-07) directly, at every process launch,
///   background launches included): if the pending flag is set, run the job and wait for it; then submit a request
///   10 min + an exponential delay ahead and set the flag.
/// - **Entering the background**: submit a request an exponential delay ahead (mean 10 min,
///   clamped to 5–120 min) and set the flag. A new request replaces the pending one; nothing is
///   ever cancelled.
/// - **The task's handler**: first submit the next request (an exponential delay, no extra
///   10 min; since `8ee46ab`), then run the job and complete the task with its result. No
///   expiration handler is set: a run the system expires is killed when its grace ends.
/// - **The job**: skipped (result false) if the last run was less than an hour ago on the device
///   clock (a last run in the future, after the clock jumped back, does not skip); otherwise it
///   sends exactly ``CoverDropShippedParameters/messagesPerRun`` messages — queued real messages
///   first, padded with cover messages (``WorkRequest/isCover``) — then
///   records the run's start as the last run, clears the flag and returns true. A send that
///   fails leaves its message queued and the run still counts as a success; offline, the job
///   sends nothing and succeeds at once [Inf] (a request fails at once without a network).
///
/// **The library** starts in every new process, background launches included, before any job
/// runs (``CoverDropShippedParameters/libraryStartSeconds``): the launch's `onAppForeground`
/// waits for it, and so does the task handler's job. A start that fails
/// (``CoverDropShippedParameters/libraryStartFailureProbability``) runs no job: a waiting task
/// completes with false, and the next return to the foreground starts the library again.
///
/// **Two jobs in one process run at the same time** (``CoverDropShippedParameters/jobsOverlap``):
/// on a cold background launch with the flag set — almost always, since every launch and every
/// departure sets it — the launch's job and the handler's job start together when the library
/// is ready. Both read the last run before either writes it, so both pass the hourly limit and
/// both complete true. Both peek at the head before either dequeues, so the first send goes out
/// twice; after that each peeks just after its own dequeue, so they send different messages,
/// and the dequeues run one ahead: a pair of runs sends m1 twice, m2 and m3, and dequeues m1–m4,
/// so m4 is lost (a real message there fails as given up; cover counts as unsent).
/// Each job records its run as it ends: the launch's job first, after which its failsafe sets
/// the pending flag, then the task's, which clears it — so the next foreground runs no job.
/// A job asked for while others send joins them for a fresh run of
/// ``CoverDropShippedParameters/messagesPerRun`` rounds [Inf]. With `jobsOverlap` false, jobs
/// run one after the other: the second finds the last run too recent and completes false.
///
/// Not modelled: the real and cover messages' cryptography (a fixed CPU cost per item is the
/// workload's), the bytes the library start and the foreground's polls move, and the queue's 8
/// slots, which the preset gives the workload (`work.maximumQueuedItems: 8`).
package final class CoverDropShipped: BackgroundPolicy {
    package let parameters: CoverDropShippedParameters
    static let pendingKey = "coverdrop.shipped.backgroundWorkPending"
    static let lastRunKey = "coverdrop.shipped.backgroundWorkLastSuccessfulRun"

    /// Where the library stands in this process.
    private enum Library { case starting, ready, failed }
    private var library = Library.starting
    /// Jobs asked for before the library was ready: each job's completion, in order.
    private var awaitingLibrary: [(Bool) -> Void] = []
    /// The jobs sending now: each one's completion, and the latest of their start times.
    private var sending: [(Bool) -> Void] = []
    private var sendingBegan = SimInstant.start
    /// Jobs waiting for the one in progress (with `jobsOverlap` false), in the order asked for.
    private var waitingJobs: [() -> Void] = []

    package init(parameters: CoverDropShippedParameters) {
        self.parameters = parameters
    }

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: parameters.identifier) { [unowned self] task in
            if parameters.resubmitsInHandler { submit(app, extraMinutes: 0) }
            whenLibraryReady(app) { success in task.setTaskCompleted(success: success) }
        }
        startLibrary(app)
    }

    package func willEnterForeground(_ app: AppContext) {
        switch library {
        case .ready: onAppForeground(app)
        case .failed: startLibrary(app)        // the start runs onAppForeground when ready
        case .starting: break                  // likewise
        }
    }

    package func didEnterBackground(_ app: AppContext) {
        submit(app, extraMinutes: 0)
        app.defaults.set(true, forKey: Self.pendingKey)
    }

    // MARK: The library

    /// Starts the library; when it is ready, runs `onAppForeground` and the jobs waiting for it,
    /// together.
    private func startLibrary(_ app: AppContext) {
        library = .starting
        let seconds = app.networkPath.isSatisfied ? parameters.libraryStartSeconds : 0
        let finish = { [unowned self] in
            if parameters.libraryStartFailureProbability > 0 && app.randomUnit() < parameters.libraryStartFailureProbability {
                library = .failed
                let waiting = awaitingLibrary
                awaitingLibrary.removeAll()
                for completion in waiting { completion(false) }
                return
            }
            library = .ready
            onAppForeground(app)
        }
        if seconds > 0 { app.schedule(after: .seconds(seconds), finish) } else { finish() }
    }

    /// Runs the job once the library is ready (at once if it is), or completes with false if
    /// it failed.
    private func whenLibraryReady(_ app: AppContext, completion: @escaping (Bool) -> Void) {
        switch library {
        case .ready: startJobs(app, [completion])
        case .failed: completion(false)
        case .starting: awaitingLibrary.append(completion)
        }
    }

    /// The fallback for runs the system never gave: run the job if one is pending, then submit
    /// the failsafe request and set the flag. Any job waiting for the library starts with it.
    private func onAppForeground(_ app: AppContext) {
        let scheduleFailsafe: (Bool) -> Void = { [unowned self] _ in
            submit(app, extraMinutes: parameters.failsafeExtraMinutes)
            app.defaults.set(true, forKey: Self.pendingKey)
        }
        var jobs = awaitingLibrary
        awaitingLibrary.removeAll()
        if app.defaults.bool(forKey: Self.pendingKey) {
            jobs.insert(scheduleFailsafe, at: 0)
        } else {
            scheduleFailsafe(true)
        }
        if !jobs.isEmpty { startJobs(app, jobs) }
    }

    // MARK: The job

    /// Starts jobs asked for at the same moment: at once together, or one after the other.
    private func startJobs(_ app: AppContext, _ completions: [(Bool) -> Void]) {
        if parameters.jobsOverlap {
            runJobs(app, completions)
        } else {
            for completion in completions { runJob(app, completion: completion) }
        }
    }

    /// Runs jobs that start together (each reads the last run before any writes it), joining
    /// any jobs already sending.
    private func runJobs(_ app: AppContext, _ completions: [(Bool) -> Void]) {
        let began = app.date
        guard shouldRun(app, at: began) else {
            for completion in completions { completion(false) }   // skipped
            return
        }
        guard app.networkPath.isSatisfied else {
            record(app, began: began)                             // every send failed at once
            for completion in completions { completion(true) }
            return
        }
        sending += completions
        sendingBegan = began
        send(app) { [unowned self] in
            let jobs = sending
            sending.removeAll()
            // Each job records its run as it ends, in the order the jobs began: the launch's job
            // (whose failsafe then sets the flag) before the task's, whose record clears it.
            for completion in jobs {
                record(app, began: sendingBegan)
                completion(true)
            }
        }
    }

    /// Runs the job, or queues it behind the one in progress; `completion` gets its result.
    func runJob(_ app: AppContext, completion: @escaping (Bool) -> Void) {
        guard sending.isEmpty else {
            waitingJobs.append { [unowned self] in runJob(app, completion: completion) }
            return
        }
        let began = app.date
        guard shouldRun(app, at: began) else {
            completion(false)                                   // skipped
            return
        }
        guard app.networkPath.isSatisfied else {
            finishJob(app, began: began, completion: completion)   // every send failed at once
            return
        }
        sending = [completion]
        send(app) { [unowned self] in
            sending.removeAll()
            finishJob(app, began: began, completion: completion)
        }
    }

    /// Pads the queue with cover messages up to a run's sends for every job sending (the app's
    /// queue is always full, its free slots holding cover messages, so every job's dequeue has
    /// a message to remove), starts sending for the jobs in
    /// `sending` (overlapping when there are several), and calls `finish` once, after stopping,
    /// when the run reaches its limit or empties the queue.
    private func send(_ app: AppContext, finish: @escaping () -> Void) {
        let padding = parameters.messagesPerRun * sending.count - app.work.pendingCount
        for _ in 0..<Swift.max(0, padding) {
            try? app.work.enqueue(WorkRequest(uploadBytes: parameters.messageBytes, isCover: true))
        }
        var finished = false
        let done = {
            guard !finished else { return }
            finished = true
            app.work.stop()
            finish()
        }
        app.work.onLimitReached = done
        app.work.onQueueEmpty = done
        if sending.count == 1 {
            app.work.start(limit: parameters.messagesPerRun)
        } else {
            app.work.startOverlapping(limit: parameters.messagesPerRun, jobs: sending.count)
        }
    }

    /// Records a run that sent (or tried to): the last run and the cleared flag.
    private func record(_ app: AppContext, began: SimInstant) {
        app.defaults.set(began, forKey: Self.lastRunKey)
        app.defaults.set(false, forKey: Self.pendingKey)
    }

    /// Records a run, reports success and starts the next waiting job.
    private func finishJob(_ app: AppContext, began: SimInstant, completion: (Bool) -> Void) {
        record(app, began: began)
        completion(true)
        if !waitingJobs.isEmpty { waitingJobs.removeFirst()() }
    }

    /// The rate limit on the device clock: run if there was no run, if the last one lies in the
    /// future (the clock jumped back), or if at least the minimum interval has passed.
    func shouldRun(_ app: AppContext, at now: SimInstant) -> Bool {
        guard let last = app.defaults.instant(forKey: Self.lastRunKey) else { return true }
        return last > now || last.duration(to: now) >= .minutes(parameters.minimumRunIntervalMinutes)
    }

    // MARK: Requests

    /// Submits the request an exponential delay (plus `extraMinutes`) ahead, replacing any.
    func submit(_ app: AppContext, extraMinutes: Double) {
        let draw = -parameters.meanDelayMinutes * 60 * PortableMath.log(1 - app.randomUnit())
        let seconds = Swift.min(parameters.maximumDelayMinutes * 60, Swift.max(parameters.minimumDelayMinutes * 60, draw))
        let minutes = (seconds.rounded(.towardZero) + extraMinutes * 60) / 60
        var request = parameters.requestKind == .refresh
            ? TaskRequest.appRefresh(identifier: parameters.identifier)
            : TaskRequest.processing(identifier: parameters.identifier, requiresExternalPower: false, requiresNetworkConnectivity: true)
        request.earliestBeginDate = app.date + .minutes(minutes)
        try? app.taskScheduler.submit(request)
    }
}
