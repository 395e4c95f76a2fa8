@testable import BackgroundSim
import SimKernel
import Testing

/// The per-wake energy model worked by hand (docs/MODEL.md, "Energy of a wake"), against the
/// simulator: a 2.5 MB upload at 1 Mbps on every background wake.
///
/// The hand calculation uses the published constants written out here, not the simulator's
/// parameter types, so a changed default fails this test as well as a changed formula:
///
///     E_wake = P_cpu·T_overhead + P_promo·T_promo + T_xfer·(β + α_up·u) + P_tail·T_tail
///
/// with T_xfer = 2.5 MB · 8 / 1 Mbps = 20 s, no CPU work of the app's own (the upload is all of
/// it, and the CPU is booked only for work not overlapped with a transfer), no other traffic to
/// share the radio with, good signal, on battery.
@Suite("Energy worked example")
struct EnergyWorkedExampleTests {
    enum Radio: String, CustomTestStringConvertible {
        case lte, wifi
        var testDescription: String { rawValue }
    }

    /// CPU while waking: 0.25 W for 2 s (Android power profiles; the cost of a wake).
    static let wakeOverheadJoules = 0.25 * 2

    /// Joules per wake by hand.
    static func handJoulesPerWake(_ radio: Radio) -> Double {
        let transferSeconds = 2.5e6 * 8 / 1e6
        switch radio {
        case .lte:
            // AT&T ARO lte.conf and Huang et al. (MobiSys 2012): promotion 0.26 s at 1.21 W;
            // β 1.29 W + α_up 0.438 W/Mbps; tail 11.6 s at 1.06 W.
            return wakeOverheadJoules + 0.26 * 1.21 + transferSeconds * (1.29 + 0.438 * 1) + 11.6 * 1.06
        case .wifi:
            // Huang et al. 2012's Wi-Fi model: promotion 0.08 s at 0.124 W; β 0.133 W + α_up
            // 0.283 W/Mbps; tail 0.25 s at 0.12 W.
            return wakeOverheadJoules + 0.08 * 0.124 + transferSeconds * (0.133 + 0.283 * 1) + 0.25 * 0.12
        }
    }

    /// A quiet phone, always on `radio` with good signal and 1 Mbps up, that wakes the app with a
    /// refresh task every `interval`, just after a 2.5 MB item arrives.
    static func run(_ radio: Radio, every interval: SimDuration, days: Int) throws -> (joules: Double, wakes: Int) {
        var scenario = SystemHarness.onOneNetwork(wifi: radio == .wifi, uplinkMbps: 1)
        scenario.work.arrivals = .cadence
        scenario.work.cadenceSeconds = interval.seconds
        scenario.work.uploadMedianKilobytes = 2_500
        final class Wakes { var count = 0 }
        let wakes = Wakes()
        let harness = try SystemHarness(scenario) {
            ScriptedPolicy(onLaunch: { app, _ in
                app.taskScheduler.register(forTaskWithIdentifier: "refresh") { task in
                    wakes.count += 1
                    var next = TaskRequest.appRefresh(identifier: "refresh")
                    next.earliestBeginDate = .start + interval * Int64(wakes.count + 1) + .seconds(1)
                    try? app.taskScheduler.submit(next)
                    app.work.onQueueEmpty = { task.setTaskCompleted(success: true) }
                    app.work.start()
                }
            }, onBackground: { app in
                guard wakes.count == 0 else { return }
                var first = TaskRequest.appRefresh(identifier: "refresh")
                first.earliestBeginDate = .start + interval + .seconds(1)
                try? app.taskScheduler.submit(first)
            })
        }
        harness.useApp(at: SimInstant.start, for: .seconds(1))
        // The last wake's tail ends within a minute of it.
        let end = SimInstant.start + .days(days) + .seconds(60)
        try harness.run(until: end)
        var device = harness.world.device
        device.advance(to: end)
        let consumers: [EnergyConsumer] = [.appCPU, .appRadioPromotion, .appRadioActive, .appRadioTail, .appLaunchOverhead]
        let joules = consumers.reduce(0) { $0 + device.ledger.batteryJoules(of: $1) }
        #expect(harness.system.work.finish(at: end).completed == wakes.count, "one item per wake")
        return (joules, wakes.count)
    }

    @Test("a 2.5 MB upload at 1 Mbps per wake costs what the per-wake model gives by hand, per wake and per day, within 2 %",
          arguments: [Radio.lte, .wifi], [15, 60])
    func handCalculation(radio: Radio, minutes: Int) throws {
        let days = 2
        let (joules, wakes) = try Self.run(radio, every: .minutes(minutes), days: days)
        let wakesPerDay = 24 * 60 / minutes
        #expect(wakes == days * wakesPerDay)
        let perWake = Self.handJoulesPerWake(radio)
        let measuredPerWake = joules / Double(wakes)
        #expect(abs(measuredPerWake / perWake - 1) < 0.02, "\(measuredPerWake) J per wake, by hand \(perWake) J")
        let measuredPerDay = joules / Double(days)
        let handPerDay = perWake * Double(wakesPerDay)
        #expect(abs(measuredPerDay / handPerDay - 1) < 0.02, "\(measuredPerDay) J per day, by hand \(handPerDay) J")
    }

    @Test("waking every 15 minutes on LTE costs about 21.5 times waking hourly on Wi-Fi, as the hand calculation says")
    func cellularAgainstWifi() throws {
        let lte = try Self.run(.lte, every: .minutes(15), days: 1).joules
        let wifi = try Self.run(.wifi, every: .minutes(60), days: 1).joules
        let byHand = Self.handJoulesPerWake(.lte) * 96 / (Self.handJoulesPerWake(.wifi) * 24)
        #expect(abs(byHand - 21.5) < 0.1, "the hand ratio itself: \(byHand)")
        #expect(abs(lte / wifi / byHand - 1) < 0.02, "\(lte / wifi)×, by hand \(byHand)×")
    }
}
