import SimKernel

extension SimulatedSystem {
    // MARK: Background-task assertions

    func beginAssertion(name: String, expirationHandler: (() -> Void)?) -> BackgroundTaskIdentifier {
        let id = nextAssertionID
        nextAssertionID += 1
        assertions.append(Assertion(id: id, name: name, expirationHandler: expirationHandler))
        metrics.assertionsBegun += 1
        let identifier = BackgroundTaskIdentifier(rawValue: id)
        record(.beginBackgroundTask(id: identifier, name: name))
        return identifier
    }

    func endAssertion(_ identifier: BackgroundTaskIdentifier) {
        guard assertions.contains(where: { $0.id == identifier.rawValue }) else { return }
        assertions.removeAll { $0.id == identifier.rawValue }
        record(.endBackgroundTask(id: identifier))
    }

    /// Calls every held assertion's expiration handler, shortly before the budget ends.
    func warnAssertions() {
        assertionsWarned = true
        guard processState == .background else { return }
        for assertion in assertions {
            metrics.assertionExpirations += 1
            record(.backgroundTaskExpiring(id: BackgroundTaskIdentifier(rawValue: assertion.id)))
            assertion.expirationHandler?()
        }
    }

    /// `backgroundTimeRemaining`: `.max` in the foreground, otherwise what is left of the budget
    /// while an assertion is held, and zero when none is.
    var backgroundTimeRemaining: SimDuration {
        switch processState {
        case .foreground: return .max
        case .background where !assertions.isEmpty:
            let deadline = backgroundSince + .seconds(parameters.extensionBudgetSeconds)
            return Swift.max(.zero, snapshot.now.duration(to: deadline))
        default: return .zero
        }
    }

    // MARK: Timers

    func addTimer(after delay: SimDuration, handler: @escaping () -> Void) -> AppTimer {
        let id = nextTimerID
        nextTimerID &+= 1
        timers.append(TimerEntry(id: id, due: snapshot.now + Swift.max(.zero, delay), handler: handler))
        return AppTimer(id: id)
    }

    func cancelTimer(_ timer: AppTimer) {
        // The event, if scheduled, finds no entry and does nothing.
        timers.removeAll { $0.id == timer.id }
    }

    /// A timer's event: runs it if the app is running, or keeps it for when the app next runs.
    func timerFired(_ id: UInt32) {
        guard let index = timers.firstIndex(where: { $0.id == id }) else { return }
        timers[index].event = nil
        guard processState == .foreground || processState == .background else {
            timers[index].overdue = true
            return
        }
        let timer = timers.remove(at: index)
        timer.handler()
    }

    /// Runs the timers that came due while the app was suspended, in the order they came due.
    func fireOverdueTimers() {
        let due = timers.filter(\.overdue).sorted { ($0.due, $0.id) < ($1.due, $1.id) }
        timers.removeAll(where: \.overdue)
        for timer in due where processIsRunning {
            timer.handler()
        }
    }
}
