@testable import BackgroundSim
import SimKernel
import Testing

/// Xcode's `_simulateLaunchForTaskWithIdentifier:` and `_simulateExpirationForTaskWithIdentifier:`
/// as scenario events.
@Suite("Debugger commands")
struct DebuggerCommandTests {
    static let identifier = "com.example.debug"

    /// Asks for a refresh 12 h after leaving the app, and holds every task it gets until the
    /// task expires (then completes it, unsuccessfully).
    final class HoldingPolicy: BackgroundPolicy {
        func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
            app.taskScheduler.register(forTaskWithIdentifier: DebuggerCommandTests.identifier) { task in
                task.expirationHandler = { task.setTaskCompleted(success: false) }
            }
        }

        func didEnterBackground(_ app: AppContext) {
            var request = TaskRequest.appRefresh(identifier: DebuggerCommandTests.identifier)
            request.earliestBeginDate = app.date + .hours(12)
            try? app.taskScheduler.submit(request)
        }
    }

    func scenario(_ debugger: DebuggerCommands = DebuggerCommands()) -> Scenario {
        var scenario = Scenario().running("holding") { HoldingPolicy() }
        scenario.app.permittedIdentifiers = [Self.identifier]
        scenario.debugger = debugger
        return scenario
    }

    func log(_ scenario: Scenario, days: Int = 2) throws -> [SystemLogEntry] {
        final class Sink { var log: [SystemLogEntry] = [] }
        let sink = Sink()
        _ = try SimulationRunner.run(scenario: scenario, seed: 3, days: days, log: { sink.log.append($0) })
        return sink.log
    }

    /// Hours since the start of the first `didEnterBackground` (the request is then pending and
    /// the app suspended, not yet reclaimed), plus a second.
    func firstBackgroundHours() throws -> Double {
        let entry = try #require(try log(scenario()).first { $0.event == .didEnterBackground })
        return Double(entry.time.nanosecondsSinceStart + 1_000_000_000) / 3_600e9
    }

    @Test("a simulated launch delivers the pending request at once, and the system never expires its task")
    func launchWithoutExpiry() throws {
        let at = try firstBackgroundHours()
        var debugger = DebuggerCommands()
        debugger.simulateLaunch = [.init(atHours: at, identifier: Self.identifier)]
        let log = try log(scenario(debugger))
        let launch = try #require(log.firstIndex { $0.event == .simulatedLaunch(identifier: Self.identifier, outcome: .done) })
        #expect(abs(Double(log[launch].time.nanosecondsSinceStart) / 3_600e9 - at) < 1e-9)
        // The suspended app is resumed, then the task launched, at the same instant.
        let next = try #require(log[(launch + 1)...].first { if case .taskLaunch = $0.event { true } else { false } })
        #expect(next.time == log[launch].time)
        guard case .taskLaunch(Self.identifier, _, let serial, _) = next.event else { return }
        // Held for the rest of the run: never expired (a refresh task's allotment is 30 s), never killed.
        #expect(!log.contains { if case .taskExpire(_, serial, _) = $0.event { true } else { false } })
        #expect(!log.contains { if case .kill = $0.event { true } else { false } })
        // Without the command, nothing launches before the earliest begin date, 12 h later.
        let plain = try self.log(scenario())
        let firstLaunch = plain.first { if case .taskLaunch = $0.event { true } else { false } }
        #expect(firstLaunch.map { Double($0.time.nanosecondsSinceStart) / 3_600e9 >= at + 12 - 1e-6 } ?? true)
    }

    @Test("a simulated expiration expires the task at that moment; the app's handler completes it")
    func expiration() throws {
        let at = try firstBackgroundHours()
        var debugger = DebuggerCommands()
        debugger.simulateLaunch = [.init(atHours: at, identifier: Self.identifier)]
        debugger.simulateExpiration = [.init(atHours: at + 1, identifier: Self.identifier)]
        let log = try log(scenario(debugger))
        let expire = try #require(log.firstIndex { if case .taskExpire(Self.identifier, _, .timeUp) = $0.event { true } else { false } })
        #expect(abs(Double(log[expire].time.nanosecondsSinceStart) / 3_600e9 - (at + 1)) < 1e-9)
        #expect(log[expire - 1].event == .simulatedExpiration(identifier: Self.identifier, outcome: .done))
        guard case .taskCompleted(Self.identifier, _, false) = log[expire + 1].event else {
            Issue.record("the expiration handler's completion should follow: \(log[expire + 1].event)")
            return
        }
    }

    @Test("with no pending request, no running task or no process, a command does nothing and says why")
    func commandsThatFindNothing() throws {
        var debugger = DebuggerCommands()
        debugger.simulateLaunch = [.init(atHours: 0, identifier: Self.identifier), .init(atHours: 0.001, identifier: "other")]
        debugger.simulateExpiration = [.init(atHours: 0.002, identifier: Self.identifier)]
        let log = try log(scenario(debugger), days: 1)
        let outcomes = log.compactMap { entry -> DebuggerOutcome? in
            switch entry.event {
            case .simulatedLaunch(_, let outcome), .simulatedExpiration(_, let outcome): outcome
            default: nil
            }
        }
        // At the start the app has never been launched.
        #expect(outcomes == [.appNotRunning, .appNotRunning, .appNotRunning])
        let at = try firstBackgroundHours()
        debugger.simulateLaunch = [.init(atHours: at, identifier: "other")]
        debugger.simulateExpiration = [.init(atHours: at, identifier: Self.identifier)]
        let later = try self.log(scenario(debugger))
        #expect(later.contains { $0.event == .simulatedLaunch(identifier: "other", outcome: .noPendingRequest) })
        #expect(later.contains { $0.event == .simulatedExpiration(identifier: Self.identifier, outcome: .noRunningTask) })
    }

    @Test("debugger commands are validated with their paths")
    func validation() {
        var scenario = scenario()
        scenario.debugger.simulateLaunch = [.init(atHours: -1, identifier: "")]
        #expect(Set(scenario.validate().map(\.path)) == ["debugger.simulateLaunch[0].atHours", "debugger.simulateLaunch[0].identifier"])
    }
}
