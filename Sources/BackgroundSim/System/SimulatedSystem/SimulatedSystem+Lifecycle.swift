import SimKernel

extension SimulatedSystem {
    /// The user opened the app: a launch, or a return to the foreground. Not while the phone
    /// is off (an open the user began before the battery died does not happen).
    func appOpened(in simulation: inout Simulation<WorldEvent>) {
        guard snapshot.isPoweredOn else { return }
        lastAppUse = snapshot.now
        sessionEvents.appEnteredForeground()
        work.appSession(at: snapshot.now, day: snapshot.day, closing: false)
        admission.appDidEnterForeground(at: snapshot.now, hour: snapshot.hour)
        if forceQuitFlag {
            forceQuitFlag = false
            record(.forceQuitFlagCleared)
        }
        jetsam.cancel(in: &simulation)
        assertions.enterForeground()
        if processState == .notRunning {
            processState = .foreground
            launchProcess(reason: .user)
        } else {
            processState = .foreground
            record(.willEnterForeground)
            if let policy, let context { policy.willEnterForeground(context) }
            fireOverdueTimers()
        }
        afterCallback(in: &simulation)
        // A user launch delivers the held push [A].
        if processState == .foreground { deliverHeldPush(in: &simulation) }
    }

    /// The app left the foreground, swiped away if `forceQuit`.
    func appClosed(forceQuit: Bool, in simulation: inout Simulation<WorldEvent>) {
        guard processState == .foreground else { return }
        work.appSession(at: snapshot.now, day: snapshot.day, closing: true)
        processState = .background
        assertions.enterBackground(at: snapshot.now)
        record(.didEnterBackground)
        continuedProcessingAppLeft(in: &simulation)
        if let context { policy?.didEnterBackground(context) }
        afterCallback(in: &simulation)
        if forceQuit && processIsRunning {
            // Still running in the background (an assertion, a task): iOS calls willTerminate.
            if processState == .background && (!assertions.isEmpty || !running.isEmpty), let policy, let context {
                record(.willTerminate)
                policy.willTerminate(context)
            }
            terminate(.forceQuit, in: &simulation)
            cancelSessionTransfers(in: &simulation)
            discardHeldPush(.forceQuit, in: &simulation)
            forceQuitFlag = true
            if parameters.forceQuitClearsPendingRequests { pending.removeAll() }
            record(.forceQuit(pendingRequestsCleared: parameters.forceQuitClearsPendingRequests))
        }
    }

    /// Starts a new process and calls `didFinishLaunching`.
    func launchProcess(reason: LaunchReason) {
        processGeneration &+= 1
        registrations.removeAll()
        let context = AppContext(system: self, generation: processGeneration)
        self.context = context
        policy = makePolicy?()
        record(.launch(reason: reason))
        registrations.isFinishingLaunch = true
        policy?.didFinishLaunching(context, reason: reason)
        registrations.isFinishingLaunch = false
    }

    /// Acts on a crash the last callback caused.
    func afterCallback(in simulation: inout Simulation<WorldEvent>) {
        if pendingCrash {
            pendingCrash = false
            terminate(.crash, in: &simulation)
        }
    }

    /// Ends the process: its in-memory state, registrations, assertions, tasks and timers go.
    func terminate(_ reason: TerminationReason, in simulation: inout Simulation<WorldEvent>) {
        guard processIsRunning else { return }
        record(.terminate(reason: reason))
        work.processTerminated(at: snapshot.now, killed: reason.isKill)
        processState = .notRunning
        policy = nil
        context = nil
        registrations.removeAll()
        timers.removeAll(in: &simulation)
        jetsam.cancel(in: &simulation)
        // Queued continued-processing requests go with the process (a force-quit cancels them [A]).
        if continued.hasQueued { record(.continuedProcessingQueueCancelled(count: UInt32(continued.queued.count))) }
        endDoors(in: &simulation)
        // A kill discards the push the system held for the app (a force-quit's discard is the caller's).
        if reason.discardsHeldPush { discardHeldPush(.appKilled, in: &simulation) }
    }
}
