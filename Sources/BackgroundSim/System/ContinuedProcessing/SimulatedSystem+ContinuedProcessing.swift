import SimKernel

// Continued-processing tasks (iOS 26): submitted in the foreground, started at once or queued,
// ended by the app, by the user's cancel, or by the system when progress stalls.
extension SimulatedSystem {
    /// `submit(_:)` for a continued-processing request. The request joins the queue; a
    /// `continuedProcessingStart` event at this instant starts it once the callback returns if a
    /// slot is free (as on iOS, the launch handler runs after `submit` returns). With the `fail`
    /// strategy and no free slot, `submit` throws.
    func submit(_ request: ContinuedProcessingTaskRequest) throws(TaskSchedulerError) {
        if let code = submitRefusal(identifier: request.identifier, kind: .continuedProcessing) {
            throw refuse(request.identifier, code)
        }
        // Submitted "on behalf of the currently foregrounded app", on the user's action [A]; a
        // submit from the background is refused as unavailable [Inf].
        guard processState == .foreground else { throw refuse(request.identifier, .unavailable) }
        // The user turned these tasks off for the app [A]; the error is our inference.
        if parameters.continuedProcessing.userTurnedOff { throw refuse(request.identifier, .unavailable) }
        let full = running.count(of: .continuedProcessing) + continued.queued.count >= parameters.continuedProcessing.maximumConcurrentTasks
        if full && request.strategy == .fail { throw refuse(request.identifier, .immediateRunIneligible) }
        record(.submit(identifier: request.identifier, kind: .continuedProcessing, earliestBeginIn: .zero))
        // A phone that never starts them accepts the request and forgets it [O].
        if continuedProcessingNeverStarts { return }
        if full { record(.continuedProcessingQueued(identifier: request.identifier)) }
        continued.enqueue(request)
    }

    /// The `continuedProcessingStart` event: delivers the oldest queued request to the running
    /// app (a wake from ``WakeSource/continuedProcessingTask``, if the admission lets it: the
    /// phone on and a slot free), with no time allotment; the user will cancel it with
    /// ``ContinuedProcessingParameters/userCancelProbability``. A request the admission holds
    /// back stays queued, unlogged: the reconcile asks again when a slot frees (``ContinuedProcessingTasks``).
    func startQueuedContinuedProcessing(in simulation: inout Simulation<WorldEvent>) {
        continued.startFired()
        guard processIsRunning, continued.hasQueued,
              admit(.door(.continuedProcessingTask)) == .launched,
              let request = continued.dequeue() else { return }
        wake(for: .continuedProcessingTask, in: &simulation) { simulation in
            startTask(identifier: request.identifier, kind: .continuedProcessing, expiringAt: nil, in: &simulation) { serial, simulation in
                let p = parameters.continuedProcessing
                let now = snapshot.now
                let cancels = streams.continuedProcessing.chance(p.userCancelProbability)
                let after = ExponentialDistribution(rate: 1 / p.userCancelMeanMinutes).sample(using: &streams.continuedProcessing)
                continued.taskStarted(serial: serial, at: now, cancelAt: cancels ? now + .seconds(after * 60) : nil, in: &simulation)
            }
        }
    }

    /// The app reported progress on a continued-processing task.
    func continuedProcessingProgressed() {
        continued.noteProgress(at: snapshot.now)
    }

    /// The `continuedProcessingStall` event: no progress for the timeout. Every running
    /// continued-processing task expires if the phone's resources are constrained (or the
    /// scenario expires stalls regardless); otherwise they run on, looked at again a timeout later.
    func continuedProcessingStalled() {
        continued.stallFired()
        let p = parameters.continuedProcessing
        guard !p.stallEndsOnlyUnderPressure || resourcesConstrained else {
            continued.stallLetRun(at: snapshot.now, timeout: .seconds(p.progressTimeoutSeconds))
            return
        }
        expireRunning(where: { $0.task.kind == .continuedProcessing }, cause: .noProgress)
    }

    /// Whether the phone's resources count as constrained for continued processing
    /// (``ContinuedProcessingParameters/stallEndsOnlyUnderPressure``) [Inf]: the thermal state
    /// serious or worse, Low Power Mode, the battery below the launch model's floor off the
    /// charger, or a continued-processing request waiting for a slot.
    var resourcesConstrained: Bool {
        snapshot.thermalState >= .serious || snapshot.isLowPowerMode
            || (snapshot.batteryPercent < parameters.heuristic.criticalBatteryPercent && !snapshot.isCharging)
            || continued.hasQueued
    }

    /// The `continuedProcessingCancel` event: the user cancels the task from its Live Activity,
    /// or the system ends it early.
    func continuedProcessingCancelled(serial: UInt32) {
        let cause = continued.cancelFired(serial: serial)
        expire(serial: serial, cause: cause)
    }

    /// The app left the foreground: each running continued-processing task may be expired
    /// early (``ContinuedProcessingParameters/earlyExpiryProbability``).
    func continuedProcessingAppLeft(in simulation: inout Simulation<WorldEvent>) {
        let p = parameters.continuedProcessing
        guard p.earlyExpiryProbability > 0 else { return }
        for serial in running.serials(of: .continuedProcessing) where streams.continuedProcessing.chance(p.earlyExpiryProbability) {
            continued.expireEarly(serial: serial, at: snapshot.now + .seconds(p.earlyExpirySeconds), in: &simulation)
        }
    }
}
