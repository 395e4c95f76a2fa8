import SimKernel

// What the app asks of the system through its context, besides the task scheduler: assertions,
// timers, CPU use and random numbers.
extension SimulatedSystem {
    // MARK: Background-task assertions

    func beginAssertion(name: String, expirationHandler: (() -> Void)?) -> BackgroundTaskIdentifier {
        let id = assertions.begin(name: name, expirationHandler: expirationHandler)
        record(.beginBackgroundTask(id: id, name: name))
        return id
    }

    func endAssertion(_ id: BackgroundTaskIdentifier) {
        guard assertions.end(id) else { return }
        record(.endBackgroundTask(id: id))
    }

    /// Calls every held assertion's expiration handler, shortly before the budget ends.
    func warnAssertions() {
        let warned = assertions.beginWarning()
        guard processState == .background else { return }
        for assertion in warned {
            record(.backgroundTaskExpiring(id: assertion.id))
            assertion.expirationHandler?()
        }
    }

    /// `backgroundTimeRemaining`: `.max` in the foreground, otherwise what is left of the budget
    /// while an assertion is held, and zero when none is.
    var backgroundTimeRemaining: SimDuration {
        switch processState {
        case .foreground: return .max
        case .background where !assertions.isEmpty:
            let end = assertions.budgetEnd(budgetSeconds: parameters.extensionBudgetSeconds)
            return Swift.max(.zero, snapshot.now.duration(to: end))
        default: return .zero
        }
    }

    // MARK: Timers

    func addTimer(after delay: SimDuration, handler: @escaping () -> Void) -> AppTimer {
        timers.add(dueAt: snapshot.now + Swift.max(.zero, delay), handler: handler)
    }

    func cancelTimer(_ timer: AppTimer) {
        timers.cancel(timer)
    }

    /// A timer's event: runs it if the app is running, or keeps it for when the app next runs.
    func timerFired(_ id: UInt32) {
        let running = processState == .foreground || processState == .background
        if let handler = timers.fire(id, processRunning: running) { handler() }
    }

    /// Runs the timers that came due while the app was suspended, in the order they came due.
    func fireOverdueTimers() {
        for handler in timers.takeOverdue() where processIsRunning {
            handler()
        }
    }

    // MARK: CPU and randomness

    func setCPUUsage(_ share: Double) {
        running.reportedCPUShare = Swift.max(0, share)
    }

    /// Whether the CPU monitor's limit is exceeded now: a watched processing task runs and the
    /// app uses more than the limit — what the policy reported, or the work executor's share,
    /// whichever is higher.
    var exceedsCPULimit: Bool {
        Swift.max(running.reportedCPUShare, work.headCPUShare) * 100 > parameters.cpuMonitorPercent
            && running.cpuMonitored(ignoringExternalPower: parameters.cpuMonitorIgnoresExternalPower)
    }

    func appRandomUnit() -> Double {
        streams.app.unit()
    }

    func appRandomBits() -> UInt64 {
        streams.app.next()
    }

    func appRandomInt(in range: ClosedRange<Int>) -> Int {
        streams.app.int(in: range)
    }
}
