import BackgroundSim
import Foundation
import SimKernel
@testable import SimulatedBackgroundTasks
import Testing

@Suite("Dispatch, OperationQueue and Timer in the app's code run in simulated time")
struct SimulatedDispatchTests {
    /// Each line the app's code printed, with the seconds since the first launch.
    static func printed(_ log: [SystemLogEntry]) -> [(seconds: Double, line: String)] {
        guard let start = log.first(where: { if case .launch = $0.event { true } else { false } })?.time else { return [] }
        return log.compactMap { entry in
            guard case .appOutput(let line) = entry.event else { return nil }
            return (Double(entry.time.nanosecondsSinceStart - start.nanosecondsSinceStart) / 1e9, line)
        }
    }

    @Test("queues run their blocks in order, asyncAfter at exact simulated instants, a group notifies after its work, a cancelled item and cancelled operations never run, dependencies order operations, and a repeating timer fires every 10 s until invalidated", arguments: [AppProcessIsolation.processPerLaunch, .sharedProcess])
    func dispatchInSimulatedTime(isolation: AppProcessIsolation) throws {
        // Long sessions: the app stays in the foreground while it all runs (the test's premise).
        let run = try runAppCodeTimed("dispatch", scenario: #"{"user": {"sessionMedianSeconds": 600, "sessionSigma": 0.1, "app": {"sessionMedianSeconds": 600, "sessionSigma": 0.1}}}"#,
                                      days: 1, isolation: isolation) { DispatchProbeDelegate() }
        let launch = try #require(run.log.first { if case .launch(.user) = $0.event { true } else { false } })
        let left = try #require(run.log.first { if case .didEnterBackground = $0.event { true } else { false } })
        try #require(left.time - launch.time > .seconds(35))
        let lines = Self.printed(run.log)
        let immediate = lines.filter { $0.seconds == 0 }.map(\.line)
        #expect(immediate == ["launched", "serial a", "serial b", "main", "global", "operation first", "operation second",
                              "operation second completed"], "\(lines)")
        #expect(lines.first { $0.line == "after 1.5 s" }?.seconds == 1.5)
        #expect(lines.filter { $0.line.hasPrefix("group ") }.map(\.line) == ["group one", "group two", "group done"])
        #expect(lines.filter { $0.line.hasPrefix("group ") }.allSatisfy { $0.seconds == 2 })
        #expect(lines.first { $0.line == "after 5 s" }?.seconds == 5)
        #expect(lines.filter { $0.line.hasPrefix("tick") }.map(\.seconds) == [10, 20, 30])
        #expect(!lines.contains { $0.line.contains("cancelled item") || $0.line.contains("doomed") })
    }

    @Test("DispatchQueue.main.async in an expiration handler completes the task in simulated time, at the expiration's instant: no kill")
    func mainQueueCompletionInTime() throws {
        let run = try runAppCodeTimed("main-expiration", taskIdentifiers: [MainQueueExpirationDelegate.identifier], days: 7,
                                      isolation: .processPerLaunch) { MainQueueExpirationDelegate() }
        let expirations = run.log.filter { if case .taskExpire = $0.event { true } else { false } }
        #expect(expirations.count >= 3)
        for expiration in expirations {
            let completed = run.log.contains { entry in
                if case .taskCompleted(_, _, false) = entry.event { entry.time == expiration.time } else { false }
            }
            #expect(completed, "at \(expiration.time)")
        }
        #expect(!run.log.contains { if case .kill = $0.event { true } else { false } })
    }

    @Test("a semaphore wait nothing can signal while it waits crashes the process (blockingWait) and names the file and line of the wait")
    func semaphoreWaitIsReported() throws {
        let run = try runAppCodeTimed("semaphore", scenario: #"{"user": {"app": {"forceQuitProbability": 1}}}"#, days: 3,
                                      isolation: .processPerLaunch) { SemaphoreWaitingDelegate() }
        #expect(run.result.os.metrics.crashes(.blockingWait) == 1)
        let lines = Self.printed(run.log).map(\.line)
        guard let waiting = lines.first(where: { $0.hasPrefix("waiting at line ") }) else {
            Issue.record("no wait: \(lines)")
            return
        }
        let line = waiting.dropFirst("waiting at line ".count)
        #expect(lines.contains { $0.hasPrefix("SimulatedConcurrencyTests/DispatchProbe.swift:\(line): DispatchSemaphore.wait()") }, "\(lines)")
        #expect(!lines.contains("never printed"))
        #expect(run.log.filter { if case .launch = $0.event { true } else { false } }.count >= 3, "the run goes on")
    }
}

@Suite("A repeating Timer late by several periods")
struct TimerGridTests {
    @Test("fires once, then keeps to its original grid: late by 35 s on a 10 s grid, it next fires at 40 s")
    func keepsItsGrid() {
        let start = Date(timeIntervalSince1970: 1_000)
        #expect(Timer.nextFiring(after: start, every: 10, now: start.addingTimeInterval(35)) == start.addingTimeInterval(40))
        #expect(Timer.nextFiring(after: start, every: 10, now: start) == start.addingTimeInterval(10))
        #expect(Timer.nextFiring(after: start, every: 10, now: start.addingTimeInterval(10)) == start.addingTimeInterval(20))
    }
}
