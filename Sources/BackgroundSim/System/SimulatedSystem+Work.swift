import SimKernel

extension SimulatedSystem {
    static let radioShareLabel = StreamLabel("system.radioShare")

    /// Brings the executor, the radio and the app's power in line with the state: whether work
    /// can progress, the radio's transfer, the next work check and radio phase change.
    func reconcileWork(in simulation: inout Simulation<WorldEvent>) {
        let now = simulation.now
        // Fast path: no work started, the radio idle, nothing scheduled for either.
        if !work.isStarted && work.activeSince == nil && !radioTransferring && radio.phase == .idle
            && workCheckEvent == nil && radioPhaseEvent == nil {
            appPower = AppPower(launchOverhead: launchOverheadEvent != nil ? energyParameters.cpuAwakeWatts : 0)
            return
        }
        let processRunning = processState == .foreground || processState == .background
        let active = work.setConditions(at: now, processRunning: processRunning, path: snapshot.network, network: networkParameters)

        // The radio transfers while the executor is active on network work; a new path means a
        // new connection.
        let wantsRadio = active && work.headNeedsNetwork
        if radioTransferring && (!wantsRadio || radioPath != snapshot.network) {
            radio.endTransfer(at: now)
            radioTransferring = false
        }
        if wantsRadio && !radioTransferring {
            // Active power grows with the throughput of the directions in use (energy-model.md
            // §3.1), taken from the item in hand for the whole transfer [A].
            let throughput = networkParameters.throughput(on: snapshot.network)
            let directions = work.headDirections
            let rides = radioShareRandom.chance(energyParameters.tailShareProbability)
            let flowing = radio.beginTransfer(at: now, path: snapshot.network,
                                              uplinkMbps: directions.upload ? throughput.uplinkMbps : 0,
                                              downlinkMbps: directions.download ? throughput.downlinkMbps : 0, ridesOtherTraffic: rides)
            work.delayProgress(until: flowing)
            radioTransferring = true
            radioPath = snapshot.network
        }
        if let change = radio.nextPhaseChange {
            if radioPhaseTime != change {
                cancel(&radioPhaseEvent, in: &simulation)
                radioPhaseEvent = simulation.schedule(.radioPhase, at: change)
                radioPhaseTime = change
            }
        } else {
            cancel(&radioPhaseEvent, in: &simulation)
            radioPhaseTime = nil
        }

        // The next work check: when the run ends (at once, so its callbacks run), or when the
        // items in hand are done.
        let finished = work.isStarted && (work.runFinished.queueEmpty || work.runFinished.limitReached)
        let check: SimInstant? = finished && !work.runEndReported ? now : work.nextCheck(after: now)
        if check != workCheckTime {
            cancel(&workCheckEvent, in: &simulation)
            workCheckTime = check
            if let check { workCheckEvent = simulation.schedule(.workCheck, at: check) }
        }

        let radioWatts = radio.watts
        appPower = AppPower(
            cpu: active ? energyParameters.cpuAwakeWatts : 0,
            radioPromotion: radioWatts.promotion, radioActive: radioWatts.active, radioTail: radioWatts.tail,
            launchOverhead: launchOverheadEvent != nil ? energyParameters.cpuAwakeWatts : 0)
    }

    /// A work check: settle, and tell the policy if the run emptied the queue or reached its limit.
    func checkWork(at now: SimInstant) {
        workCheckEvent = nil
        workCheckTime = nil
        work.settle(at: now)
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

    /// A background launch or resume costs a fixed time at CPU power (energy-model.md §9).
    func chargeLaunchOverhead(in simulation: inout Simulation<WorldEvent>) {
        cancel(&launchOverheadEvent, in: &simulation)
        launchOverheadEvent = simulation.schedule(.launchOverheadEnd, after: .seconds(energyParameters.wakeOverheadSeconds))
    }
}
