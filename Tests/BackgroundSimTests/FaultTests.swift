@testable import BackgroundSim
import SimKernel
import Testing

/// Runs a scenario and keeps the iOS model's log and the device's state after every event.
private struct FaultRun {
    var log: [SystemLogEntry] = []
    var states: [(time: SimInstant, network: NetworkPath, poweredOn: Bool, battery: Double)] = []
    var result: RunResult

    init(_ scenario: Scenario, seed: UInt64 = 1, days: Int) throws {
        final class Sink: @unchecked Sendable {
            var log: [SystemLogEntry] = []
            var states: [(time: SimInstant, network: NetworkPath, poweredOn: Bool, battery: Double)] = []
        }
        let sink = Sink()
        result = try SimulationRunner.run(scenario: scenario, seed: seed, days: days, log: { sink.log.append($0) }, configure: { _ in },
                                          observer: { _, now, device, _ in
                                              sink.states.append((now, device.network, device.isPoweredOn, device.battery.percent))
                                          })
        log = sink.log
        states = sink.states
    }

    func entries(_ kind: SystemLogEvent.Kind) -> [SystemLogEntry] { log.filter { $0.event.kind == kind } }

    /// The allotment of a `taskLaunch` entry.
    func allotment(_ entry: SystemLogEntry) -> SimDuration? {
        if case .taskLaunch(_, _, _, let allotment) = entry.event { return allotment }
        return nil
    }

    func hours(_ entry: SystemLogEntry) -> Double { Double(entry.time.nanosecondsSinceStart) / 3_600_000_000_000 }
}

@Suite("Faults (FaultPlan)")
struct FaultTests {
    /// The refresh probe under the eager launch model: a refresh task about every 15 minutes.
    static var probe: Scenario {
        var scenario = Presets.scenario(named: "probe-refresh")!
        scenario.system.launchModel = .eager
        return scenario
    }

    @Test("no faults leave a run exactly as it was; an empty window changes nothing either")
    func noFaults() throws {
        let plain = try SimulationRunner.run(scenario: Self.probe, seed: 3, days: 3)
        var scenario = Self.probe
        scenario.faults.backgroundAppRefreshOff = [.init(fromHours: 5, toHours: 5)]
        scenario.faults.networkFlaps = [.init(fromHours: 7, toHours: 7, offSeconds: 10, onSeconds: 10)]
        let empty = try SimulationRunner.run(scenario: scenario, seed: 3, days: 3)
        #expect(plain.digest == empty.digest)
    }

    @Test("tasks launched in an early-expiration window expire that soon after launch; others run their allotment")
    func earlyExpirations() throws {
        var scenario = Self.probe
        scenario.faults.earlyExpirations = [.init(fromHours: 24, toHours: 48, afterSeconds: 1)]
        let run = try FaultRun(scenario, days: 3)
        let launches = run.entries(.taskLaunch)
        let inWindow = launches.filter { (24..<48).contains(run.hours($0)) }
        #expect(inWindow.count > 10)
        for launch in inWindow {
            #expect(run.allotment(launch) == .seconds(1))
        }
        let outside = launches.filter { !(24..<48).contains(run.hours($0)) }
        #expect(outside.contains { (run.allotment($0) ?? .zero) > .seconds(5) })
    }

    @Test("a jetsam fault terminates the app in the background or suspended, and only then")
    func jetsams() throws {
        var scenario = Self.probe
        scenario.faults.jetsams = (0..<48).map { .init(atHours: Double($0) + 0.5) }
        let run = try FaultRun(scenario, days: 2)
        let kills = run.entries(.kill).filter { $0.event == .kill(.jetsamFault) }
        #expect(kills.count > 10)
        #expect(kills.count <= 48)
        for kill in kills {
            #expect(run.log.contains { $0.event == .terminate(reason: .memoryPressure) && $0.time == kill.time })
            #expect((run.hours(kill) - 0.5).truncatingRemainder(dividingBy: 1) == 0, "only at the fault times")
        }
        #expect(run.result.os.metrics.memoryPressureExits >= kills.count)
    }

    @Test("with Background App Refresh off, submits fail with unavailable and nothing launches; after, launches resume")
    func backgroundAppRefreshOff() throws {
        var scenario = Self.probe
        scenario.faults.backgroundAppRefreshOff = [.init(fromHours: 12, toHours: 36)]
        let run = try FaultRun(scenario, days: 3)
        let window = 12.0..<36.0
        #expect(!run.entries(.taskLaunch).contains { window.contains(run.hours($0)) })
        #expect(run.entries(.taskLaunch).contains { run.hours($0) >= 36 }, "launches resume")
        for submit in run.entries(.submit) { #expect(!window.contains(run.hours(submit))) }
        let errors = run.entries(.submitError).filter { window.contains(run.hours($0)) }
        #expect(!errors.isEmpty, "the app opened in the window and submitted")
        #expect(errors.allSatisfy { $0.event == .submitError(identifier: ProbePolicy.refreshIdentifier, error: .unavailable) })
    }

    @Test("a submit-error window makes submit throw its error")
    func submitErrors() throws {
        var scenario = Self.probe
        scenario.faults.submitErrors = [.init(fromHours: 0, toHours: 72, error: .tooManyPendingTaskRequests)]
        let run = try FaultRun(scenario, days: 3)
        #expect(run.entries(.submit).isEmpty)
        #expect(!run.entries(.submitError).isEmpty)
        #expect(run.entries(.submitError).allSatisfy {
            $0.event == .submitError(identifier: ProbePolicy.refreshIdentifier, error: .tooManyPendingTaskRequests)
        })
        #expect(run.result.os.metrics.submitErrorsByCode[.tooManyPendingTaskRequests] > 0)
    }

    @Test("a network flap turns the network off and on in its window, and leaves the day's network as it was")
    func networkFlaps() throws {
        var scenario = Self.probe
        scenario.faults.networkFlaps = [.init(fromHours: 10, toHours: 11, offSeconds: 20, onSeconds: 40)]
        let run = try FaultRun(scenario, days: 1)
        let plain = try FaultRun(Self.probe, days: 1)
        let flaps = run.states.filter { (10.0..<11.0).contains(Double($0.time.nanosecondsSinceStart) / 3.6e12) }
        #expect(flaps.filter { $0.network.interface == .none }.count >= 60, "off 60 times in the hour")
        // After the window, the network is the plan's, as in the run without faults.
        let after = SimInstant.start + .hours(12)
        let faulted = run.states.last { $0.time <= after }!.network
        let unfaulted = plain.states.last { $0.time <= after }!.network
        #expect(faulted == unfaulted)
    }

    @Test("a battery death turns the phone off at once; it comes back on only while charging")
    func batteryDeath() throws {
        var scenario = Self.probe
        scenario.faults.batteryDeaths = [.init(atHours: 14)]
        let run = try FaultRun(scenario, days: 2)
        let death = SimInstant.start + .hours(14)
        let at = try #require(run.states.first { $0.time == death })
        #expect(!at.poweredOn)
        #expect(at.battery == 0)
        #expect(run.result.device.batteryDepletions >= 1)
        let backOn = try #require(run.states.first { $0.time > death && $0.poweredOn })
        #expect(backOn.battery >= scenario.power.powerOnPercent - 1e-9, "back on at the power-on level, so after charging")
    }
}
