import SimKernel

// Continued-processing tasks (iOS 26): submitted in the foreground, started at once or queued,
// ended by the app, by the user's cancel, or by the system when progress stalls.
extension SimulatedSystem {
    /// `submit(_:)` for a continued-processing request, after the common checks. The request
    /// joins the queue; a `continuedProcessingStart` event at this instant starts it once the
    /// callback returns if a slot is free (as on iOS, the launch handler runs after `submit`
    /// returns). With the `fail` strategy and no free slot, `submit` throws.
    func submitContinuedProcessing(_ request: TaskRequest) throws(TaskSchedulerError) {
        // Submitted "on behalf of the currently foregrounded app", on the user's action [A]; a
        // submit from the background is refused as unavailable [Inf].
        guard processState == .foreground else { throw refuse(request, .unavailable) }
        let full = running.count(of: .continuedProcessing) + continued.queued.count >= parameters.continuedProcessing.maximumConcurrentTasks
        if full && request.strategy == .fail { throw refuse(request, .immediateRunIneligible) }
        record(.submit(identifier: request.identifier, kind: request.kind, earliestBeginIn: .zero))
        if full { record(.continuedProcessingQueued(identifier: request.identifier)) }
        continued.enqueue(request)
    }

    private func refuse(_ request: TaskRequest, _ code: TaskSchedulerError.Code) -> TaskSchedulerError {
        metrics.submitErrors[code.rawValue] += 1
        record(.submitError(identifier: request.identifier, error: code))
        return TaskSchedulerError(code: code)
    }

    /// The `continuedProcessingStart` event: delivers the oldest queued request to the app
    /// (resuming it if it was suspended), with no time allotment; the user will cancel it with
    /// ``ContinuedProcessingParameters/userCancelProbability``.
    func startQueuedContinuedProcessing(in simulation: inout Simulation<WorldEvent>) {
        continued.startFired()
        guard processIsRunning,
              running.count(of: .continuedProcessing) < parameters.continuedProcessing.maximumConcurrentTasks,
              let request = continued.dequeue() else { return }
        let now = snapshot.now
        _ = wakeInBackground(for: .backgroundTask, in: &simulation)   // resumes a suspended app; it runs (checked above)
        let serial = running.takeSerial()
        let task = BackgroundTask(identifier: request.identifier, kind: .continuedProcessing, serial: serial, system: self)
        // Counted apart from the launches the system chose (the hour histogram and the charging
        // share are theirs).
        metrics.continuedProcessingLaunches += 1
        record(.taskLaunch(identifier: request.identifier, serial: serial, allotment: .zero))
        guard let handler = registrations.handler(for: request.identifier, kind: .continuedProcessing) else {
            // As for any task: a launch with no handler registered crashes the app [A].
            metrics.unregisteredLaunchCrashes += 1
            record(.crash(reason: .noLaunchHandler, identifier: request.identifier))
            terminate(.crash, in: &simulation)
            return
        }
        let p = parameters.continuedProcessing
        let cancels = streams.continuedProcessing.chance(p.userCancelProbability)
        let after = ExponentialDistribution(rate: 1 / p.userCancelMeanMinutes).sample(using: &streams.continuedProcessing)
        running.add(task, for: request, expiringAt: nil, simulated: false, in: &simulation)
        continued.taskStarted(serial: serial, at: now, cancelAt: cancels ? now + .seconds(after * 60) : nil, in: &simulation)
        handler(task)
    }

    /// The app reported progress on a continued-processing task.
    func continuedProcessingProgressed() {
        continued.noteProgress(at: snapshot.now)
    }

    /// The `continuedProcessingStall` event: no progress for the timeout; every running
    /// continued-processing task expires.
    func continuedProcessingStalled() {
        continued.stallFired()
        expireRunning(where: { $0.task.kind == .continuedProcessing }, cause: .noProgress)
    }

    /// The `continuedProcessingCancel` event: the user cancels the task from its Live Activity.
    func continuedProcessingCancelled(serial: UInt32) {
        continued.cancelFired(serial: serial)
        expire(serial: serial, cause: .userCancelled)
    }
}
