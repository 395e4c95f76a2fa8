@testable import BackgroundSim
@testable import BackgroundSimCalibration
import Testing

@Suite("The users a field log shows")
struct LoggedUsersTests {
    /// Each hour's share of `opens`.
    static func shares(_ opens: [Int]) -> [Double] {
        let total = Double(opens.reduce(0, +))
        return opens.map { Double($0) / total }
    }

    /// Half the sum of the absolute differences of two distributions over the hours: the share
    /// of opens that would have to move to another hour.
    static func distance(_ a: [Double], _ b: [Double]) -> Double {
        zip(a, b).reduce(0) { $0 + abs($1.0 - $1.1) } / 2
    }

    @Test("a known answer: morning people (busiest 06–10 h, quiet evenings) calibrated against the preset's evening user; the fitted hours give the logs' opens by hour again, as close as the morning people's own other phones do (within 0.02 of the opens moved), where the base user's hours are 0.2 or more away", TestBuild.optimizedOnly)
    func hourlyProfileFromTheLogs() throws {
        var base = SimulatedLogs.clean("coverdrop-shipped")
        base.user.app.profile = .custom
        base.user.app.customSessionsPerDay = 6
        var morning = base
        morning.user.hourlyWeights = [0.2, 0.1, 0.1, 0.1, 0.2, 0.8, 2.0, 3.0, 3.0, 2.5, 1.5, 1.0,
                                      1.0, 0.8, 0.6, 0.6, 0.5, 0.5, 0.4, 0.4, 0.3, 0.3, 0.3, 0.2]
        let records = SimulatedLogs.records(morning, devices: 40, days: 21)
        let users = LoggedUsers(DeviceHistory.histories(records), base: base.user)
        #expect(users.opensByHour.reduce(0, +) > 4_000)
        let logged = Self.shares(users.opensByHour)
        let weights = try #require(users.hourlyWeights)
        #expect(weights.max() == 1 && weights.allSatisfy { $0 > 0 })
        #expect(weights.indices.max { weights[$0] < weights[$1] }.map { (6...9).contains($0) } == true, "\(weights)")
        // Other seeds than the logs', so that the match is the model's, not the same draws'.
        var fitted = base
        fitted.user.hourlyWeights = weights
        let refitShares = Self.shares(Self.opensByHour(fitted, devicesFrom: 101, count: 40, days: 21))
        let refit = Self.distance(logged, refitShares)
        let truth = Self.distance(logged, Self.shares(Self.opensByHour(morning, devicesFrom: 101, count: 40, days: 21)))
        let unfitted = Self.distance(logged, Self.shares(Self.opensByHour(base, devicesFrom: 101, count: 40, days: 21)))
        #expect(refit < truth + 0.02, "fitted \(refit), the generating users \(truth)")
        #expect(unfitted > 0.2, "\(unfitted)")
    }

    @Test("too few opens keep the base user's hours, and say so; the shares of Wi-Fi and charging records are counted")
    func fewOpensKeepTheBaseHours() throws {
        let base = SimulatedLogs.clean("coverdrop-shipped")
        let records = SimulatedLogs.records(base, devices: 3, days: 5)
        let users = LoggedUsers(DeviceHistory.histories(records), base: base.user)
        #expect(users.opensByHour.reduce(0, +) < LoggedUsers.minimumOpensByHour)
        #expect(users.hourlyWeights == nil)
        #expect(users.description.contains("too few to fit them"), "\(users.description)")
        #expect(users.recordsWithNetwork > 0 && users.recordsOnWiFi <= users.recordsWithNetwork)
        #expect(users.recordsWithCharging > 0 && users.recordsCharging <= users.recordsWithCharging)
    }

    @Test("the mean awake factor is 1 in the day, the asleep factor deep in the night, and between at the edges of sleep")
    func awakeFactorByHour() {
        var user = UserParameters()
        user.sleepStart = TimeOfDay(hour: 23, minute: 30)
        user.wakeTime = TimeOfDay(hour: 7)
        user.sleepJitterMinutes = 0
        let factor = user.meanAwakeFactorByHour(nights: 7)
        #expect(factor[12] == 1 && abs(factor[3] - user.asleepIntensityFactor) < 1e-9)
        // 23:30–24:00 asleep: half the hour.
        #expect(abs(factor[23] - (1 - 0.5 * (1 - user.asleepIntensityFactor))) < 1e-9)
        #expect(factor[7] == 1 && abs(factor[6] - user.asleepIntensityFactor) < 1e-9)
    }
}

extension LoggedUsersTests {
    /// Opens by hour of `scenario`'s users on the phones with seeds `first` … `first + count − 1`.
    static func opensByHour(_ scenario: Scenario, devicesFrom first: UInt64, count: Int, days: Int) -> [Int] {
        let records = (try? FieldLogRecorder.run(scenario, seeds: (first..<first + UInt64(count)).map { $0 }, days: days, jobs: 2).records) ?? []
        return LoggedUsers(DeviceHistory.histories(records), base: scenario.user).opensByHour
    }
}
