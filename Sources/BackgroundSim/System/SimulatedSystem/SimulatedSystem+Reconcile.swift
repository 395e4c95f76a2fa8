import SimKernel

extension SimulatedSystem {
    /// Brings the simulation's agenda in line with the state after a change: completed tasks
    /// leave, timers get events, an app with nothing to do is suspended, assertion deadlines are
    /// scheduled, the work executor and the radio follow, the CPU monitor watches, and the next
    /// launch evaluation is set — in that order, which fixes the order of same-time events.
    func reconcile(in simulation: inout Simulation<WorldEvent>) {
        let now = simulation.now
        running.reconcile(graceSeconds: parameters.taskCompletionGraceSeconds, in: &simulation)
        timers.reconcile(now: now, in: &simulation)

        // Suspension, unless a door holds the app (a push's or a URL session's window once it
        // has been reconciled).
        push.reconcile(in: &simulation)
        sessionEvents.reconcile(in: &simulation)
        if processState == .background && doorHoldingApp == nil {
            processState = .suspended
            record(.suspend)
            if parameters.suspendedTerminationPerHour > 0 {
                let hours = ExponentialDistribution(rate: parameters.suspendedTerminationPerHour).sample(using: &streams.jetsam)
                jetsam.set(.jetsam, at: now + .hours(hours), in: &simulation)
            }
        }

        assertions.reconcile(runningInBackground: processState == .background, now: now, parameters: parameters, in: &simulation)
        // The work and its power before the CPU monitor, which watches the executor's CPU use.
        reconcileWork(in: &simulation)
        // After the work has settled: new hand-offs, and sessions whose events are ready.
        reconcileSessionEvents(in: &simulation)
        running.reconcileCPUMonitor(overLimit: exceedsCPULimit, parameters: parameters, in: &simulation)
        if continued.isActive || !running.isEmpty {
            continued.reconcile(runningCount: running.count(of: .continuedProcessing), isRunning: { running.task(serial: $0) != nil },
                                progressing: work.isProgressing,
                                processRunning: processIsRunning, maximum: parameters.continuedProcessing.maximumConcurrentTasks,
                                timeout: .seconds(parameters.continuedProcessing.progressTimeoutSeconds), in: &simulation)
        }
        for deferral in admission.scheduleNext(for: pending, in: &simulation) {
            record(.launchDeferred(identifier: deferral.identifier, kind: deferral.kind,
                                   nextEvaluationIn: deferral.next.map { now.duration(to: $0) }, reason: deferral.reason))
        }
        checkInvariantsIfEnabled()
    }

    /// Brings the executor, the radio and the app's power in line with the state: whether work
    /// can progress, the radio's transfer, the next work check and radio phase change.
    func reconcileWork(in simulation: inout Simulation<WorldEvent>) {
        let now = simulation.now
        // Fast path: no work started, the radio idle, nothing scheduled for either.
        if !work.isStarted && work.activeSince == nil && energy.radioIsIdle && !workCheck.isScheduled && work.transfers.isEmpty
            && work.endedAppTransfers.isEmpty {
            energy.setIdle()
            return
        }
        let processRunning = processState == .foreground || processState == .background
        // Cellular bytes in the background count against the app's data budget (more in Low Data Mode).
        // A phone that is off moves no data (the network plan runs on; the radio does not).
        let path = snapshot.isPoweredOn ? snapshot.network : .offline
        let cellularWeight = path.interface == .cellular ? (path.isConstrained ? parameters.budget.lowDataModeCostMultiplier : 1) : 0
        let dataBudgetWeight = processState == .background ? cellularWeight : 0
        let active = work.setConditions(at: now, processRunning: processRunning, path: path, network: networkParameters,
                                        dataBudgetWeight: dataBudgetWeight,
                                        transferDataBudgetWeight: processState == .foreground ? 0 : cellularWeight,
                                        inForeground: processState == .foreground,
                                        charging: snapshot.isCharging,
                                        discretionaryRequiresPower: parameters.backgroundURLSession.discretionaryRequiresPower,
                                        backgroundStartDelay: sessionEvents.startDelay(at: now))
        // The radio transfers while the executor is active on network work, or the daemon on a
        // handed-off transfer.
        let daemon = work.transfers.isProgressing
        let head = work.headDirections
        let directions = daemon ? (head.upload || work.transfers.directions.upload, head.download || work.transfers.directions.download) : head
        let flowing = energy.update(executorActive: active, cpuShare: work.headCPUShare, wantsRadio: (active && work.headNeedsNetwork) || daemon,
                                    daemonTransferring: daemon, path: path,
                                    network: networkParameters, directions: directions, in: &simulation)
        if let flowing { work.delayProgress(until: flowing) }
        // The next work check: when the run ends (at once, so its callbacks run), or when the
        // items in hand are done.
        // The app's own transfers that ended are passed on at once too.
        let finished = work.isStarted && (work.runFinished.queueEmpty || work.runFinished.limitReached)
        let reportNow = (finished && !work.runEndReported) || !work.endedAppTransfers.isEmpty
        workCheck.set(.workCheck, at: reportNow ? now : work.nextCheck(after: now), in: &simulation)
    }

    /// A work check: settle, and tell the policy if the run emptied the queue or reached its limit.
    func checkWork(at now: SimInstant) {
        workCheck.fired()
        work.settle(at: now)
        work.reportEndedAppTransfers()
        guard work.isStarted, !work.runEndReported else { return }
        let state = work.runFinished
        if state.limitReached {
            work.runEndReported = true
            let callback = work.onLimitReached
            work.stop(at: now)
            record(.workLimitReached)
            callback?()
        } else if state.queueEmpty {
            work.runEndReported = true
            record(.workQueueEmpty)
            work.onQueueEmpty?()
        }
    }
}
