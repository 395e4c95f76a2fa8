@testable import BackgroundSim
@testable import BackgroundSimChecking
import Testing

@Suite("Swarm dimensions")
struct SwarmDimensionTests {
    static var alwaysLTE: Scenario {
        var scenario = Presets.scenario(named: ReferenceApp.CoverDropName.designed)!
        scenario.network.wifiShare = 0
        scenario.network.homeWifiProbability = 0
        scenario.network.fiveGShare = 0
        return scenario
    }

    @Test("an always-LTE base stays always-LTE in every draw, and every draw is valid")
    func alwaysLTEStays() throws {
        let swarm = Swarm()
        for seed in UInt64(1)...200 {
            let drawn = swarm.scenario(around: Self.alwaysLTE, seed: seed, days: 7)
            #expect(drawn.network.wifiShare == 0 && drawn.network.homeWifiProbability == 0, "seed \(seed)")
            #expect(drawn.validate().isEmpty, "seed \(seed): \(drawn.validate())")
        }
    }

    @Test("a pinned dimension keeps the base's values, and pinning one changes no other dimension's draws")
    func pinning() {
        let base = Presets.scenario(named: "proton-upload-designed")!
        var pinned = Swarm()
        pinned.varies = Set(Swarm.Dimension.allCases).subtracting([.charging, .faults])
        #expect(pinned.variesDescription == "sessions, appUsage, network, launchModel, clock, workload, pushes, doors")
        for seed in UInt64(1)...50 {
            let free = Swarm().scenario(around: base, seed: seed, days: 7)
            let kept = pinned.scenario(around: base, seed: seed, days: 7)
            #expect(kept.power == base.power && kept.faults == base.faults)
            #expect(kept.user == free.user && kept.network == free.network && kept.system == free.system && kept.work == free.work)
        }
    }

    @Test("the doors are varied for every base, the server's pushes only for a base that has a cadence or a rate; every draw is valid")
    func doorsAndPushes() {
        let pushing = Presets.scenario(named: "coverdrop-push")!
        let silent = Presets.scenario(named: ReferenceApp.CoverDropName.designed)!
        var spacings = Set<Double>(), cadences = Set<Double>(), bursts = Set<Int>(), budgets = Set<Double>(), otherApps = Set<Double>()
        for seed in UInt64(1)...60 {
            let a = Swarm().scenario(around: pushing, seed: seed, days: 7)
            let b = Swarm().scenario(around: silent, seed: seed, days: 7)
            cadences.insert(a.pushes.everyMinutes)
            spacings.insert(b.system.push.burstWindowMinutes)
            bursts.insert(b.system.push.burstDeliveries)
            budgets.insert(b.system.push.deviceBudgetPerHour)
            otherApps.insert(b.system.otherApps.backgroundPushesPerHour)
            #expect(b.pushes == silent.pushes, "a base without pushes gets none")
            #expect(a.validate().isEmpty && b.validate().isEmpty, "seed \(seed)")
        }
        #expect(cadences.count == 4 && spacings.count == 60)
        #expect(bursts == Set(1...8) && budgets.count == 60 && budgets.allSatisfy { (0..<6).contains($0) })
        #expect(otherApps.count == 60 && otherApps.allSatisfy { (0..<8).contains($0) })
        var pinned = Swarm()
        pinned.varies.subtract([.doors, .pushes])
        let kept = pinned.scenario(around: pushing, seed: 5, days: 7)
        #expect(kept.system == Swarm().scenario(around: pushing, seed: 5, days: 7).system.with(doorsOf: pushing.system))
        #expect(kept.pushes == pushing.pushes)
    }

    @Test("the workload is varied: items per session for session arrivals, the cadence for a cadence, sizes for both")
    func workload() {
        let sessions = Presets.scenario(named: "proton-upload-designed")!
        let cadence = Presets.scenario(named: "zashi-designed")!
        var sessionValues = Set<Double>(), cadenceValues = Set<Double>(), sizes = Set<Double>()
        for seed in UInt64(1)...60 {
            let a = Swarm().scenario(around: sessions, seed: seed, days: 7)
            let b = Swarm().scenario(around: cadence, seed: seed, days: 7)
            sessionValues.insert(a.work.itemsPerAppSession)
            cadenceValues.insert(b.work.cadenceSeconds)
            sizes.insert(a.work.uploadMedianKilobytes)
            #expect(b.work.itemsPerAppSession == cadence.work.itemsPerAppSession, "a cadence workload's session rate is left alone")
        }
        #expect(sessionValues.count == 4 && cadenceValues.count == 4 && sizes.count == 4)
        var pinned = Swarm()
        pinned.varies.remove(.workload)
        #expect(pinned.scenario(around: cadence, seed: 3, days: 7).work == cadence.work)
    }
}

@Suite("Shrinking workloads")
struct ShrinkWorkloadTests {
    @Test("a cadence workload is shrunk by slowing its cadence, never by touching items per session; session arrivals the other way round")
    func onlyTheFieldInUse() {
        let shrinker = Shrinker(checker: PolicyChecker(scenario: Presets.scenario(named: "zashi-designed")!))
        var cadence = Presets.scenario(named: "zashi-designed")!
        cadence.work.itemsPerAppSession = 3
        let cadenceVariants = shrinker.simplifications(of: cadence)
        // (One variant puts the checker's own workload back whole: what a swarm drew.)
        let base = shrinker.checker.scenario.work
        #expect(cadenceVariants.allSatisfy { $0.work.itemsPerAppSession == 3 || $0.work == base })
        #expect(cadenceVariants.contains { $0.work.cadenceSeconds == 150 })

        var sessions = Presets.scenario(named: "proton-upload-designed")!
        sessions.work.cadenceSeconds = 75
        let sessionVariants = shrinker.simplifications(of: sessions)
        #expect(sessionVariants.allSatisfy { $0.work.cadenceSeconds == 75 || $0.work == base })
        #expect(sessionVariants.contains { $0.work.itemsPerAppSession == sessions.work.itemsPerAppSession / 2 })
    }
}

extension SystemParameters {
    /// These parameters with `other`'s for the other doors (what a swarm that pins them keeps).
    fileprivate func with(doorsOf other: SystemParameters) -> SystemParameters {
        var result = self
        result.backgroundURLSession = other.backgroundURLSession
        result.continuedProcessing = other.continuedProcessing
        result.push = other.push
        result.otherApps = other.otherApps
        return result
    }
}
