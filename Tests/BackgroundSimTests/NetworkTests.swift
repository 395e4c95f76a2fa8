@testable import BackgroundSim
import SimKernel
import Testing

@Suite("Network")
struct NetworkTests {
    @Test("throughput follows technology and signal")
    func throughput() {
        let parameters = NetworkParameters()
        let lteGood = NetworkPath(interface: .cellular, technology: .lte, signal: .good, isConstrained: false)
        #expect(parameters.throughput(on: lteGood) == (13, 6))
        let nrPoor = NetworkPath(interface: .cellular, technology: .fiveG, signal: .poor, isConstrained: false)
        #expect(parameters.throughput(on: nrPoor) == (15, 3.75))
        let wifiMedium = NetworkPath(interface: .wifi, technology: .lte, signal: .medium, isConstrained: false)
        #expect(parameters.throughput(on: wifiMedium) == (18, 6))
        #expect(parameters.throughput(on: .offline) == (0, 0))
    }

    @Test("paths report NWPath's flags")
    func pathFlags() {
        let cellular = NetworkPath(interface: .cellular, technology: .lte, signal: .good, isConstrained: true)
        #expect(cellular.isExpensive && cellular.isConstrained && cellular.isSatisfied)
        #expect(!NetworkPath.offline.isSatisfied)
    }

    @Test("nights at home are on Wi-Fi about as often as homeWifiProbability says")
    func homeWifi() throws {
        let plan = try NetworkPlan(parameters: NetworkParameters(), calendar: Scenario().calendar.calendar, seed: 1, device: 0)
        let nights = (0..<2_000).map { plan.homeNetwork(night: $0) }
        let onWifi = Double(nights.count { $0.interface == .wifi }) / 2_000
        // Binomial(2,000, 0.9): σ = 0.0067; allow 4 σ.
        #expect(abs(onWifi - 0.9) < 0.027, "\(onWifi)")
    }

    @Test("Low Data Mode marks the chosen networks as constrained")
    func lowDataMode() throws {
        var scenario = Scenario()
        scenario.network.lowDataModeOnCellular = true
        let plan = try NetworkPlan(parameters: scenario.network, calendar: scenario.calendar.calendar, seed: 1, device: 0)
        var stream = plan.awayStream(day: 0)
        for index in 0..<200 {
            let path = plan.nextAwaySegment(first: index == 0, using: &stream).path
            #expect(path.isConstrained == (path.interface == .cellular))
        }
    }

    @Test("5G takes about its share of cellular time")
    func fiveGShare() throws {
        let plan = try NetworkPlan(parameters: NetworkParameters(), calendar: Scenario().calendar.calendar, seed: 3, device: 0)
        var stream = plan.awayStream(day: 0)
        let cellular = (0..<4_000).map { _ in plan.nextAwaySegment(first: false, using: &stream).path }.filter { $0.interface == .cellular }
        let share = Double(cellular.count { $0.technology == .fiveG }) / Double(cellular.count)
        #expect(abs(share - 0.4) < 0.04, "\(share) of \(cellular.count)")
    }
}
