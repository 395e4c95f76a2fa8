@testable import BackgroundSim
import SimKernel
import Testing

/// The energy and data budgets: what a launch costs changes how often the app is launched.
@Suite("Launch budgets")
struct LaunchBudgetTests {
    /// Asks for a refresh 15 min after leaving and after each run; each run uploads `bytes`.
    final class UploadEveryWake: BackgroundPolicy {
        let bytes: Double
        init(bytes: Double) { self.bytes = bytes }

        func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
            app.taskScheduler.register(forTaskWithIdentifier: "upload") { [unowned self] task in
                submit(app)
                try? app.work.enqueue(WorkRequest(uploadBytes: bytes))
                app.work.onQueueEmpty = {
                    app.work.stop()
                    task.setTaskCompleted(success: true)
                }
                task.expirationHandler = {
                    app.work.stop()
                    task.setTaskCompleted(success: false)
                }
                app.work.start()
            }
        }

        func didEnterBackground(_ app: AppContext) { submit(app) }

        func submit(_ app: AppContext) {
            var request = TaskRequest.appRefresh(identifier: "upload")
            request.earliestBeginDate = app.date + .minutes(15)
            try? app.taskScheduler.submit(request)
        }
    }

    /// A user who opens the app several times a day, always on one network with good signal.
    static func scenario(bytes: Double, wifi: Bool = false, chargingHoursPerDay: Double = 0) -> Scenario {
        var scenario = Scenario().running("upload-\(Int(bytes))") { UploadEveryWake(bytes: bytes) }
        scenario.app.permittedIdentifiers = ["upload"]
        scenario.user.app.profile = .severalTimesADay
        SystemHarness.alwaysOnOneNetwork(&scenario, wifi: wifi)
        if chargingHoursPerDay > 0 {   // top-ups of an hour each
            scenario.power.topUpsPerDay = chargingHoursPerDay
            scenario.power.topUpMinimumMinutes = 60
            scenario.power.topUpMaximumMinutes = 60
        }
        return scenario
    }

    static func launchesPerDay(_ scenario: Scenario, seeds: [UInt64] = [1, 2, 3], days: Int = 60) throws -> Double {
        try seeds.map { try SimulationRunner.run(scenario: scenario, seed: $0, days: days).os.refreshLaunchesPerDay }.reduce(0, +) / Double(seeds.count)
    }

    @Test("10 MB of cellular data per wake gets about the data allowance's worth of launches (20 MB ÷ 10 MB = 2 a day); 100 kB gets the model's full rate", TestBuild.optimizedOnly)
    func cellularDataBudget() throws {
        let light = try Self.launchesPerDay(Self.scenario(bytes: 100_000))
        let heavy = try Self.launchesPerDay(Self.scenario(bytes: 10_000_000))
        let allowance = LaunchBudgetParameters().cellularMegabytesPerDay / 10
        #expect(allowance == 2)
        // In steady state a budget-bound app spends its allowance: launches a day ≈ allowance ÷
        // cost per launch (docs/MODEL.md, "Energy and data budgets"); ±15 % for 3 seeds × 60 days.
        #expect(abs(heavy - allowance) < 0.15 * allowance, "heavy: \(heavy) a day")
        #expect(light > 1.8 * heavy, "light: \(light), heavy: \(heavy)")
        // The light app stays within its budgets: its launches are exactly those without budgets.
        var unbounded = Self.scenario(bytes: 100_000)
        unbounded.system.budget.energyJoulesPerDay = 100_000
        unbounded.system.budget.cellularMegabytesPerDay = 100_000
        #expect(try Self.launchesPerDay(unbounded) == light)
    }

    @Test("on Wi-Fi the data budget does not apply: 10 MB a wake loses almost nothing", TestBuild.optimizedOnly)
    func wifiIsFree() throws {
        let light = try Self.launchesPerDay(Self.scenario(bytes: 100_000, wifi: true))
        let heavy = try Self.launchesPerDay(Self.scenario(bytes: 10_000_000, wifi: true))
        #expect(heavy > 0.9 * light, "light: \(light), heavy: \(heavy)")
        let run = try SimulationRunner.run(scenario: Self.scenario(bytes: 10_000_000, wifi: true), seed: 1, days: 60)
        #expect(run.os.metrics.launchDecisions.count(.appRefresh, .dataBudget) == 0)
    }

    @Test("energy drawn on the charger does not count: an app bound by its energy budget gets more launches when often on power", TestBuild.optimizedOnly)
    func powerIsFree() throws {
        // 40 MB on Wi-Fi a wake: about 90 J, so the 150 J a day bind on battery.
        let battery = try Self.launchesPerDay(Self.scenario(bytes: 40_000_000, wifi: true))
        let charging = try Self.launchesPerDay(Self.scenario(bytes: 40_000_000, wifi: true, chargingHoursPerDay: 8))
        let run = try SimulationRunner.run(scenario: Self.scenario(bytes: 40_000_000, wifi: true), seed: 1, days: 60)
        #expect(run.os.metrics.launchDecisions.count(.appRefresh, .energyBudget) > 10)
        #expect(charging > 1.2 * battery, "on battery: \(battery), often charging: \(charging)")
    }

    @Test("in Low Data Mode Background App Refresh is off: a phone always on a constrained cellular network gets no refresh launch")
    func lowDataMode() throws {
        var normal = Self.scenario(bytes: 2_500_000)
        let unconstrained = try Self.launchesPerDay(normal)
        normal.network.lowDataModeOnCellular = true
        let constrained = try Self.launchesPerDay(normal)
        #expect(unconstrained > 1 && constrained == 0, "without Low Data Mode: \(unconstrained), with: \(constrained)")
    }

    @Test("a budget's factor: 1 above the knee, linear below it, 0 when spent; the emptier budget sets it")
    func factorByHand() {
        var budgets = LaunchBudgets(parameters: LaunchBudgetParameters())   // 150 J, 20 MB, knee 0.5
        #expect(budgets.factor.value == 1)
        budgets.update(at: .start, energyDrawn: 90, dataDrawn: 0)           // 60 J left: 0.4 of capacity
        #expect(abs(budgets.factor.value - 0.8) < 1e-12 && budgets.factor.limitedBy == .energyBudget)
        budgets.update(at: .start, energyDrawn: 90, dataDrawn: 18e6)        // 2 MB left: 0.1
        #expect(abs(budgets.factor.value - 0.2) < 1e-12 && budgets.factor.limitedBy == .dataBudget)
        budgets.update(at: .start + .hours(12), energyDrawn: 90, dataDrawn: 18e6)   // half a day refills half
        #expect(abs(budgets.energyLevel - 135) < 1e-9 && abs(budgets.dataLevel - 12e6) < 1e-3)
        #expect(budgets.factor.value == 1)
        budgets.update(at: .start + .hours(12), energyDrawn: 1_000, dataDrawn: 18e6)   // a debt of at most a day's allowance
        #expect(budgets.energyLevel == -150 && budgets.factor.value == 0)
    }
}
