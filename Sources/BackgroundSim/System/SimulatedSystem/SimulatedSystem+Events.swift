import SimKernel

extension SimulatedSystem {
    /// Reacts to a device event that the device has already handled.
    ///
    /// The caller checks ``interest`` first and calls only for events that concern the system.
    func deviceDidHandle(_ event: DeviceEvent, device: borrowing Device, in simulation: inout Simulation<WorldEvent>) {
        work.settle(at: simulation.now)
        observe(device, at: simulation.now)
        noticeRestart(in: &simulation)
        switch event {
        case .appOpen:
            appOpened(in: &simulation)
        case .appClose(let forceQuit):
            appClosed(forceQuit: forceQuit, in: &simulation)
        case .sessionStart:
            // The user picking up the phone ends processing tasks (BGProcessingTask docs [A]).
            if snapshot.isScreenOn { expireRunning(where: { $0.task.kind == .processing }, cause: .userActivity) }
        case .unplug:
            expireRunning(where: { $0.requiresExternalPower }, cause: .powerLoss)
        case .networkChange, .networkFlap:
            if !snapshot.network.isSatisfied { expireRunning(where: { $0.requiresNetwork }, cause: .networkLoss) }
        case .batteryLevel, .batteryDeath, .restart:
            if !snapshot.isPoweredOn && processIsRunning { terminate(.powerOff, in: &simulation) }
        default:
            break
        }
        // Expiration handlers run above; a crash they caused ends the process now.
        afterCallback(in: &simulation)
        if admission.model.reactsToDeviceChanges { evaluateLaunches(in: &simulation) }
        reconcile(in: &simulation)
    }

    /// Handles one of the system's own events.
    func handle(_ event: SystemEvent, device: borrowing Device, in simulation: inout Simulation<WorldEvent>) {
        work.settle(at: simulation.now)
        observe(device, at: simulation.now)
        noticeRestart(in: &simulation)
        switch event {
        case .launchEvaluation:
            admission.evaluationFired()
            evaluateLaunches(in: &simulation)
        case .taskExpiration(let serial), .taskGraceEnd(let serial):
            if let window = running.windowEnded(serial: serial) { windowMissed(window, in: &simulation) }
        case .assertionWarning:
            warnAssertions()
        case .assertionDeadline:
            assertions.deadlineFired()
            if !assertions.isEmpty && processState == .background {
                record(.kill(.backgroundTaskAssertionTimeout))
                terminate(.assertionTimeout, in: &simulation)
            }
        case .appTimer(let id):
            timerFired(id)
        case .jetsam:
            jetsam.fired()
            if processState == .suspended { terminate(.memoryPressure, in: &simulation) }
        case .faultJetsam:
            if processState == .suspended || processState == .background {
                record(.kill(.jetsamFault))
                terminate(.memoryPressure, in: &simulation)
            }
        case .faultWindowEnd:
            evaluateLaunches(in: &simulation)
        case .debuggerLaunch(let index):
            simulateLaunch(identifier: debugger.simulateLaunch[Int(index)].identifier, in: &simulation)
        case .debuggerExpiration(let index):
            simulateExpiration(identifier: debugger.simulateExpiration[Int(index)].identifier)
        case .continuedProcessingStart:
            startQueuedContinuedProcessing(in: &simulation)
        case .continuedProcessingStall:
            continuedProcessingStalled()
        case .continuedProcessingCancel(let serial):
            continuedProcessingCancelled(serial: serial)
        case .sessionRelaunch:
            relaunchForSessionEvents(in: &simulation)
        case .sessionEventsEnd:
            if let window = sessionEvents.windowEnded() { windowMissed(window, in: &simulation) }
        case .pushSend:
            pushSent(in: &simulation)
        case .pushDeliveryAttempt:
            push.attemptFired()
            deliverHeldPush(in: &simulation)
        case .pushRunEnd:
            if let window = push.windowEnded() { windowMissed(window, in: &simulation) }
        case .workCheck:
            checkWork(at: simulation.now)
        case .radioPhase:
            energy.radioPhaseEnded(at: simulation.now)
        case .launchOverheadEnd:
            energy.launchOverheadEnded()
        case .cpuMonitorCheck:
            running.cpuCheckFired()
            if exceedsCPULimit {
                record(.kill(.cpuResourceLimit))
                terminate(.cpuLimit, in: &simulation)
            }
        }
        afterCallback(in: &simulation)
        reconcile(in: &simulation)
    }
}
