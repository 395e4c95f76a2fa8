import BackgroundSim
import SimKernel
@testable import BackgroundSimCalibration
import Testing

@Suite("A device's log runs to the log's end")
struct LogEndTests {
    func at(_ text: String) -> LocalTimestamp { LocalTimestamp(parsing: text)! }

    /// Device `a` from install, its request launched and submitted again at 21:00 on 5 January,
    /// silent after; `b` until 14 January 12:00; `c` begun
    /// before the log with four opens, silent after 6 January.
    var log: [FieldLogRecord] {
        [
            FieldLogRecord(device: "a", time: at("2026-01-05T08:00:00"), event: .appForeground, firstLaunch: true),
            FieldLogRecord(device: "a", time: at("2026-01-05T08:05:00"), event: .appBackground),
            FieldLogRecord(device: "a", time: at("2026-01-05T08:05:00"), event: .taskSubmitted, identifier: "r", kind: .refresh),
            FieldLogRecord(device: "a", time: at("2026-01-05T21:00:00"), event: .taskLaunched, identifier: "r", kind: .refresh),
            FieldLogRecord(device: "a", time: at("2026-01-05T21:00:00"), event: .taskSubmitted, identifier: "r", kind: .refresh),
            FieldLogRecord(device: "b", time: at("2026-01-05T09:00:00"), event: .appForeground, firstLaunch: true),
            FieldLogRecord(device: "b", time: at("2026-01-05T09:05:00"), event: .taskSubmitted, identifier: "r", kind: .refresh),
            FieldLogRecord(device: "b", time: at("2026-01-14T12:00:00"), event: .appForeground),
            FieldLogRecord(device: "c", time: at("2026-01-05T10:00:00"), event: .appForeground),
            FieldLogRecord(device: "c", time: at("2026-01-05T18:00:00"), event: .appForeground),
            FieldLogRecord(device: "c", time: at("2026-01-06T10:00:00"), event: .appForeground),
            FieldLogRecord(device: "c", time: at("2026-01-06T18:00:00"), event: .appForeground),
            FieldLogRecord(device: "c", time: at("2026-01-06T18:05:00"), event: .taskSubmitted, identifier: "r", kind: .refresh),
        ]
    }

    @Test("every device is covered until the latest record of the log, on its own clock; a log begun after install keeps the rate of opens of its own records")
    func coveredUntilTheLatestRecord() throws {
        let histories = DeviceHistory.histories(log)
        #expect(histories.map(\.device) == ["a", "b", "c"])
        // 14 January 12:00 on the clocks counted from 5 January's midnight.
        let end = 9 * 86_400 + 12 * 3_600.0
        #expect(histories.map(\.end) == [end, end, end])
        #expect(histories.map(\.days) == [10, 10, 10])
        // c's four opens over the 2 days its records span.
        let use = try #require(histories[2].loggedUse)
        #expect(use.ownOpensPerDay == 2 && use.opensPerDay == 2 && use.days == 2)
    }

    @Test("bgsim fieldlog's features and calibration's logged features count the same days and gaps")
    func featuresAgreeWithCalibration() throws {
        let features = try #require(FieldLogFeatures(log).kinds.first { $0.kind == .refresh })
        let summaries = DeviceHistory.histories(log).map { DeviceLaunchSummary(logged: $0, kind: .refresh) }
        #expect(features.devices == 3 && features.deviceDays == 30)
        #expect(summaries.map(\.days) == [10, 10, 10])
        // a's close at 08:05 on the 5th stays open to the log's end: long, and a launch came.
        #expect(summaries[0].longGaps == 1 && summaries[0].quietLongGaps == 0)
    }

    @Test("a history ended by a long silence keeps its last record as its end; the device's last history runs to the log's end")
    func silenceKeepsItsEnd() throws {
        var records = [
            FieldLogRecord(device: "s", time: at("2026-01-01T08:00:00"), event: .appForeground, firstLaunch: true),
            FieldLogRecord(device: "s", time: at("2026-01-01T08:05:00"), event: .taskSubmitted, identifier: "r", kind: .refresh),
            FieldLogRecord(device: "s", time: at("2026-01-01T09:00:00"), event: .appForeground),
            FieldLogRecord(device: "s", time: at("2026-01-01T10:00:00"), event: .appForeground),
            // Nine days with no record, beginning within hours of an open: lost.
            FieldLogRecord(device: "s", time: at("2026-01-10T10:00:00"), event: .appForeground),
            FieldLogRecord(device: "s", time: at("2026-01-10T11:00:00"), event: .appForeground),
        ]
        records.append(FieldLogRecord(device: "t", time: at("2026-01-12T06:00:00"), event: .appForeground))
        let histories = DeviceHistory.histories(records)
        #expect(histories.map(\.device) == ["s", "s", "t"])
        #expect(histories[0].end == 10 * 3_600)
        // 12 January 06:00, counted from 10 January's midnight.
        #expect(histories[1].end == 2 * 86_400 + 6 * 3_600)
        #expect(histories[2].end == 6 * 3_600)
    }

    @Test("the replay evaluates the days after a device's last record: a pending request there launched nothing", TestBuild.optimizedOnly)
    func replayEvaluatesToTheLogsEnd() throws {
        let phone = try PhoneStateProfile.measure(SimulatedLogs.clean("coverdrop-shipped"), jobs: 2)
        let parameters = HeuristicLaunchParameters()
        var own = try #require(DeviceHistory.histories(log).first)
        let covered = LaunchReplay.refreshTape(own, parameters: parameters, phone: phone)
        own.end = 21 * 3_600   // a's last record
        let alone = LaunchReplay.refreshTape(own, parameters: parameters, phone: phone)
        // A refresh request pending from 21:00 on the 5th: each 15-minute evaluation to the end.
        #expect(covered.dueEvaluations > alone.dueEvaluations + 8 * 96)
        #expect(covered.score(parameters).logLikelihood < alone.score(parameters).logLikelihood)
    }

    @Test("240 CoverDrop phones × 28 days whose users open the app about weekly (base 0.5 a day, 1.2 per session, fade 5 days): every true value inside its interval, closes followed by no launch fitting", TestBuild.optimizedOnly)
    func weeklyUsersRecoverTheFade() throws {
        var users = SimulatedLogs.clean("coverdrop-shipped")
        users.user.app.profile = .weekly
        var scenario = users
        scenario.system.heuristic.refreshBasePerDay = 0.5
        scenario.system.heuristic.refreshPerAppSession = 1.2
        scenario.system.heuristic.refreshFadeHalfLifeDays = 5
        let records = SimulatedLogs.records(scenario, devices: 240, days: 28)
        let calibration = try LaunchCalibration.run(records, sources: ["weekly"], base: users, jobs: 2)
        let kind = try #require(calibration.kinds.first { $0.kind == .refresh })
        for parameter in kind.parameters {
            let generating = LaunchFit.Coordinates.value(parameter.key, of: scenario.system.heuristic)
            let low = try #require(parameter.low, "\(parameter)"), high = try #require(parameter.high, "\(parameter)")
            #expect(low <= generating && generating <= high, "\(parameter.key): \(generating) not in \(low)–\(high) (fit \(parameter.value))")
        }
        let quiet = try #require(kind.goodness.rows.first { $0.feature == .quietAfterClose })
        #expect(quiet.fits, "\(quiet)")
    }
}
