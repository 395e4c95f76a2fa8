@testable import BackgroundSim
import SimKernel
import Testing

@Suite("Device determinism")
struct DeviceDeterminismTests {
    @Test("the same scenario and seed give the same digest and report")
    func reproducible() throws {
        let a = try SimulationRunner.run(scenario: Scenario(), seed: 42, days: 60)
        let b = try SimulationRunner.run(scenario: Scenario(), seed: 42, days: 60)
        #expect(a == b)
        let c = try SimulationRunner.run(scenario: Scenario(), seed: 43, days: 60)
        #expect(a.digest != c.digest)
    }

    @Test("prefix stability: the first 30 days of a 100-day run equal a 30-day run")
    func prefixStability() throws {
        let short = try RecordedRun(seed: 7, days: 30)
        let long = try RecordedRun(seed: 7, days: 100)
        let cut = SimInstant.start + .days(30)
        let prefix = long.records.filter { $0.time <= cut }
        #expect(short.records.count > 4_000)
        #expect(prefix == short.records)
    }

    @Test("common random numbers: the user, charging and network do not depend on the app or the energy model")
    func commonRandomNumbers() throws {
        var other = Scenario()
        other.user.app.profile = .severalTimesADay
        other.user.app.forceQuitProbability = 0.9
        other.user.app.absences = [AppAbsence(startDay: 5, days: 10)]
        other.device.screenOnWatts = 2.4          // drains faster: more flat batteries
        other.device.model = .iPhone12Mini
        other.power.lowPowerModeAcceptProbability = 1
        let base = try RecordedRun(seed: 11, days: 120)
        let changed = try RecordedRun(other, seed: 11, days: 120)
        let timelines = DeviceKinds.user.union(DeviceKinds.charging).union(DeviceKinds.network)
        #expect(base.records(ofKinds: timelines) == changed.records(ofKinds: timelines))
        // The runs really differ elsewhere.
        #expect(base.digest != changed.digest)
        #expect(changed.device.metrics.appSessions > 2 * base.device.metrics.appSessions)
    }

    @Test("the seed changes every timeline")
    func seedsDiffer() throws {
        let a = try RecordedRun(seed: 1, days: 20)
        let b = try RecordedRun(seed: 2, days: 20)
        for kinds in [DeviceKinds.user, DeviceKinds.charging, DeviceKinds.network] {
            #expect(a.records(ofKinds: kinds) != b.records(ofKinds: kinds))
        }
    }
}
