import BackgroundSim
import SimKernel
@testable import BackgroundSimCalibration
@testable import BackgroundSimLab
import Testing

/// Whether the tests run in an optimised build. The calibrations on logs of a realistic size —
/// every known-answer case, each a search from several starts, a bootstrap and replays — take
/// minutes each unoptimised, and the tests that simulate dozens of phones for weeks to write
/// their logs take 4 to 50 s each in a debug build, whose internal checks run after every
/// mutation: they run only optimised, in CI's optimised build (`swift test -c release -Xswiftc
/// -enable-testing --filter BackgroundSimCalibrationTests`), which covers this target. The
/// presets they simulate run under the checks in the debug suite (a year of each: the pinned digests).
enum TestBuild {
    static let isOptimized = BuildConfiguration.isOptimized

    /// The trait of a test that runs only optimised.
    static let optimizedOnly = Testing.ConditionTrait.enabled(if: isOptimized, "a full calibration or dozens of simulated phones: optimised builds only (CI runs them so)")
}

/// Field logs of simulated phones, the known answer calibration must recover.
enum SimulatedLogs {
    /// `preset` with nothing a field log cannot show (no force-quits, no Low Power Mode): the
    /// launch model's assumptions hold exactly.
    static func clean(_ preset: String) -> Scenario {
        var scenario = Presets.scenario(named: preset)!
        scenario.user.app.forceQuitProbability = 0
        scenario.power.lowPowerModeAcceptProbability = 0
        return scenario
    }

    static func records(_ scenario: Scenario, devices: Int, days: Int) -> [FieldLogRecord] {
        (try? FieldLogRecorder.run(scenario, seeds: (1...UInt64(devices)).map { $0 }, days: days, jobs: 2).records) ?? []
    }

    /// 24 CoverDrop phones (refresh) and 24 Zashi phones (processing, two requests, one needing
    /// power) over 14 days, clean.
    static let coverdrop = records(clean("coverdrop-shipped"), devices: 24, days: 14)
    static let zashi = records(clean("zashi-shipped"), devices: 24, days: 14)
    /// 50 CoverDrop phones over 14 days, clean: the fewest refresh logs whose parameters get
    /// intervals (``LaunchCalibration/minimumDevices(_:)``).
    static let coverdropIdentified = records(clean("coverdrop-shipped"), devices: 50, days: 14)
}

@Suite("Fitting the launch model to field logs")
struct LaunchFitTests {
    static let coverdrop = DeviceHistory.histories(SimulatedLogs.coverdrop)
    static let zashi = DeviceHistory.histories(SimulatedLogs.zashi)
    static let zashiPhone = try! PhoneStateProfile.measure(SimulatedLogs.clean("zashi-shipped"), jobs: 2)

    @Test("replaying a simulated log under the parameters that wrote it explains every launch, of either kind", TestBuild.optimizedOnly)
    func replayExplainsEveryLaunch() {
        let truth = HeuristicLaunchParameters()
        let refresh = LaunchFit.score(Self.coverdrop, kind: .refresh, truth, phone: Self.zashiPhone, jobs: 2)
        #expect(refresh.launches > 500 && refresh.unexplained == 0)
        let processing = LaunchFit.score(Self.zashi, kind: .processing, truth, phone: Self.zashiPhone, jobs: 2)
        #expect(processing.launches > 200 && processing.unexplained == 0)
        // Halving the refresh base budget leaves launches the token bucket cannot pay for.
        var stingy = truth
        stingy.refreshBasePerDay = 0.5
        let worse = LaunchFit.score(Self.coverdrop, kind: .refresh, stingy, phone: Self.zashiPhone, jobs: 2)
        #expect(worse.unexplained > 0 && worse.logLikelihood < refresh.logLikelihood)
    }

    @Test("maximum likelihood from a wrong start recovers the refresh budgets that wrote the log (within 10 %)", TestBuild.optimizedOnly)
    func recoversRefreshBudgets() {
        var start = HeuristicLaunchParameters()
        start.refreshBasePerDay = 1.6
        start.refreshPerAppSession = 1.3
        let fit = LaunchFit.fit(Self.coverdrop, kind: .refresh, base: start, phone: Self.zashiPhone, jobs: 2)
        #expect(abs(fit.parameters.refreshBasePerDay - 1) < 0.1, "\(fit.parameters.refreshBasePerDay)")
        #expect(abs(fit.parameters.refreshPerAppSession - 2) < 0.2, "\(fit.parameters.refreshPerAppSession)")
        #expect(fit.score.unexplained == 0)
    }

    @Test("far from the base values (a base of 3 a day, 0.3 per session, a 1.5-day fade against 1, 2 and 5): the search ends at least as likely as the truth, its starts agree, and it lands near the truth", TestBuild.optimizedOnly)
    func recoversValuesFarFromTheBase() throws {
        var scenario = SimulatedLogs.clean("coverdrop-shipped")
        var truth = HeuristicLaunchParameters()
        truth.refreshBasePerDay = 3
        truth.refreshPerAppSession = 0.3
        truth.refreshFadeHalfLifeDays = 1.5
        scenario.system.heuristic = truth
        let histories = DeviceHistory.histories(SimulatedLogs.records(scenario, devices: 24, days: 14))
        let fit = LaunchFit.fit(histories, kind: .refresh, base: HeuristicLaunchParameters(), phone: Self.zashiPhone, jobs: 2)
        let atTruth = LaunchFit.score(histories, kind: .refresh, truth, phone: Self.zashiPhone, jobs: 2)
        // A climb from the base alone, or from the two best grid points, stopped 2.9 units below
        // the maximum on these logs; the five starts find it.
        #expect(fit.score.logLikelihood >= atTruth.logLikelihood, "\(fit.score.logLikelihood) < \(atTruth.logLikelihood) at the truth")
        #expect(fit.convergence.converged, "\(fit.convergence)")
        #expect(fit.convergence.starts.count >= 2 && fit.convergence.starts.count <= 1 + LaunchFit.gridStarts)
        // 24 phones × 14 days: the maximum is near the truth, not on it.
        #expect(abs(fit.parameters.refreshBasePerDay / 3 - 1) < 0.1, "\(fit.parameters.refreshBasePerDay)")
        #expect(abs(fit.parameters.refreshPerAppSession / 0.3 - 1) < 0.35, "\(fit.parameters.refreshPerAppSession)")
        #expect(abs(fit.parameters.refreshFadeHalfLifeDays / 1.5 - 1) < 0.35, "\(fit.parameters.refreshFadeHalfLifeDays)")
    }

    @Test("a search whose starts end on different maxima says so: a narrow peak only one start finds, a wide lower one the others climb")
    func searchSaysWhenStartsDisagree() {
        let coordinates = LaunchFit.Coordinates(kind: .refresh, keys: [.refreshBasePerDay])
        let narrow = PortableMath.log(10.0), wide = PortableMath.log(0.3)
        // ℓ(u): a narrow peak of 0 at ln 10, a wide one of −3 at ln 0.3.
        let objective: ([Double]) -> Double = { point in
            let u = point[0]
            return Swift.max(-50 * (u - narrow) * (u - narrow), -3 - (u - wide) * (u - wide))
        }
        let result = LaunchFit.search(coordinates: coordinates, base: HeuristicLaunchParameters(), objective: objective)
        #expect(abs(result.point[0] - narrow) < 0.01)
        #expect(!result.convergence.converged)
        #expect(result.convergence.problem?.contains("the starts disagree") == true, "\(result.convergence)")
        // One peak: every start agrees.
        let single = LaunchFit.search(coordinates: coordinates, base: HeuristicLaunchParameters()) { -($0[0] - wide) * ($0[0] - wide) }
        #expect(single.convergence.converged && abs(single.point[0] - wide) < 0.01)
    }

    @Test("a maximum on the edge of a parameter's valid range is not a converged fit, and the search tells starts that agree on it (a likelihood the logs do not bound) from starts that do not")
    func edgeIsNotConverged() {
        let coordinates = LaunchFit.Coordinates(kind: .refresh, keys: [.refreshFadeHalfLifeDays])
        // Rising without bound towards short fades: the best value is the range's 0.5 days.
        let result = LaunchFit.search(coordinates: coordinates, base: HeuristicLaunchParameters()) { -$0[0] }
        #expect(result.convergence.problem?.contains("refreshFadeHalfLifeDays is on the edge of its valid range") == true, "\(result.convergence)")
        // Rising towards short fades and flat beyond the range's edge, as a likelihood the logs
        // do not bound: every start ends at the edge, equally likely, so they agree.
        let flat = LaunchFit.search(coordinates: coordinates, base: HeuristicLaunchParameters()) { -Swift.max($0[0], -0.693_147_180_559_945_3) }
        #expect(flat.convergence.problem?.contains("on the edge of its valid range") == true, "\(flat.convergence)")
        #expect(flat.convergence.startsAgree)
        #expect(!result.convergence.startsAgree)   // without bound, each start ends somewhere else
    }

    @Test("a processing log whose requests all need power cannot inform the battery chance: it is held, and said to be")
    func holdsWhatTheLogCannotInform() throws {
        let records = SimulatedLogs.records(SimulatedLogs.clean("probe-processing"), devices: 6, days: 7)
        var base = HeuristicLaunchParameters()
        base.processingBatteryChancePerEvaluation = 0.2
        let fit = LaunchFit.fit(DeviceHistory.histories(records), kind: .processing, base: base, phone: Self.zashiPhone, jobs: 2)
        let battery = try #require(fit.fitted.first { $0.key == .processingBatteryChancePerEvaluation })
        #expect(battery.heldBecause != nil && battery.value == 0.2)
        #expect(fit.fitted.first { $0.key == .processingChargingChancePerEvaluation }?.heldBecause == nil)
    }

    @Test("the bootstrap's sandwich step matches a hand-made quadratic log-likelihood")
    func sandwichStep() {
        // Two devices with ℓᵢ(u) = −(u − cᵢ)², c = ±1: H = −4, scores at 0 are ±2 → B = 8,
        // V = H⁻¹BH⁻¹ = 8/16 = 0.5, so the step is √0.5.
        let centres = [1.0, -1.0]
        func perDevice(_ u: Double) -> [Double] { centres.map { -($0 - u) * ($0 - u) } }
        let steps = LaunchFitBootstrap.gridSteps(center: perDevice(0), k: 1, h: 0.1) { moves in
            perDevice(moves.reduce(0) { $0 + $1.by })
        }
        #expect(abs(steps[0] - 0.5.squareRoot()) < 1e-9, "\(steps)")
    }
}

@Suite("Calibration on logs with a known answer")
struct LaunchCalibrationTests {
    @Test("calibrating on simulated logs recovers the generating parameters within their intervals, and every feature fits", TestBuild.optimizedOnly)
    func recoversWithinIntervals() throws {
        let truth = HeuristicLaunchParameters()
        for (records, preset) in [(SimulatedLogs.coverdropIdentified, "coverdrop-shipped"), (SimulatedLogs.zashi, "zashi-shipped")] {
            let calibration = try LaunchCalibration.run(records, sources: ["simulated"], base: SimulatedLogs.clean(preset), jobs: 2)
            #expect(calibration.kinds.count == 1)
            for kind in calibration.kinds {
                #expect(kind.unexplained == 0)
                for parameter in kind.parameters where parameter.heldBecause == nil {
                    let generating = LaunchFit.Coordinates.value(parameter.key, of: truth)
                    let low = try #require(parameter.low), high = try #require(parameter.high)
                    #expect(low <= generating && generating <= high, "\(preset) \(parameter.key): \(generating) not in \(low)–\(high) (fit \(parameter.value))")
                    #expect(low <= parameter.value && parameter.value <= high)
                }
                #expect(kind.goodness.misfits.isEmpty, "\(preset): \(kind.goodness.misfits.map(\.verdict))")
            }
            // The fragment carries every fitted value, to four significant digits.
            let fragment = try ScenarioLoader.decode(JSONWriter.pretty(calibration.fragment), source: "fragment.json")
            for parameter in calibration.identifiedParameters {
                #expect(LaunchFit.Coordinates.value(parameter.key, of: fragment.system.heuristic) == LaunchCalibration.fourSignificantDigits(parameter.value))
            }
            #expect(!calibration.identifiedParameters.isEmpty)
        }
    }

    @Test("a fade the logs bound from one side only (generated at the range's end, 30 days) gets an interval to the range's end, the other parameters theirs, in every format", TestBuild.optimizedOnly)
    func edgeGetsAOneSidedInterval() throws {
        var scenario = SimulatedLogs.clean("coverdrop-shipped")
        scenario.system.heuristic.refreshFadeHalfLifeDays = 30
        let records = SimulatedLogs.records(scenario, devices: 50, days: 14)
        let calibration = try LaunchCalibration.run(records, sources: ["fade30"], base: SimulatedLogs.clean("coverdrop-shipped"), jobs: 2)
        let kind = try #require(calibration.kinds.first)
        // These logs' likelihood rises towards the range's end: every start ends there.
        try #require(!kind.convergence.converged && kind.convergence.startsAgree, "\(kind.convergence)")
        #expect(kind.isIdentified)
        let fade = try #require(kind.parameters.first { $0.key == .refreshFadeHalfLifeDays })
        #expect(fade.onRangeEdge && fade.value == 30 && fade.high == 30, "\(fade)")
        #expect((fade.low ?? 30) < 20, "\(fade)")
        for parameter in kind.parameters where parameter.key != .refreshFadeHalfLifeDays {
            let generating = LaunchFit.Coordinates.value(parameter.key, of: scenario.system.heuristic)
            let low = try #require(parameter.low), high = try #require(parameter.high)
            #expect(!parameter.onRangeEdge && low <= generating && generating <= high, "\(parameter)")
        }
        let verdict = CalibrationFormatter.verdict(calibration)
        #expect(verdict.contains("refreshFadeHalfLifeDays is on the edge of its range (30)") && !verdict.contains("did not converge"), "\(verdict)")
        let table = CalibrationFormatter.table(calibration, fragmentPath: nil)
        #expect(table.contains("on the edge of its range: bounded from one side only"))
        #expect(table.contains("interval profiled over refreshFadeHalfLifeDays, on the edge of its range"), "\(table)")
        #expect(JSONWriter.pretty(CalibrationFormatter.json(calibration)).contains("\"onRangeEdge\": true"))
        // The others' intervals are not conditional on the edge: from a point interval at the
        // fit, the profile over the fade (free) widens each on both sides; with no parameter
        // on an edge nothing changes.
        let base = SimulatedLogs.clean("coverdrop-shipped")
        let scorer = LaunchScorer(DeviceHistory.histories(records), kind: .refresh, base: base.system.heuristic,
                                  phone: try PhoneStateProfile.measure(base, jobs: 2), jobs: 2)
        var narrow = LaunchFit.fit(scorer, base: base.system.heuristic)
        for index in narrow.fitted.indices {
            narrow.fitted[index].onRangeEdge = narrow.fitted[index].key == .refreshFadeHalfLifeDays
            narrow.fitted[index].low = narrow.fitted[index].value
            narrow.fitted[index].high = narrow.fitted[index].value
        }
        let profiled = narrow.spanningProfileOverEdges(scorer: scorer, base: base.system.heuristic)
        for (before, after) in zip(narrow.fitted, profiled.fitted) where !before.onRangeEdge {
            #expect((after.low ?? 0) < before.value && (after.high ?? 0) > before.value, "\(after)")
        }
        var noEdge = narrow
        for index in noEdge.fitted.indices { noEdge.fitted[index].onRangeEdge = false }
        #expect(noEdge.spanningProfileOverEdges(scorer: scorer, base: base.system.heuristic).fitted.map(\.low) == noEdge.fitted.map(\.low))
    }

    @Test("3 phones × 2 days are too small to tell: the values come without intervals, no feature is judged, and the verdict says so in every format", TestBuild.optimizedOnly)
    func tinyLogsAreNotIdentified() throws {
        let records = SimulatedLogs.records(SimulatedLogs.clean("coverdrop-shipped"), devices: 3, days: 2)
        let calibration = try LaunchCalibration.run(records, sources: ["tiny"], base: SimulatedLogs.clean("coverdrop-shipped"), jobs: 2)
        let kind = try #require(calibration.kinds.first)
        #expect(kind.tooSmall?.contains("3 devices (at least 50 are needed)") == true, "\(kind.tooSmall ?? "nil")")
        #expect(!kind.isIdentified)
        #expect(kind.parameters.allSatisfy { $0.low == nil && $0.high == nil })
        #expect(calibration.misfits.isEmpty && kind.goodness.rows.allSatisfy { $0.verdict.hasPrefix("not judged: ") && $0.adjustedP == nil })
        let verdict = CalibrationFormatter.verdict(calibration)
        #expect(verdict.hasPrefix("Verdict: the logs are too small to tell"), "\(verdict)")
        #expect(CalibrationFormatter.table(calibration, fragmentPath: nil).contains("no interval: the logs are too small"))
        #expect(CalibrationFormatter.markdown(calibration, fragmentPath: nil).contains("The logs are too small to identify the parameters"))
        #expect(CalibrationReport.html(calibration).contains("The logs are too small to identify the parameters"))
        #expect(JSONWriter.pretty(CalibrationFormatter.json(calibration)).contains("\"tooSmall\": \"3 devices"))
        // The fragment carries none of the values the logs did not identify, and says so.
        #expect(calibration.identifiedParameters.isEmpty)
        let fragment = JSONWriter.pretty(calibration.fragment)
        #expect(!fragment.contains("\"refreshBasePerDay\": "), "\(fragment)")
        #expect(calibration.provenance.contains("Not written to this fragment") && !calibration.provenance.contains("Every feature of the logs fits"))
    }

    /// The clean CoverDrop logs changed by `change`, sorted again by device and time.
    static func changed(_ change: ([FieldLogRecord]) -> [FieldLogRecord]) -> [FieldLogRecord] {
        change(SimulatedLogs.coverdropIdentified).sorted { ($0.device, $0.time.milliseconds) < ($1.device, $1.time.milliseconds) }
    }

    /// Every refresh launch moved to 03:00 of its day, on Wi-Fi and the charger: what the model,
    /// which launches refresh ahead of the user's hours of use, cannot make.
    static let nightWiFiOnly = changed { records in
        records.compactMap { record in
            guard record.event != .taskCompleted else { return nil }
            guard record.event == .taskLaunched else { return record }
            var moved = record
            moved.time = LocalTimestamp(date: record.time.date, secondsSinceMidnight: 3 * 3_600)
            (moved.network, moved.charging) = (.wifi, true)
            return moved
        }
    }

    @Test("launches only at night on Wi-Fi are a misfit, said as one: the verdict names the features, whether or not the search converged", TestBuild.optimizedOnly)
    func nightWiFiOnlyIsAMisfit() throws {
        let calibration = try LaunchCalibration.run(Self.nightWiFiOnly, sources: ["night"], base: SimulatedLogs.clean("coverdrop-shipped"), jobs: 2)
        let verdict = CalibrationFormatter.verdict(calibration)
        #expect(calibration.misfits.count >= 5, "\(calibration.misfits.map(\.verdict))")
        #expect(verdict.hasPrefix("Verdict: the fitted model does not reproduce"), "\(verdict)")
        #expect(!verdict.contains("not evidence against the model") && !verdict.contains("optimiser's failure"), "\(verdict)")
    }

    @Test("launches that ignore use (no open in the logs): the model denies every due evaluation, so nothing is fitted, said truthfully, 'converged' is false, and the verdict is a misfit", TestBuild.optimizedOnly)
    func useIndependentLaunchesAreAMisfit() throws {
        let records = Self.changed { $0.filter { $0.event != .appForeground && $0.event != .appBackground } }
        let calibration = try LaunchCalibration.run(records, sources: ["no opens"], base: SimulatedLogs.clean("coverdrop-shipped"), jobs: 2)
        let kind = try #require(calibration.kinds.first)
        #expect(kind.parameters.allSatisfy { $0.heldBecause?.hasPrefix("requests were due at ") == true }, "\(kind.parameters.map(\.heldBecause))")
        #expect(!kind.convergence.converged && kind.convergence.starts.isEmpty)
        #expect(JSONWriter.pretty(CalibrationFormatter.json(calibration)).contains("\"converged\": false"))
        #expect(kind.unexplained == kind.launches && kind.launches > 100)
        let verdict = CalibrationFormatter.verdict(calibration)
        #expect(verdict.hasPrefix("Verdict: the fitted model does not reproduce"), "\(verdict)")
        #expect(verdict.contains("Nothing fitted for refresh (every parameter held: requests were due at "), "\(verdict)")
        #expect(calibration.identifiedParameters.isEmpty && !JSONWriter.pretty(calibration.fragment).contains("\"refreshBasePerDay\": "))
    }

    @Test("logs that start after install are told apart by firstLaunch: every simulated device's log begins with it, none whose first 2 days are dropped does, those take every request they show as pending from their first record, and the report says so", TestBuild.optimizedOnly)
    func midHistoryLogsAreFlagged() throws {
        let fromInstall = DeviceHistory.histories(SimulatedLogs.coverdrop)
        #expect(fromInstall.allSatisfy { $0.startsAtInstall && $0.earlierRequests.isEmpty && $0.loggedUse == nil })
        #expect(SimulatedLogs.coverdrop.count { $0.firstLaunch == true } == fromInstall.count)
        let firstDay = try #require(SimulatedLogs.coverdrop.map(\.time.date.daysSinceEpoch).min())
        let late = SimulatedLogs.coverdrop.filter { $0.time.date.daysSinceEpoch >= firstDay + 2 }
        let histories = DeviceHistory.histories(late)
        #expect(histories.allSatisfy { !$0.startsAtInstall })
        for history in histories {
            let identifiers = Set(late.filter { $0.device == history.device && $0.identifier != nil }.map { $0.identifier! })
            #expect(Set(history.earlierRequests.map(\.identifier)) == identifiers, "\(history.device)")
            #expect(history.earlierRequests.allSatisfy { $0.earliest == history.start })
        }
        // Three of them, calibrated (too few to judge, quickly).
        let three = Set(histories.prefix(3).map(\.device))
        var calibration = try LaunchCalibration.run(late.filter { three.contains($0.device) }, sources: ["late"],
                                                    base: SimulatedLogs.clean("coverdrop-shipped"), jobs: 2)
        #expect(calibration.devicesStartingMidHistory == 3)
        #expect(CalibrationFormatter.verdict(calibration).contains("3 of 3 devices' logs start after the app was installed"))
        calibration.devicesStartingMidHistory = 0
        #expect(!CalibrationFormatter.verdict(calibration).contains("after the app was installed"))
    }

    @Test("a silence of 7 days or more soon after an open splits a device's log: none in simulated logs; 8 days of three devices' records removed give each two histories, the second replayed as begun after install, and their calibration says so", TestBuild.optimizedOnly)
    func longSilenceSplitsALog() throws {
        #expect(!DeviceHistory.histories(SimulatedLogs.coverdrop).contains { $0.followsSilence })
        #expect(!DeviceHistory.histories(SimulatedLogs.zashi).contains { $0.followsSilence })
        let firstDay = try #require(SimulatedLogs.coverdrop.map(\.time.date.daysSinceEpoch).min())
        let devices = Array(Set(SimulatedLogs.coverdrop.map(\.device))).sorted().prefix(3)
        // Days 4–11 of the three devices' logs lost: a silence of at least 8 days.
        let holed = SimulatedLogs.coverdrop.filter { record in
            devices.contains(record.device) && !(firstDay + 4..<firstDay + 12).contains(record.time.date.daysSinceEpoch)
        }
        let histories = DeviceHistory.histories(holed)
        #expect(histories.count == 6)
        for (before, after) in zip(histories.filter { !$0.followsSilence }, histories.filter { $0.followsSilence }) {
            #expect(before.device == after.device && before.startsAtInstall && !after.startsAtInstall)
            // Each history's times count from its own first day's midnight.
            func since1970(_ history: DeviceHistory, _ time: Double) -> Double { Double(history.firstDate.daysSinceEpoch) * 86_400 + time }
            #expect(since1970(after, after.start) - since1970(before, before.end) >= DeviceHistory.splittingSilenceDays * 86_400)
            #expect(after.loggedUse != nil && !after.earlierRequests.isEmpty)
        }
        let calibration = try LaunchCalibration.run(holed, sources: ["holed"], base: SimulatedLogs.clean("coverdrop-shipped"), jobs: 2)
        #expect(calibration.devices == 6 && calibration.historiesAfterSilence == 3 && calibration.devicesStartingMidHistory == 3)
        #expect(CalibrationFormatter.verdict(calibration).contains("3 of them are the part of a device's log after a silence of 7 days or more"))
    }

    @Test("a user's 14-day holiday from the app is a silence of a week or more for some phones, mostly beginning days after their last open, so it splits at most a quarter of those logs (a split at every long silence would split them all)")
    func holidaySplitsFewLogs() {
        var scenario = SimulatedLogs.clean("coverdrop-shipped")
        scenario.user.app.absences = [AppAbsence(startDay: 4, days: 14)]
        let records = SimulatedLogs.records(scenario, devices: 24, days: 21)
        let longSilences = FieldLogFormat.devices(records).count { device in
            zip(device, device.dropFirst()).contains { $1.time.seconds - $0.time.seconds >= DeviceHistory.splittingSilenceDays * 86_400 }
        }
        let split = DeviceHistory.histories(records).count { $0.followsSilence }
        #expect(longSilences >= 4)
        #expect(split * 4 <= longSilences, "\(split) of \(longSilences) split")
    }

    @Test("the fragment runs your users: CoverDrop users opening the app 3 times a day, calibrated on the preset's daily users, give the logs' refresh launches a day again with the fragment (within the logs' interval), and far fewer without its users", TestBuild.optimizedOnly)
    func fragmentRunsTheLoggedUsers() throws {
        let preset = try #require(Presets.scenario(named: "coverdrop-shipped"))
        var users = SimulatedLogs.clean("coverdrop-shipped")
        users.user.app.profile = .custom
        users.user.app.customSessionsPerDay = 3
        let records = SimulatedLogs.records(users, devices: 50, days: 21)
        let logged = try #require(FieldLogFeatures(records).kinds.first { $0.kind == .refresh })
        let low = try #require(logged.launchesPerDay.low), high = try #require(logged.launchesPerDay.high)
        let calibration = try LaunchCalibration.run(records, sources: ["three a day"], base: preset, jobs: 2)
        #expect(abs(calibration.users.appSessionsPerDay - 3) < 0.3, "\(calibration.users)")
        let fragment = JSONWriter.pretty(calibration.fragment)
        func launchesPerDay(_ scenario: Scenario) throws -> Double {
            // The seeds that wrote the logs: other seeds' means differ by about ±3 % on their own.
            let runs = try Replications.run(scenario, seeds: Array(1...50), days: 21, jobs: 2)
            return runs.map(\.os.refreshLaunchesPerDay).reduce(0, +) / Double(runs.count)
        }
        let withUsers = try launchesPerDay(ScenarioLoader.overlay(fragment, source: "calibrated.json", over: preset))
        #expect(low <= withUsers && withUsers <= high, "logs \(logged.launchesPerDay.value) (\(low)–\(high)), the fragment's users \(withUsers)")
        // The fitted launch model alone, over the preset's own users: far fewer.
        var launchModelOnly = preset
        launchModelOnly.system.heuristic = calibration.parameters
        #expect(try launchesPerDay(launchModelOnly) < 0.8 * low)
    }

    @Test("a base budget too small for any launch is not 'no evidence': the fitted numbers are fitted, not held", TestBuild.optimizedOnly)
    func starvedBaseBudgetIsStillFitted() throws {
        var base = SimulatedLogs.clean("coverdrop-shipped")
        base.system.heuristic.refreshBasePerDay = 0.001
        base.system.heuristic.refreshPerAppSession = 0.001
        let histories = DeviceHistory.histories(SimulatedLogs.coverdrop)
        let phone = try PhoneStateProfile.measure(base, jobs: 2)
        let scorer = LaunchScorer(histories, kind: .refresh, base: base.system.heuristic, phone: phone, jobs: 2)
        // At these values the bucket never holds a launch: the model denies every evaluation.
        #expect(scorer.score(base.system.heuristic).evaluations == 0 && scorer.informativeEvaluations > 0)
        let fit = LaunchFit.fit(scorer, base: base.system.heuristic)
        #expect(fit.fitted.allSatisfy { $0.heldBecause == nil }, "\(fit.fitted.map(\.heldBecause))")
        #expect(fit.parameters.refreshBasePerDay > 0.1)
    }

    @Test("a second task kind too small to judge does not hide the first kind's misfits", TestBuild.optimizedOnly)
    func smallSecondKindHidesNothing() throws {
        var records = Self.nightWiFiOnly
        let first = records[0]
        records.append(FieldLogRecord(device: first.device, time: first.time, event: .taskSubmitted, identifier: "p", kind: .processing))
        records.append(FieldLogRecord(device: first.device, time: LocalTimestamp(milliseconds: first.time.milliseconds + 3_600_000),
                                      event: .taskLaunched, identifier: "p", kind: .processing))
        records.sort { ($0.device, $0.time.milliseconds) < ($1.device, $1.time.milliseconds) }
        let calibration = try LaunchCalibration.run(records, sources: ["night+p"], base: SimulatedLogs.clean("coverdrop-shipped"), jobs: 2)
        #expect(calibration.kinds.map(\.kind) == [.refresh, .processing])
        #expect(calibration.kinds[1].tooSmall != nil)
        let verdict = CalibrationFormatter.verdict(calibration)
        #expect(verdict.hasPrefix("Verdict: the fitted model does not reproduce"), "\(verdict)")
        #expect(verdict.contains("Not judged, too small to tell: processing has 1 device"), "\(verdict)")
    }

    @Test("a log from phones whose users force-quit and use Low Power Mode, which the model assumes away, is flagged by the goodness of fit", TestBuild.optimizedOnly)
    func flagsMisspecification() throws {
        // Zashi as it ships, with its default user: 10 % of app sessions end in a force-quit,
        // after which nothing runs until the app is opened again; the fitted model launches
        // on nights the real phones could not.
        var scenario = try #require(Presets.scenario(named: "zashi-shipped"))
        scenario.user.app.forceQuitProbability = 0.3
        let records = SimulatedLogs.records(scenario, devices: 24, days: 14)
        let calibration = try LaunchCalibration.run(records, sources: ["simulated"], base: SimulatedLogs.clean("zashi-shipped"), jobs: 2)
        let misfits = calibration.misfits
        #expect(!misfits.isEmpty)
        #expect(misfits.contains { $0.feature == .launchesPerDay && ($0.relativeDifference ?? 0) > 0 }, "\(misfits.map(\.verdict))")
        #expect(CalibrationFormatter.verdict(calibration).contains("does not reproduce"))
    }

    @Test("the fragment of logs too small to identify anything is a valid scenario carrying its provenance and none of the unidentified values", TestBuild.optimizedOnly)
    func fragment() throws {
        let records = SimulatedLogs.records(SimulatedLogs.clean("coverdrop-shipped"), devices: 6, days: 7)
        let calibration = try LaunchCalibration.run(records, sources: ["dir/logs.jsonl"], base: Scenario(), jobs: 2)
        let text = JSONWriter.pretty(calibration.fragment)
        let scenario = try ScenarioLoader.decode(text, source: "fragment.json")
        #expect(scenario.system.heuristic.refreshBasePerDay == Scenario().system.heuristic.refreshBasePerDay)
        #expect(!text.contains("\"refreshBasePerDay\": "))
        // Six phones are too few for intervals: the provenance says so instead.
        #expect(scenario.description.contains("logs.jsonl") && scenario.description.contains("(no interval: the logs are too small, 6 devices"),
                "\(scenario.description)")
        #expect(scenario.description.contains("Not written to this fragment: the base scenario's values stand."))
        #expect(LaunchCalibration.fourSignificantDigits(1.234567) == 1.235)
        #expect(LaunchCalibration.fourSignificantDigits(0.000123456) == 0.0001235)
        #expect(LaunchCalibration.fourSignificantDigits(12345.6) == 12350)
        // The same logs give the same outcome for any number of jobs.
        let serial = try LaunchCalibration.run(records, sources: ["dir/logs.jsonl"], base: Scenario(), jobs: 1)
        #expect(JSONWriter.pretty(CalibrationFormatter.json(serial)) == JSONWriter.pretty(CalibrationFormatter.json(calibration)))
    }
}

@Suite("MetricKit payloads")
struct MetricKitPayloadTests {
    @Test("durations and timestamps read as MetricKit writes them")
    func values() {
        #expect(MetricKitPayload.duration("347 sec") == 347)
        #expect(MetricKitPayload.duration("1,456 sec") == 1_456)
        #expect(MetricKitPayload.duration("1.5 min") == 90)
        #expect(abs(MetricKitPayload.duration("830 ms")! - 0.83) < 1e-12)
        #expect(MetricKitPayload.duration("2 hr") == 7_200)
        #expect(MetricKitPayload.duration("347秒") == nil && MetricKitPayload.duration("-1 sec") == nil)
        // Commas only between groups of three digits.
        #expect(MetricKitPayload.duration("1,234,567.5 sec") == 1_234_567.5)
        #expect(MetricKitPayload.duration("1,2,3 sec") == nil && MetricKitPayload.duration("1,45 sec") == nil)
        #expect(MetricKitPayload.duration(",456 sec") == nil && MetricKitPayload.duration("1456, sec") == nil)
        // 2026-01-05 is day 20,458 since 1970-01-01.
        #expect(MetricKitPayload.timestamp("2026-01-05 00:00:00 +0000") == 1_767_571_200.0)
        #expect(MetricKitPayload.timestamp("2026-01-05 02:00:00 +0200") == 1_767_571_200.0)
        #expect(MetricKitPayload.timestamp("2026-01-05") == nil)
    }

    @Test("JSON lines of payloads read alike with a byte order mark, line feeds, carriage returns and line feeds, or carriage returns alone")
    func lineEnds() throws {
        let one = #"{"timeStampBegin": "2026-01-05 00:00:00 +0000", "timeStampEnd": "2026-01-06 00:00:00 +0000", "applicationTimeMetrics": {"cumulativeBackgroundTime": "347 sec"}}"#
        let two = #"{"timeStampBegin": "2026-01-06 00:00:00 +0000", "timeStampEnd": "2026-01-07 00:00:00 +0000", "applicationTimeMetrics": {"cumulativeBackgroundTime": "1,456 sec"}}"#
        let reference = try MetricKitPayload.parse(one + "\n" + two + "\n", source: "log")
        #expect(reference.map(\.backgroundSeconds) == [347, 1_456])
        for text in ["\u{FEFF}" + one + "\n" + two + "\n", one + "\r\n" + two + "\r\n", one + "\r" + two + "\r", "\u{FEFF}" + one + "\r\n" + two] {
            #expect(try MetricKitPayload.parse(text, source: "log") == reference, "\(text.debugDescription)")
        }
    }

    @Test("payloads read from an object, an array or JSON lines, and a bad one names the payload and the field", arguments: [
        ("[{\"timeStampBegin\": \"2026-01-05 00:00:00 +0000\", \"timeStampEnd\": \"2026-01-06 00:00:00 +0000\"}, 3]", "log: payload 2: expected a MetricKit payload object"),
        ("{\"timeStampBegin\": \"2026-01-05 00:00:00 +0000\", \"timeStampEnd\": \"2026-01-04 00:00:00 +0000\"}", "log: timeStampEnd: expected a time after timeStampBegin"),
        ("{\"timeStampBegin\": \"0001-01-01 00:00:00 +0000\", \"timeStampEnd\": \"9999-12-31 00:00:00 +0000\"}", "log: timeStampEnd: expected at most 25 h after timeStampBegin"),
        ("{\"timeStampBegin\": \"2026-01-05 00:00:00 +0000\", \"timeStampEnd\": \"2026-01-06 00:00:00 +0000\", \"applicationTimeMetrics\": {\"cumulativeBackgroundTime\": \"1e300 sec\"}}",
         "log: applicationTimeMetrics.cumulativeBackgroundTime: expected at most the payload's span, 86400 s"),
        ("{\"timeStampBegin\": \"2026-01-05 00:00:00 +0000\", \"timeStampEnd\": \"2026-01-06 00:00:00 +0000\", \"applicationTimeMetrics\": {\"cumulativeBackgroundTime\": \"100 hr\"}}",
         "expected at most the payload's span"),
        ("{\"timeStampBegin\": \"2026-01-05 00:00:00 +0000\", \"timeStampEnd\": \"2026-01-06 00:00:00 +0000\", \"applicationTimeMetrics\": {\"cumulativeBackgroundTime\": \"13 hr\", \"cumulativeForegroundTime\": \"12 hr\"}}",
         "together"),
        ("{\"timeStampBegin\": \"2026-01-05 00:00:00 +0000\", \"timeStampEnd\": \"2026-01-06 00:00:00 +0000\", \"applicationTimeMetrics\": {\"cumulativeBackgroundTime\": \"a while\"}}",
         "log: applicationTimeMetrics.cumulativeBackgroundTime: expected a duration"),
        ("{\"timeStampBegin\": \"2026-01-05 00:00:00 +0000\", \"timeStampEnd\": \"2026-01-06 00:00:00 +0000\", \"applicationExitMetrics\": {\"backgroundExitData\": {\"cumulativeNormalAppExitCount\": 1.5}}}",
         "log: applicationExitMetrics.backgroundExitData.cumulativeNormalAppExitCount: expected a whole number"),
    ])
    func bad(text: String, message: String) {
        do {
            _ = try MetricKitPayload.parse(text, source: "log")
            Issue.record("parsed")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }

    @Test("a payload's background figures")
    func parse() throws {
        let text = """
            {"timeStampBegin":"2026-01-05 23:00:00 +0000","timeStampEnd":"2026-01-07 00:00:00 +0000","applicationTimeMetrics":{"cumulativeBackgroundTime":"40 sec"},"applicationExitMetrics":{"backgroundExitData":{"cumulativeMemoryPressureExitCount":3},"foregroundExitData":{"cumulativeNormalAppExitCount":9}}}
            {"timeStampBegin":"2026-01-07 00:00:00 +0000","timeStampEnd":"2026-01-08 00:00:00 +0000"}
            """
        let payloads = try MetricKitPayload.parse(text, source: "log")
        #expect(payloads.count == 2)
        #expect(payloads[0].days == 25.0 / 24 && payloads[0].backgroundSeconds == 40 && payloads[0].foregroundSeconds == nil)
        #expect(payloads[0].backgroundExits == ["cumulativeMemoryPressureExitCount": 3])
        #expect(payloads[1].backgroundExits.isEmpty)
    }
}
