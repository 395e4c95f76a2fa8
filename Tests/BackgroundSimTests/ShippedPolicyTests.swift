@testable import BackgroundSim
import SimKernel
import Testing

/// Each seed app's shipped behaviour (docs/POLICIES.md gives the repository, path and commit of
/// each), checked on preset runs through the system's log.
@Suite("Seed apps as shipped")
struct ShippedPolicyTests {
    typealias Run = ReferencePolicyTests.Run
    func run(_ scenario: Scenario, seed: UInt64 = 1, days: Int = 60) throws -> Run {
        try ReferencePolicyTests().run(scenario, seed: seed, days: days)
    }

    /// The entry after each `taskLaunch` of `identifier`, in log order.
    func entriesAfterLaunches(_ run: Run, identifier: String) -> [SystemLogEntry] {
        var result: [SystemLogEntry] = []
        for (index, entry) in run.log.enumerated() {
            if case .taskLaunch(identifier, _, _, _) = entry.event, index + 1 < run.log.count { result.append(run.log[index + 1]) }
        }
        return result
    }

    // MARK: CoverDrop

    @Test("CoverDrop as designed takes the shipped code's constants where its document gives none")
    func designedTakesShippedConstants() {
        let designed = CoverDropDesignedParameters(), shipped = CoverDropShippedParameters()
        #expect(designed.meanDelayMinutes == shipped.meanDelayMinutes)
        #expect(designed.messagesPerRun == shipped.messagesPerRun)
        #expect(designed.minimumDelayMinutes == shipped.minimumDelayMinutes && designed.maximumDelayMinutes == shipped.maximumDelayMinutes)
        #expect(designed.minimumRunIntervalMinutes == shipped.minimumRunIntervalMinutes)
    }

    @Test("CoverDrop as shipped: every finished run sends at least two messages, padded with cover, and at most three (two jobs at once: the first message twice); nothing is ever cancelled")
    func coverDropShippedSendsFixedRuns() throws {
        let run = try run(Presets.scenario(named: "coverdrop-shipped")!, days: 120)
        let work = run.result.work.metrics
        let finishedRuns = run.entries(.workLimitReached).count
        let startedRuns = run.entries(.workStart).count
        let sent = work.completed + work.coverSent
        #expect(finishedRuns > 100)
        // A run of one job sends 2; a run of two overlapping jobs sends 3 different messages,
        // the first of them twice.
        #expect(sent >= 2 * finishedRuns && sent <= 3 * startedRuns, "\(sent) messages, \(finishedRuns)–\(startedRuns) runs")
        #expect(sent > 2 * startedRuns, "some runs were two jobs at once")
        #expect(work.coverSent > 5 * work.completed, "most sends are cover")
        #expect(run.entries(.cancel).isEmpty && run.entries(.cancelAll).isEmpty)
        // The designed policy sends real messages only, and cancels on success.
        let designed = try self.run(Presets.scenario(named: ReferenceApp.CoverDropName.designed)!, days: 120)
        #expect(designed.result.work.metrics.coverSent == 0)
        #expect(!designed.entries(.cancel).isEmpty)
    }

    @Test("CoverDrop as shipped resubmits first thing in its handler (5–120 min, no failsafe); the July 2025 build asks for processing, which its Info.plist does not permit: refused every time, it never runs in the background")
    func coverDropResubmitsInHandler() throws {
        let identifier = CoverDropShippedParameters().identifier
        let shipped = try run(Presets.scenario(named: "coverdrop-shipped")!, days: 30)
        let afterLaunch = entriesAfterLaunches(shipped, identifier: identifier)
        #expect(afterLaunch.count > 30)
        for entry in afterLaunch {
            guard case .submit(identifier, .appRefresh, let delay) = entry.event else {
                Issue.record("after a launch: \(entry.event)")
                continue
            }
            #expect(delay >= .minutes(5) - .milliseconds(1) && delay <= .minutes(120) + .milliseconds(1))
        }
        let july = try run(Presets.scenario(named: "coverdrop-processing-2025-07")!, days: 30)
        let refused = july.entries(.submitError)
        #expect(refused.count > 30)
        #expect(refused.allSatisfy { $0.event == .submitError(identifier: identifier, error: .notPermitted) })
        #expect(july.entries(.submit).isEmpty && july.entries(.taskLaunch).isEmpty)
        #expect(july.entries(.launch).allSatisfy { $0.event == .launch(reason: .user) })
        #expect(july.result.work.metrics.completed > 0, "the runs at each foreground still send")
    }

    @Test("CoverDrop as shipped: a run within the hour of the last one is skipped and completes with false")
    func coverDropSkippedRunsFail() throws {
        let run = try run(Presets.scenario(named: "coverdrop-shipped")!, days: 60)
        // A skipped run completes at its launch instant, before any work starts.
        var launchedAt: [UInt32: SimInstant] = [:]
        var skipped = 0, succeeded = 0
        for entry in run.log {
            switch entry.event {
            case .taskLaunch(_, _, let serial, _): launchedAt[serial] = entry.time
            case .taskCompleted(_, let serial, let success):
                if success { succeeded += 1 } else if launchedAt[serial] == entry.time { skipped += 1 }
            default: break
            }
        }
        #expect(skipped > 0 && succeeded > 0, "\(skipped) skipped, \(succeeded) succeeded")
    }

    // MARK: Zashi

    @Test("Zashi as shipped asks for the next night 03:00–04:00 (sync) and the next day 14:00–15:00 (scheduler), local time")
    func zashiWindows() throws {
        let scenario = Presets.scenario(named: "zashi-shipped")!
        let calendar = scenario.calendar.calendar
        let run = try run(scenario, days: 30)
        let parameters = ZashiShippedParameters()
        let windows: [String: ClosedRange<SimDuration>] = [
            parameters.syncIdentifier: .hours(3)...(.hours(4)), parameters.schedulerIdentifier: .hours(14)...(.hours(15)),
        ]
        var counts: [String: Int] = [:]
        for entry in run.entries(.submit) {
            guard case .submit(let identifier, .processing, let delay) = entry.event, let window = windows[identifier] else {
                Issue.record("unexpected \(entry.event)")
                continue
            }
            let begin = entry.time + delay
            #expect(window.contains(calendar.timeOfDay(at: begin)), "\(identifier) at \(calendar.timeOfDay(at: begin))")
            #expect(calendar.day(of: begin) == calendar.day(of: entry.time) + 1, "the next local day")
            counts[identifier, default: 0] += 1
        }
        #expect(counts[parameters.syncIdentifier] == counts[parameters.schedulerIdentifier], "always submitted together")
        #expect((counts[parameters.syncIdentifier] ?? 0) > 30)
    }

    @Test("Zashi as shipped: a sync launched cold while the phone is locked fails; keys readable after first unlock sync more")
    func zashiLockedPhone() throws {
        var scenario = Presets.scenario(named: "zashi-shipped")!
        let identifier = ZashiShippedParameters().syncIdentifier
        func successfulSyncs(_ run: Run) -> Int {
            run.entries(.taskCompleted).count { if case .taskCompleted(identifier, _, true) = $0.event { true } else { false } }
        }
        let locked = try run(scenario, days: 120)
        var parameters = ZashiShippedParameters()
        parameters.coldLaunchNeedsUnlock = false
        scenario.app.policy.parameters = parameters
        let unlocked = try run(scenario, days: 120)
        // Cold background launches (most night syncs: the suspended app is reclaimed) fail locked.
        #expect(unlocked.result.os.metrics.backgroundProcessLaunches > 10)
        #expect(successfulSyncs(unlocked) > successfulSyncs(locked) + 10,
                "\(successfulSyncs(locked)) syncs with keys that need an unlocked phone, \(successfulSyncs(unlocked)) without")
    }

    // MARK: Proton Drive

    @Test("Proton as shipped in the App Store build: the extension only, nothing ever submitted")
    func protonStoreBuild() throws {
        let run = try run(Presets.scenario(named: "proton-upload-shipped")!, days: 60)
        #expect(run.entries(.submit).isEmpty)
        #expect(run.result.os.metrics.assertionsBegun > 0)
        #expect(run.result.work.completed > 0)
    }

    @Test("Proton's Photos backup: submitted on leaving with no earliest date when photos wait, else a day ahead; runs in processing tasks")
    func photosBackup() throws {
        let run = try run(Presets.scenario(named: "proton-photos-backup")!, days: 60)
        let identifier = ProtonPhotosBackupParameters().identifier
        let delays = run.entries(.submit).filter {
            if case .submit(identifier, _, _) = $0.event { true } else { false }
        }.compactMap(run.delaySeconds)
        #expect(delays.contains(0) && delays.contains(86_400))
        #expect(delays.allSatisfy { $0 == 0 || abs($0 - 86_400) < 1e-3 }, "nil or +1 day")
        #expect(run.result.os.metrics.processingLaunches > 10)
        #expect(run.entries(.cancel).count > 10, "cancelled in the foreground")
    }

    @Test("Proton's Photos backup completes a task only after uploading: with nothing waiting, or off Wi-Fi (Wi-Fi only by default), it runs until it expires; an app lock with a timeout submits nothing")
    func photosBackupCompletesOnlyAfterUploads() throws {
        // Photos every two hours: a task that finds none waiting, or finds the phone on cellular, expires.
        let run = try run(Presets.scenario(named: "proton-photos-backup")!, days: 60)
        let identifier = ProtonPhotosBackupParameters().identifier
        let expired = run.entries(.taskExpire).count
        let completedFalse = run.entries(.taskCompleted).filter {
            if case .taskCompleted(identifier, _, false) = $0.event { true } else { false }
        }.count
        #expect(expired > 0 && completedFalse == expired, "every false completion is an expiry: \(completedFalse) of \(expired)")
        // On cellular only, nothing is backed up in the background.
        var cellular = Presets.scenario(named: "proton-photos-backup")!
        SystemHarness.alwaysOnOneNetwork(&cellular, wifi: false)
        let onCellular = try self.run(cellular, days: 30)
        #expect(onCellular.entries(.taskCompleted).allSatisfy {
            if case .taskCompleted(identifier, _, true) = $0.event { false } else { true }
        })
        var locked = Presets.scenario(named: "proton-photos-backup")!
        var parameters = ProtonPhotosBackupParameters()
        parameters.appLockWithTimeout = true
        locked.app.policy.parameters = parameters
        #expect(try self.run(locked, days: 30).entries(.submit).allSatisfy {
            if case .submit(identifier, _, _) = $0.event { false } else { true }
        }, "the reminder's own scheduler is not gated on the lock in the model")
    }

    /// The quiet phone on Wi-Fi (uplink 8 Mbit/s) with the Photos backup and no workload of its
    /// own, its reminder permitted and, with `permitsProcessing`, its processing task.
    func photosHarness(permitsProcessing: Bool = true,
                       _ configure: (inout ProtonPhotosBackupParameters) -> Void = { _ in }) throws -> SystemHarness {
        var scenario = SystemHarness.onOneNetwork(wifi: true, uplinkMbps: 8)
        let defaults = ProtonPhotosBackupParameters()
        scenario.app.permittedIdentifiers = (permitsProcessing ? [defaults.identifier] : []) + [defaults.reminderIdentifier]
        scenario.work.arrivals = .none
        var parameters = defaults
        configure(&parameters)
        return try SystemHarness(scenario) { ProtonPhotosBackup(parameters: parameters) }
    }

    @Test("Proton's Photos backup keeps uploading under an extension when the user leaves (DC+Populate.swift); without it, nothing is uploaded after leaving")
    func photosBackupUploadsWhenLeaving() throws {
        func uploadedAfterLeaving(_ uploadsWhenLeaving: Bool) throws -> (Int, [SystemLogEntry]) {
            // Only the reminder is permitted: no processing task to upload after leaving.
            let h = try photosHarness(permitsProcessing: false) { $0.uploadsWhenLeaving = uploadsWhenLeaving }
            // Ten 10 MB photos (10 s each at 8 Mbit/s); the user looks at the app for 30 s.
            for _ in 0..<10 { h.system.work.enqueue(created: .at(50), uploadBytes: 10_000_000) }
            h.useApp(at: .at(100), for: .seconds(30))
            try h.run(until: .at(130))
            let before = h.system.work.metrics.completed
            try h.run(until: .at(300))
            return (h.system.work.metrics.completed - before, h.entries(.beginBackgroundTask))
        }
        let (with, extensions) = try uploadedAfterLeaving(true)
        #expect(extensions.map(\.time) == [.at(130)])
        // The extension's 30 s carry about three more photos.
        #expect(with >= 2 && with <= 4, "\(with) photos after leaving")
        let (without, none) = try uploadedAfterLeaving(false)
        #expect(without == 0 && none.isEmpty)
    }

    @Test("Proton's reminder (checkNewPhotoInGallery) asks for an app refresh 2 days after leaving, then 4 days after its run in the same process; a return to the app cancels it and starts again at 2")
    func photosReminderDoubles() throws {
        let identifier = ProtonPhotosBackupParameters().reminderIdentifier
        let h = try photosHarness()
        h.useApp(at: .at(100))
        try h.run(until: .at(5 * 86_400))
        let submits = h.entries(.submit).compactMap { entry -> SimDuration? in
            guard case .submit(identifier, .appRefresh, let delay) = entry.event else { return nil }
            return delay
        }
        #expect(submits.first == .hours(48))
        #expect(submits.dropFirst().first == .hours(96), "resubmitted by its run, in the same process: \(submits)")
        let launches = h.entries(.taskLaunch).filter {
            if case .taskLaunch(identifier, .appRefresh, _, _) = $0.event { true } else { false }
        }
        #expect(launches.count == 1 && launches[0].time >= .at(160) + .hours(48))
        // A return to the app cancels the reminder; leaving again asks for 2 days, not 8.
        h.useApp(at: .at(5 * 86_400 + 100))
        try h.run(until: .at(5 * 86_400 + 200))
        guard case .submit(identifier, .appRefresh, let delay)? = h.entries(.submit).last(where: {
            if case .submit(identifier, _, _) = $0.event { true } else { false }
        })?.event else {
            Issue.record("no reminder after the second visit")
            return
        }
        #expect(delay == .hours(48))
        #expect(h.entries(.cancel).contains { $0.event == .cancel(identifier: identifier) })
    }
}
