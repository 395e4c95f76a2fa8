@testable import BackgroundSim
import SimKernel
import Testing

/// Background URL sessions: the system's daemon carries the transfers the app hands it, whatever
/// the app's state, and launches the app when they have finished.
@Suite("Background URL sessions")
struct BackgroundURLSessionTests {
    /// 12.5 MB: 100 s at 1 Mbps.
    static let bytes = 12_500_000.0
    static let session = BackgroundSessionConfiguration.background(withIdentifier: "uploads")

    /// On a user launch: queues one upload of ``bytes`` and hands it to `configuration`; in the
    /// background (`handOffInBackground`) instead. Calls the completion handler unless told not to.
    final class HandOffPolicy: BackgroundPolicy {
        let configuration: BackgroundSessionConfiguration
        let handOffInBackground: Bool
        let callsCompletionHandler: Bool
        var events: [(String, SimInstant)] = []

        init(_ configuration: BackgroundSessionConfiguration = BackgroundURLSessionTests.session,
             handOffInBackground: Bool = false, callsCompletionHandler: Bool = true) {
            self.configuration = configuration
            self.handOffInBackground = handOffInBackground
            self.callsCompletionHandler = callsCompletionHandler
        }

        func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
            guard reason == .user, app.defaults.integer(forKey: "queued") == 0 else { return }
            app.defaults.set(1, forKey: "queued")
            try? app.work.enqueue(WorkRequest(uploadBytes: BackgroundURLSessionTests.bytes, label: "upload"))
            if !handOffInBackground { try? app.work.startHandingOff(to: configuration) }
        }

        func didEnterBackground(_ app: AppContext) {
            if handOffInBackground { try? app.work.startHandingOff(to: configuration) }
        }

        func handleEventsForBackgroundURLSession(_ app: AppContext, identifier: String, completionHandler: @escaping () -> Void) {
            if callsCompletionHandler { completionHandler() }
        }
    }

    /// The harness's quiet scenario (the eager launch model, which ignores budgets) on one
    /// network at 1 Mbps up.
    static func network(wifi: Bool = false, uplinkMbps: Double = 1) -> Scenario {
        SystemHarness.onOneNetwork(wifi: wifi, uplinkMbps: uplinkMbps)
    }

    func harness(_ scenario: Scenario = Self.network(uplinkMbps: 1),
                 _ policy: @escaping () -> any BackgroundPolicy = { HandOffPolicy() }) throws -> SystemHarness {
        try SystemHarness(scenario, policy: policy)
    }

    func completed(_ h: SystemHarness) -> Int { h.system.work.progress(label: "upload", at: h.simulation.now).completed }

    /// An hour of a phone on Wi-Fi at 1 Mbps, plugged in at 5 s, whose user opens the app at 10 s
    /// for 5 s: the app hands one upload to `atLaunch`'s session as it launches and another to
    /// `asTheAppLeaves`'s as the user leaves (discretionary, so it waits for Wi-Fi and power).
    func twoSessions(atLaunch: (session: BackgroundSessionConfiguration, bytes: Double),
                     asTheAppLeaves: (session: BackgroundSessionConfiguration, bytes: Double)) throws -> SystemHarness {
        let policy = {
            ScriptedPolicy(onLaunch: { app, reason in
                guard reason == .user else { return }
                try? app.work.enqueue(WorkRequest(uploadBytes: atLaunch.bytes, label: "upload"))
                try? app.work.startHandingOff(to: atLaunch.session)
            }, onBackground: { app in
                try? app.work.enqueue(WorkRequest(uploadBytes: asTheAppLeaves.bytes, label: "upload"))
                try? app.work.startHandingOff(to: asTheAppLeaves.session)
            }) as any BackgroundPolicy
        }
        let h = try SystemHarness(SystemHarness.onOneNetwork(wifi: true, uplinkMbps: 1), policy: policy)
        h.inject(.plugIn(overnight: false), at: .at(5))
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(3_600))
        return h
    }

    @Test("a handed-off transfer runs while the app is suspended; when it finishes the app is resumed for its events at once")
    func suspendedAppResumed() throws {
        let h = try harness()
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(3_600))
        #expect(h.entries(.sessionTransfersCreated).first?.event
                == .sessionTransfersCreated(session: "uploads", count: 1, discretionary: false, startsIn: .zero))
        let suspend = try #require(h.times(.suspend).first)
        #expect(suspend == .at(15))
        #expect(completed(h) == 1)
        // 100 s of transfer after the radio's promotion, from the hand-off at 10 s.
        let pending = try #require(h.entries(.sessionEventsPending).first)
        #expect(pending.event == .sessionEventsPending(session: "uploads"))
        #expect(pending.time > .at(110) && pending.time < .at(115))
        let handle = try #require(h.entries(.handleSessionEvents).first)
        #expect(handle.time == pending.time)
        #expect(h.times(.resume).contains(handle.time))
        #expect(h.entries(.sessionCompletionHandlerCalled).count == 1)
        #expect(h.system.metrics.sessionRelaunches == 1)
        // Suspended again once the handler is called.
        #expect(h.times(.suspend).last == handle.time)
    }

    /// `sessionSendsLaunchEvents` false: "the app is not resumed or launched" when the
    /// session's transfers finish [A]; the events wait for the app's next run.
    @Test("a session that sends no launch events does not wake the app: its events wait for the user's next open, with no retry")
    func noLaunchEvents() throws {
        var quiet = Self.session
        quiet.sessionSendsLaunchEvents = false
        let h = try harness { HandOffPolicy(quiet) }
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(7_200))
        #expect(completed(h) == 1)
        #expect(h.entries(.sessionEventsPending).count == 1)
        #expect(h.entries(.handleSessionEvents).isEmpty && h.entries(.sessionRelaunchDeferred).isEmpty)
        #expect(h.times(.resume).isEmpty && h.system.metrics.sessionRelaunches == 0)
        #expect(h.system.sessionEvents.waitsForAppToRun && !h.system.sessionEvents.relaunch.isScheduled)
        // The user's next open hears them.
        h.useApp(at: .at(7_300), for: .seconds(5))
        try h.run(until: .at(7_400))
        #expect(!h.system.sessionEvents.isWaiting && !h.system.sessionEvents.waitsForAppToRun)
        #expect(h.system.work.transfers.sessionsWithEvents.isEmpty)
        // The same transfer with launch events resumes the app (the test can fail).
        let plain = try harness()
        plain.useApp(at: .at(10), for: .seconds(5))
        try plain.run(until: .at(7_200))
        #expect(plain.system.metrics.sessionRelaunches == 1)
    }

    /// Two sessions wait at once, one without launch events: the launch is for the other, and
    /// the app, running, hears both; `handleEventsForBackgroundURLSession` only for the other.
    @Test("with sessions with and without launch events waiting, the app is launched for the one that sends them and hears both")
    func mixedLaunchEvents() throws {
        var quiet = Self.session
        quiet.identifier = "quiet"
        quiet.sessionSendsLaunchEvents = false
        let loud = BackgroundSessionConfiguration.background(withIdentifier: "loud")
        let h = try twoSessions(atLaunch: (quiet, Self.bytes / 10), asTheAppLeaves: (loud, Self.bytes))
        #expect(completed(h) == 2)
        let pending = h.entries(.sessionEventsPending).map(\.event)
        #expect(pending == [.sessionEventsPending(session: "quiet"), .sessionEventsPending(session: "loud")])
        #expect(h.entries(.handleSessionEvents).map(\.event) == [.handleSessionEvents(session: "loud")])
        #expect(h.system.metrics.sessionRelaunches == 1)
        #expect(!h.system.sessionEvents.isWaiting && h.system.work.transfers.sessionsWithEvents.isEmpty)
    }

    @Test("a transfer continues after the system terminates the app, which is then launched in the background for its events")
    func terminatedAppLaunched() throws {
        var scenario = Self.network(uplinkMbps: 1)
        scenario.faults.jetsams = [.init(atHours: 30.0 / 3_600)]
        let h = try harness(scenario)
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(3_600))
        #expect(h.entries(.terminate).first?.time == .at(30))
        #expect(completed(h) == 1)
        let launch = try #require(h.entries(.launch).last)
        #expect(launch.event == .launch(reason: .backgroundURLSession))
        #expect(h.entries(.handleSessionEvents).first?.time == launch.time)
    }

    @Test("a force-quit cancels the session's transfers: they go back to the app's queue and no events are delivered")
    func forceQuitCancels() throws {
        let h = try harness()
        h.useApp(at: .at(10), for: .seconds(5), forceQuit: true)
        try h.run(until: .at(3_600))
        #expect(h.entries(.sessionTransfersCancelled).first?.event == .sessionTransfersCancelled(session: "uploads", count: 1))
        #expect(h.system.metrics.sessionTransfersCancelled == 1)
        #expect(completed(h) == 0)
        #expect(h.system.work.pendingCount(at: h.simulation.now) == 1)
        #expect(h.entries(.handleSessionEvents).isEmpty)
        // Without the force-quit the same transfer completes (the test can fail).
        let plain = try harness()
        plain.useApp(at: .at(10), for: .seconds(5))
        try plain.run(until: .at(3_600))
        #expect(completed(plain) == 1)
    }

    @Test("transfers handed off as the user leaves the app and force-quits it are logged as created, then as cancelled, and counted so")
    func handOffAtAForceQuitIsCreatedFirst() throws {
        let h = try harness { HandOffPolicy(handOffInBackground: true) }
        h.useApp(at: .at(10), for: .seconds(5), forceQuit: true)
        try h.run(until: .at(3_600))
        let kinds = h.log.map(\.event.kind).filter { $0 == .sessionTransfersCreated || $0 == .sessionTransfersCancelled }
        #expect(kinds == [.sessionTransfersCreated, .sessionTransfersCancelled], "\(kinds)")
        #expect(h.system.metrics.sessionTransfersCreated == 1 && h.system.metrics.sessionTransfersCancelled == 1)
        // The hand-off and the force-quit fall in one event: nothing was reconciled between them.
        #expect(h.entries(.sessionTransfersCreated).first?.time == h.entries(.sessionTransfersCancelled).first?.time)
    }

    @Test("a discretionary transfer waits for Wi-Fi and the charger: not on cellular, not on Wi-Fi on battery, at once when plugged in on Wi-Fi")
    func discretionaryWaits() throws {
        var discretionary = Self.session
        discretionary.isDiscretionary = true
        // Cellular, plugged in: never.
        let cellular = try harness(Self.network(uplinkMbps: 1)) { HandOffPolicy(discretionary) }
        cellular.useApp(at: .at(10), for: .seconds(5))
        cellular.inject(.plugIn(overnight: false), at: .at(20))
        try cellular.run(until: .at(6 * 3_600))
        #expect(completed(cellular) == 0)
        // Wi-Fi on battery: waits; plugged in at 2 h: done about 100 s later.
        let wifi = try harness(Self.network(wifi: true, uplinkMbps: 1)) { HandOffPolicy(discretionary) }
        wifi.useApp(at: .at(10), for: .seconds(5))
        try wifi.run(until: .at(7_200))
        #expect(completed(wifi) == 0)
        wifi.inject(.plugIn(overnight: false), at: .at(7_200))
        try wifi.run(until: .at(7_200 + 99))
        #expect(completed(wifi) == 0)
        try wifi.run(until: .at(7_200 + 110))
        #expect(completed(wifi) == 1)
        // The same session not discretionary goes at once on cellular.
        let eager = try harness(Self.network(uplinkMbps: 1)) { HandOffPolicy() }
        eager.useApp(at: .at(10), for: .seconds(5))
        try eager.run(until: .at(200))
        #expect(completed(eager) == 1)
    }

    @Test("Low Data Mode: a discretionary transfer waits on a constrained Wi-Fi even on the charger; a session that does not allow constrained networks waits too; an ordinary one goes")
    func lowDataMode() throws {
        var scenario = Self.network(wifi: true, uplinkMbps: 1)
        scenario.network.lowDataModeOnWifi = true
        var discretionary = Self.session
        discretionary.isDiscretionary = true
        var unconstrained = Self.session
        unconstrained.allowsConstrainedNetworkAccess = false
        for (configuration, goes) in [(discretionary, false), (unconstrained, false), (Self.session, true)] {
            let h = try harness(scenario) { HandOffPolicy(configuration) }
            h.inject(.plugIn(overnight: false), at: .at(1))
            h.useApp(at: .at(10), for: .seconds(5))
            try h.run(until: .at(3_600))
            #expect(completed(h) == (goes ? 1 : 0), "\(configuration)")
        }
    }

    @Test("transfers handed off in the background are discretionary, whatever the configuration")
    func backgroundHandOffIsDiscretionary() throws {
        let h = try harness(Self.network(uplinkMbps: 1)) { HandOffPolicy(handOffInBackground: true) }
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(6 * 3_600))
        #expect(h.entries(.sessionTransfersCreated).first?.event
                == .sessionTransfersCreated(session: "uploads", count: 1, discretionary: true, startsIn: .zero))
        #expect(completed(h) == 0)
    }

    @Test("a transfer waits while the network is down and resumes where it was: a 40 s outage delays it by at least 40 s")
    func resumesAfterNetworkLoss() throws {
        func completion(flaps: [FaultPlan.NetworkFlap]) throws -> SimInstant {
            var scenario = Self.network(uplinkMbps: 1)
            scenario.faults.networkFlaps = flaps
            let h = try harness(scenario)
            h.useApp(at: .at(10), for: .seconds(5))
            try h.run(until: .at(3_600))
            return try #require(h.entries(.sessionEventsPending).first).time
        }
        let plain = try completion(flaps: [])
        // One cycle in the window: offline 40 s from 50 s, then online.
        let flapped = try completion(flaps: [.init(fromHours: 50.0 / 3_600, toHours: 50.0 / 3_600 + 100.0 / 3_600, offSeconds: 40, onSeconds: 60)])
        let delay = plain.duration(to: flapped).seconds
        #expect(delay >= 40 && delay < 45)
    }

    @Test("a transfer created in the background waits out the resume limiter's delay, which doubles at each launch for events (60 s, 120 s) and starts over in the foreground")
    func limiterHoldsBackgroundTransfers() throws {
        // Each launch for events hands off one more transfer, created in the background
        // (discretionary, so Wi-Fi and the charger), one at a time as Quinn's example does.
        final class Chain: BackgroundPolicy {
            func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
                if reason == .user { hand(app) }
            }
            func willEnterForeground(_ app: AppContext) { hand(app) }
            func hand(_ app: AppContext) {
                try? app.work.enqueue(WorkRequest(uploadBytes: 1_250_000, label: "upload"))
                try? app.work.startHandingOff(to: BackgroundURLSessionTests.session)
            }
            func handleEventsForBackgroundURLSession(_ app: AppContext, identifier: String, completionHandler: @escaping () -> Void) {
                if app.work.progress(label: "upload").completed < 3 { hand(app) }
                completionHandler()
            }
        }
        var scenario = Self.network(wifi: true, uplinkMbps: 1)
        scenario.power.overnightChargeProbability = 0
        let h = try harness(scenario) { Chain() }
        h.inject(.plugIn(overnight: false), at: .at(1))
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(3_600))
        let created = h.entries(.sessionTransfersCreated)
        let waits = created.map { entry -> Double in
            guard case .sessionTransfersCreated(_, _, _, let startsIn) = entry.event else { return -1 }
            return startsIn.seconds
        }
        #expect(waits == [0, 60, 120])
        // The first transfer, created in the foreground, takes d from creation to its events; the
        // launch for them is at once, and the next transfer, created in that launch, finishes
        // the delay plus d later (the same 1.25 MB on the same idle link).
        let launches = h.entries(.handleSessionEvents).map(\.time)
        try #require(launches.count == 3 && created.count == 3)
        let d = created[0].time.duration(to: launches[0])
        #expect(d > .seconds(10) && d < .seconds(15))
        #expect(created[1].time == launches[0] && created[2].time == launches[1])
        #expect(launches[1] == launches[0] + .seconds(60) + d)
        #expect(launches[2] == launches[1] + .seconds(120) + d)
        // No launch waits: each is at the moment the session's transfers finished.
        #expect(h.entries(.sessionEventsPending).map(\.time) == launches)
        // A return to the foreground resets it: created in the foreground, no wait.
        h.useApp(at: .at(3_700), for: .seconds(5))
        try h.run(until: .at(7_200))
        let last = try #require(h.entries(.sessionTransfersCreated).last)
        #expect(last.time == .at(3_700))
        #expect(last.event == .sessionTransfersCreated(session: "uploads", count: 1, discretionary: false, startsIn: .zero))
    }

    @Test("the limiter starts over when twice its delay passes with no launch for events: a transfer created then starts at once")
    func limiterLapses() throws {
        var delivery = SessionEventDelivery(parameters: BackgroundURLSessionParameters())
        var simulation = Simulation<WorldEvent>()
        #expect(delivery.startDelay(at: .at(0)) == .zero)
        delivery.launched(at: .at(100), generation: 1, identifiers: ["a"], in: &simulation)
        #expect(delivery.startDelay(at: .at(100)) == .seconds(60))
        #expect(delivery.startDelay(at: .at(220)) == .seconds(60))
        #expect(delivery.startDelay(at: .at(221)) == .zero)
        delivery.launched(at: .at(200), generation: 1, identifiers: ["a"], in: &simulation)
        #expect(delivery.startDelay(at: .at(200)) == .seconds(120))
        delivery.launched(at: .at(1_000), generation: 1, identifiers: ["a"], in: &simulation)
        #expect(delivery.startDelay(at: .at(1_000)) == .seconds(60))
        delivery.appEnteredForeground()
        #expect(delivery.startDelay(at: .at(1_001)) == .zero)
    }

    /// Two sessions finish one after the other: the launch for the first's events starts the
    /// limiter's 60 s, and the second's, ready 10 s later, waits for it (WWDC 2020 10063: rate
    /// limiting applies to the launch event upon completion).
    @Test("a launch for URL-session events 10 s after the last is denied for the rate limit and made when the limiter's 60 s are up")
    func completionLaunchRateLimited() throws {
        let first = BackgroundSessionConfiguration.background(withIdentifier: "first")
        let second = BackgroundSessionConfiguration.background(withIdentifier: "second")
        let h = try twoSessions(atLaunch: (first, Self.bytes), asTheAppLeaves: (second, Self.bytes / 10))
        #expect(completed(h) == 2)
        let pending = h.entries(.sessionEventsPending)
        let launches = h.entries(.handleSessionEvents)
        try #require(pending.count == 2 && launches.count == 2)
        #expect(launches.map(\.event) == [.handleSessionEvents(session: "first"), .handleSessionEvents(session: "second")])
        // The first is launched the moment its transfer ends (100 s of it, from 10 s).
        #expect(launches[0].time == pending[0].time && pending[0].time > .at(110) && pending[0].time < .at(115))
        // The second's transfer (10 s) ends within the limiter's 60 s: held back for the rate
        // limit at once, and launched exactly 60 s after the first.
        #expect(pending[1].time < launches[0].time + .seconds(60))
        let deferred = h.entries(.sessionRelaunchDeferred)
        #expect(deferred.map(\.event) == [.sessionRelaunchDeferred(session: "second", reason: .rateLimit)])
        #expect(deferred.first?.time == pending[1].time)
        #expect(launches[1].time == launches[0].time + .seconds(60))
        #expect(h.system.metrics.sessionRelaunches == 2)
    }

    /// App usage applies to the launch event too: events ready after `refreshRecencyDays` (here
    /// half a day) without an open are not a launch; the same scenario with a day's window is.
    @Test("no launch for URL-session events for an app not opened within refreshRecencyDays: denied for appNotUsedRecently, heard at the next open")
    func completionLaunchNeedsRecentUse() throws {
        func run(recencyDays: Double) throws -> SystemHarness {
            var scenario = SystemHarness.onOneNetwork(wifi: true, uplinkMbps: 1)
            scenario.system.heuristic.refreshRecencyDays = recencyDays
            // Handed off in the background, the transfer is discretionary: it waits for the
            // charger, plugged in 13 hours after the app was last used.
            let h = try harness(scenario) { HandOffPolicy(handOffInBackground: true) }
            h.useApp(at: .at(10), for: .seconds(5))
            h.inject(.plugIn(overnight: false), at: .at(13 * 3_600))
            h.useApp(at: .at(14 * 3_600), for: .seconds(5))
            try h.run(until: .at(15 * 3_600))
            return h
        }
        let stale = try run(recencyDays: 0.5)
        #expect(completed(stale) == 1)
        let pending = try #require(stale.entries(.sessionEventsPending).first)
        #expect(pending.time > .at(13 * 3_600) && pending.time < .at(13 * 3_600 + 120))
        let deferred = stale.entries(.sessionRelaunchDeferred)
        #expect(deferred.first?.event == .sessionRelaunchDeferred(session: "uploads", reason: .appNotUsedRecently))
        #expect(deferred.first?.time == pending.time)
        // Asked again every 15 minutes until the user opens the app at 14 h, which hears them.
        #expect(deferred.count == 4)
        #expect(stale.entries(.handleSessionEvents).isEmpty && stale.system.metrics.sessionRelaunches == 0)
        #expect(!stale.system.sessionEvents.isWaiting)
        let recent = try run(recencyDays: 1)
        #expect(recent.entries(.sessionRelaunchDeferred).isEmpty)
        #expect(recent.entries(.handleSessionEvents).first?.time == recent.entries(.sessionEventsPending).first?.time)
    }

    /// An update restarts the phone at 03:00 (off 15 min) in the middle of a 100 s upload; the
    /// user unlocks it at 08:00. Until then the phone joins no Wi-Fi, the only network it has.
    @Test("before the first unlock after a restart the phone joins no Wi-Fi: a Wi-Fi-only transfer waits for the unlock, one allowed on cellular goes on over cellular")
    func firstUnlockWithoutWiFi() throws {
        func run(allowsCellular: Bool) throws -> SystemHarness {
            var scenario = Self.network(wifi: true, uplinkMbps: 1)
            scenario.restarts.updateEveryDays = 1
            var configuration = Self.session
            configuration.allowsCellularAccess = allowsCellular
            let h = try harness(scenario) { HandOffPolicy(configuration) }
            h.inject(.plugIn(overnight: true), at: .at(60))
            h.useApp(at: .at(3 * 3_600 - 60), for: .seconds(5))
            h.inject(.sessionStart, at: .at(8 * 3_600))
            h.inject(.sessionEnd, at: .at(8 * 3_600 + 30))
            try h.run(until: .at(9 * 3_600))
            return h
        }
        let started = SimInstant.at(3 * 3_600) + .minutes(15), unlocked = SimInstant.at(8 * 3_600)
        let wifiOnly = try run(allowsCellular: false)
        #expect(wifiOnly.entries(.phoneStarted).map(\.time) == [started])
        // From the start to the unlock, 4 h 45 min, on cellular; on Wi-Fi the rest of the time.
        #expect(wifiOnly.world.device.metrics.cellularSeconds == 17_100)
        #expect(wifiOnly.world.device.network.interface == .wifi)
        let waited = try #require(wifiOnly.entries(.sessionEventsPending).first)
        #expect(waited.time > unlocked && waited.time < unlocked + .seconds(60))
        let cellular = try run(allowsCellular: true)
        let went = try #require(cellular.entries(.sessionEventsPending).first)
        #expect(went.time > started && went.time < started + .seconds(60))
        // Its events wait for the unlock too: no background launch before it.
        #expect(cellular.entries(.sessionRelaunchDeferred).first?.event
                == .sessionRelaunchDeferred(session: "uploads", reason: .beforeFirstUnlock))
        let launch = try #require(cellular.entries(.handleSessionEvents).first)
        #expect(launch.time >= unlocked && launch.time <= unlocked + .minutes(15))
    }

    @Test("a completion handler not called by the end of the events' 30 s is logged, and the app is then suspended")
    func handlerNotCalled() throws {
        let h = try harness(Self.network(uplinkMbps: 1)) { HandOffPolicy(callsCompletionHandler: false) }
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(3_600))
        let handle = try #require(h.entries(.handleSessionEvents).first)
        let missed = try #require(h.entries(.sessionCompletionHandlerNotCalled).first)
        #expect(missed.time == handle.time + .seconds(30))
        #expect(h.times(.suspend).last == missed.time)
        #expect(h.system.metrics.sessionCompletionHandlersNotCalled == 1)
    }

    @Test("budgets hold back the launch for events under the heuristic model (energy budget 1 J a day: deferred for energyBudget), not under the eager one")
    func budgetsDefer() throws {
        var scenario = SystemHarness.onOneNetwork(uplinkMbps: 1)
        scenario.system.budget.energyJoulesPerDay = 1
        scenario.system.launchModel = .heuristic
        let h = try harness(scenario)
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(3_600))
        #expect(completed(h) == 1)
        let deferred = try #require(h.entries(.sessionRelaunchDeferred).first)
        #expect(deferred.event == .sessionRelaunchDeferred(session: "uploads", reason: .energyBudget))
        #expect(h.system.metrics.sessionRelaunchesDeferred >= 1)
        scenario.system.launchModel = .eager
        let eager = try harness(scenario)
        eager.useApp(at: .at(10), for: .seconds(5))
        try eager.run(until: .at(3_600))
        #expect(eager.entries(.sessionRelaunchDeferred).isEmpty && eager.entries(.handleSessionEvents).count == 1)
    }

    @Test("the app pays for the daemon's transfer: radio energy while it is suspended, and its cellular bytes count against the data budget")
    func energyAndDataBooked() throws {
        let h = try harness()
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(3_600))
        #expect(completed(h) == 1)
        // Sent from 10 s, the app in the background from 15 s: all but 5 s of 100 s at 1 Mbps count.
        let counted = h.system.work.dataBudgetBytes
        #expect(counted > Self.bytes * 0.94 && counted <= Self.bytes * 0.96 + 1)
        let active = h.world.device.ledger.fromBattery[EnergyConsumer.appRadioActive.rawValue]
        let tail = h.world.device.ledger.fromBattery[EnergyConsumer.appRadioTail.rawValue]
        #expect(active > 50 && tail > 0)
        // On Wi-Fi nothing counts against the data budget.
        let wifi = try harness(Self.network(wifi: true))
        wifi.useApp(at: .at(10), for: .seconds(5))
        try wifi.run(until: .at(3_600))
        #expect(completed(wifi) == 1 && wifi.system.work.dataBudgetBytes == 0)
    }

    @Test("no transfer moves while the phone is off: a battery death at 50 s stops it until the phone is back on")
    func phoneOff() throws {
        var scenario = Self.network()
        scenario.faults.batteryDeaths = [.init(atHours: 50.0 / 3_600)]
        let h = try harness(scenario)
        h.useApp(at: .at(10), for: .seconds(5))
        try h.run(until: .at(6 * 3_600))
        #expect(completed(h) == 0)
        #expect(h.system.work.transfers.count == 1)
    }

    @Test("a configuration out of range is refused with its field's path")
    func validation() throws {
        var bad = Self.session
        bad.identifier = ""
        var issue: ScenarioIssue?
        let h = try harness(Self.network()) {
            ScriptedPolicy(onLaunch: { app, _ in
                do throws(ScenarioIssue) { try app.work.startHandingOff(to: bad) } catch { issue = error }
            })
        }
        h.useApp(at: .at(10))
        try h.run(until: .at(100))
        #expect(issue?.path == "identifier")
    }
}
