import BackgroundSim
import SimKernel
@testable import BackgroundSimCalibration
import Testing

@Suite("The phone between records: the lock after a restart, the users' day")
struct PhoneStateTests {
    static func at(_ text: String) -> LocalTimestamp { LocalTimestamp(parsing: text)! }

    /// A processing request due from 02:00 that needs power, submitted at 20:00; the phone
    /// restarts at 03:00 (an update) and the user opens the app at 07:00, on the charger;
    /// nothing launches. With `boots` false the log has no boot times.
    static func restartNight(boots: Bool) -> DeviceHistory {
        let boot = at("2026-01-01T08:00:00"), reboot = at("2026-01-06T03:00:00")
        func record(_ time: String, _ event: FieldLogRecord.Event, charging: Bool) -> FieldLogRecord {
            let stamp = at(time)
            var record = FieldLogRecord(device: "a", time: stamp, event: event, charging: charging,
                                        bootTime: boots ? (stamp > reboot ? reboot : boot) : nil)
            if event == .taskSubmitted {
                record.identifier = "sync"
                record.kind = .processing
                record.earliestBegin = at("2026-01-06T02:00:00")
                record.requiresExternalPower = true
            }
            return record
        }
        return DeviceHistory.histories([
            record("2026-01-05T20:00:00", .appForeground, charging: false),
            record("2026-01-05T20:00:01", .taskSubmitted, charging: false),
            record("2026-01-05T20:05:00", .appBackground, charging: false),
            record("2026-01-06T07:00:00", .appForeground, charging: true),
        ]).first!
    }

    @Test("after a restart the chain gives (almost) no chance to launch until the first unlock; without boot times the night counts")
    func lockedUntilTheFirstUnlock() {
        var parameters = HeuristicLaunchParameters()
        parameters.processingChargingChancePerEvaluation = 0.5
        let phone = LaunchFitTests.zashiPhone
        let restarted = LaunchReplay.score(Self.restartNight(boots: true), kind: .processing, parameters: parameters, phone: phone)
        let onThroughout = LaunchReplay.score(Self.restartNight(boots: false), kind: .processing, parameters: parameters, phone: phone)
        // On throughout, the evaluations from 02:00 to 07:00 may find the phone idle on the
        // charger (the evidence sums the chain's chance of that at each, which falls as none
        // launches: 4.4 here); locked from 03:00, almost none can.
        #expect(onThroughout.evaluations == 20 && onThroughout.chargerWeight > 3, "\(onThroughout.evaluations) \(onThroughout.chargerWeight)")
        #expect(restarted.chargerWeight < 0.1 * onThroughout.chargerWeight, "\(restarted.chargerWeight)")
    }

    @Test("the chain's lock: a restart locks the idle states, coming into use unlocks, a record says unlocked, and a locked phone has no chance")
    func lockLanes() {
        let phone = LaunchFitTests.zashiPhone
        let belief = phone.afterRestart(hour: 3)
        #expect(abs(belief.sum() - 1) < 1e-12)
        #expect(belief.highHalf[PhoneStateProfile.offInUse] == 0 && belief.highHalf[PhoneStateProfile.onInUse] == 0)
        #expect(belief.highHalf.sum() > 0.9)   // at 03:00 the phone is nearly always idle
        let stepped = phone.step(belief, hour: 3)
        #expect(abs(stepped.sum() - 1) < 1e-12)
        #expect(stepped.highHalf[PhoneStateProfile.offInUse] == 0 && stepped.highHalf[PhoneStateProfile.onInUse] == 0)
        #expect((PhoneStateProfile.charging(true) * stepped).highHalf.sum() == 0)
        #expect(PhoneStateProfile.processingChance(battery: 0.1, charger: 0.5).highHalf.sum() == 0)
    }

    @Test("a chain turned by h hours is at each hour what it was h hours before, and by 24 is itself")
    func shiftedChain() {
        let phone = LaunchFitTests.zashiPhone
        let later = phone.shifted(byHours: 3), earlier = phone.shifted(byHours: -5)
        for hour in 0..<24 {
            #expect(later.shares[hour] == phone.shares[(hour + 21) % 24])
            #expect(earlier.transitions[hour] == phone.transitions[(hour + 5) % 24])
        }
        #expect(phone.shifted(byHours: 24) == phone)
    }

    /// Zashi's users living their day 3 h later than the preset's: asleep 02:30–10:00, charging
    /// 02:00–10:00.
    static let lateUsers = DeviceHistory.histories(SimulatedLogs.records(SimulatedLogs.clean("zashi-shipped").shiftingDay(byHours: 3), devices: 24, days: 14))

    @Test("the users' day is read from their logs: 3 h later for users 3 h later, by a wide margin, and no shift for the base user's")
    func usersDayFromTheirLogs() {
        let base = HeuristicLaunchParameters(), phone = LaunchFitTests.zashiPhone
        let late = UsersDayShift.estimate(Self.lateUsers, base: base, phone: phone, jobs: 2)
        #expect(late.hours == 3)
        #expect(late.logLikelihoodGain > 10 * UsersDayShift.minimumGain, "\(late.logLikelihoodGain)")
        let own = UsersDayShift.logLikelihoods(LaunchFitTests.zashi, base: base, phone: phone, jobs: 2)
        let atZero = own.first { $0.hours == 0 }!.logLikelihood
        let bestElsewhere = own.filter { $0.hours != 0 }.map(\.logLikelihood).max()!
        // The base user's own logs: every other shift is less likely than none.
        #expect(bestElsewhere < atZero, "\(bestElsewhere - atZero)")
        #expect(UsersDayShift.estimate(LaunchFitTests.zashi, base: base, phone: phone, jobs: 2) == .none)
    }

    @Test("a chance the logs show no launch for (battery chance 0) gets an interval from 0, not a point", TestBuild.optimizedOnly)
    func chanceAtZeroGetsAnIntervalFromZero() throws {
        var scenario = SimulatedLogs.clean("zashi-shipped")
        scenario.system.heuristic.processingBatteryChancePerEvaluation = 0
        let records = SimulatedLogs.records(scenario, devices: 24, days: 14)
        let calibration = try LaunchCalibration.run(records, sources: ["zashi"], base: SimulatedLogs.clean("zashi-shipped"), jobs: 2)
        let processing = try #require(calibration.kinds.first { $0.kind == .processing })
        let battery = try #require(processing.parameters.first { $0.key == .processingBatteryChancePerEvaluation })
        #expect(processing.isIdentified)
        #expect(battery.low == 0, "\(String(describing: battery.low))")
        #expect((battery.high ?? 0) > 0.000_1, "\(String(describing: battery.high))")
    }
}
