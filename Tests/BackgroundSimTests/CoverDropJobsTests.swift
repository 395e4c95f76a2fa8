@testable import BackgroundSim
import SimKernel
import Testing

/// CoverDrop as shipped at a cold background launch: the library starts first, then the
/// launch's job and the task handler's job run at the same time, as the app's code lets them
/// (guardian/coverdrop at `a43016f`, under `ios/reference/CoverDropCore/Sources/CoverDropCore/`:
/// `Services/CoverDropService.swift`, `Services/BackgroundTaskService.swift`,
/// `Services/BackgroundMessageSendJob.swift`, `Repositories/PublicDataRepository.swift`).
@Suite("CoverDrop's overlapping jobs")
struct CoverDropJobsTests {
    static let identifier = CoverDropShippedParameters().identifier

    /// A quiet phone on Wi-Fi whose suspended app is soon terminated (so that the task's launch
    /// is cold), with 1 kB messages in an 8-slot queue and no workload of its own.
    static var scenario: Scenario {
        var scenario = SystemHarness.onOneNetwork(wifi: true)
        scenario.app.permittedIdentifiers = [identifier]
        scenario.system.suspendedTerminationPerHour = 10
        scenario.work.arrivals = .none
        scenario.work.maximumQueuedItems = 8
        return scenario
    }

    /// What happened up to the end of the first task, launched cold: the user opens the app once
    /// (the flag is not set yet, so no job), leaves, and three real messages are queued before
    /// the task runs.
    struct Outcome {
        var launch: SimInstant
        var firstWorkStart: SimInstant?
        var taskSucceeded: Bool?
        var work: WorkMetrics
        var queuedAfter: Int
        var coldLaunch: Bool
    }

    /// The phone of ``scenario`` with `parameters`, run until its first task has completed (in
    /// 10 s steps, so that later runs do not count): the user opens the app once at 100 s (the
    /// flag is not set yet, so no job), leaves, and `messages` real 1 kB messages are queued at
    /// 200 s.
    func firstTask(_ parameters: CoverDropShippedParameters, messages: Int) throws -> SystemHarness {
        let h = try SystemHarness(Self.scenario) { CoverDropShipped(parameters: parameters) }
        h.useApp(at: .at(100))
        try h.run(until: .at(200))
        for _ in 0..<messages { h.system.work.enqueue(created: .at(200), uploadBytes: 1_000) }
        var time = SimInstant.at(200)
        while h.entries(.taskCompleted).isEmpty && time < .at(4 * 3_600) {
            time = time + .seconds(10)
            try h.run(until: time)
        }
        return h
    }

    func outcome(_ configure: (inout CoverDropShippedParameters) -> Void) throws -> Outcome {
        var parameters = CoverDropShippedParameters()
        configure(&parameters)
        let h = try firstTask(parameters, messages: 3)
        let launch = try #require(h.entries(.taskLaunch).first)
        let index = try #require(h.log.firstIndex { $0.time == launch.time && $0.event.kind == .launch })
        guard case .taskLaunch(_, _, let serial, _) = launch.event else { throw CancellationError() }
        let completed = h.entries(.taskCompleted).first {
            if case .taskCompleted(_, serial, _) = $0.event { return true } else { return false }
        }
        var success: Bool?
        if case .taskCompleted(_, _, let value)? = completed?.event { success = value }
        let metrics = h.system.work.metrics
        return Outcome(launch: launch.time, firstWorkStart: h.entries(.workStart).first { $0.time >= launch.time }?.time,
                       taskSucceeded: success, work: metrics, queuedAfter: h.system.work.pendingCount(at: h.simulation.now),
                       coldLaunch: h.log[index].event == .launch(reason: .backgroundTask))
    }

    @Test("as the code runs them: both jobs start when the library is ready (launch + 3 s) and pass the hourly limit; m1 goes twice, m2 and m3 once, and the cover message behind them is dequeued unsent")
    func jobsOverlap() throws {
        let o = try outcome { _ in }
        #expect(o.coldLaunch)
        #expect(o.firstWorkStart == o.launch + .seconds(3))
        #expect(o.taskSucceeded == true, "the handler's job passed the limit too")
        // Three real messages and one cover message padding the pair of runs to four dequeues:
        // both jobs peek m1; the first to finish dequeues m1 and peeks m2, the other dequeues m2
        // and peeks m3; their second dequeues remove m3 and the cover message. Nothing left.
        #expect(o.work.completed == 3)
        #expect(o.work.failedGivenUp == 0)
        #expect(o.work.coverSent == 0 && o.work.coverUnsent == 1)
        #expect(o.queuedAfter == 0)
        #expect(o.work.uploadTraffic.uploads == 4, "four sends went on the wire")
    }

    /// Five real messages queued: no padding, and the one lost is the fourth.
    @Test("an overlapped pair of runs with five real messages queued loses exactly one, the fourth: m1 twice, m2 and m3 sent, at 2, 3 and 4 sends' time after the radio's promotion; m5 stays queued")
    func jobsOverlapLoseTheFourth() throws {
        let h = try firstTask(CoverDropShippedParameters(), messages: 5)
        let metrics = h.system.work.metrics
        #expect(metrics.completed == 3)
        #expect(metrics.failedGivenUp == 1, "m4, dequeued by the second job's last dequeue, never sent")
        #expect(metrics.coverSent == 0 && metrics.coverUnsent == 0)
        #expect(h.system.work.pendingCount(at: h.simulation.now) == 1)
        #expect(metrics.uploadTraffic.uploads == 4)
        // The sends' times: one 1 kB send takes T on the link; the first goes twice (2 T), then
        // one each. The run's end (limit reached) is the third completion.
        let start = try #require(h.entries(.workStart).last).time
        let end = try #require(h.entries(.workLimitReached).last).time
        let scenario = Self.scenario
        let t = 1_000 / (scenario.network.wifiUplinkMbps * 125_000)
        let expected = scenario.energy.wifi.promotionSeconds + 4 * t
        #expect(abs(start.duration(to: end).seconds - expected) < 1e-6,
                "\(start.duration(to: end).seconds) s from the start to the run's end; expected the Wi-Fi promotion and 4 sends, \(expected) s")
    }

    @Test("one job after the other (jobsOverlap false, no library start): the launch's job sends two, the task's job is skipped by the hourly limit and completes false")
    func jobsOneAfterTheOther() throws {
        let o = try outcome { $0.jobsOverlap = false; $0.libraryStartSeconds = 0 }
        #expect(o.coldLaunch)
        #expect(o.firstWorkStart == o.launch)
        #expect(o.taskSucceeded == false)
        #expect(o.work.completed == 2 && o.work.failedGivenUp == 0)
        #expect(o.queuedAfter == 1)
        #expect(o.work.uploadTraffic.uploads == 2)
    }

    @Test("a library start that fails runs no job and completes the waiting task false when it fails")
    func libraryStartFails() throws {
        let o = try outcome { $0.libraryStartFailureProbability = 1 }
        #expect(o.coldLaunch)
        #expect(o.firstWorkStart == nil)
        #expect(o.taskSucceeded == false)
        #expect(o.work.completed == 0 && o.queuedAfter == 3)
    }
}
