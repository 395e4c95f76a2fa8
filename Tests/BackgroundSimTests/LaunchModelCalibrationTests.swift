@testable import BackgroundSim
import SimKernel
import Testing

/// The heuristic launch model against its calibration targets (documented on
/// `HeuristicLaunchParameters`), with the probe presets on the default user (app used daily),
/// fixed seeds, 200 days.
@Suite("Launch model calibration", TestBuild.optimizedOnly)
struct LaunchModelCalibrationTests {
    /// Runs a preset and returns its result with the times of task launches and app opens.
    func run(_ scenario: Scenario, seed: UInt64, days: Int, policy: (() -> any BackgroundPolicy)? = nil) throws
        -> (result: RunResult, launches: [SimInstant], opens: [SimInstant]) {
        final class Sink { var launches: [SimInstant] = []; var opens: [SimInstant] = [] }
        let sink = Sink()
        let result = try SimulationRunner.run(
            scenario: scenario, seed: seed, days: days, policy: policy,
            tracer: { if $0.kind == DeviceEvent.appOpen.traceKind { sink.opens.append($0.time) } },
            log: { if $0.event.kind == .taskLaunch { sink.launches.append($0.time) } })
        return (result, sink.launches, sink.opens)
    }

    func hour(_ instant: SimInstant) -> Int {
        Int(Scenario().calendar.calendar.timeOfDay(at: instant) / .hours(1))
    }

    @Test("refresh: 2–6 launches a day, most in the hours the user uses the app", arguments: [UInt64(1), 2])
    func refreshRate(seed: UInt64) throws {
        let (result, launches, opens) = try run(Presets.scenario(named: "probe-refresh")!, seed: seed, days: 200)
        #expect((2...6).contains(result.os.refreshLaunchesPerDay), "\(result.os.refreshLaunchesPerDay) a day")
        // The hours that hold 90 % of app use.
        var use = [Int](repeating: 0, count: 24)
        for open in opens { use[hour(open)] += 1 }
        var busy: Set<Int> = []
        var covered = 0
        for hour in (0..<24).sorted(by: { use[$0] > use[$1] }) where Double(covered) < 0.9 * Double(opens.count) {
            busy.insert(hour)
            covered += use[hour]
        }
        let inBusyHours = Double(launches.count { busy.contains(hour($0)) }) / Double(launches.count)
        #expect(inBusyHours >= 0.75, "\(inBusyHours) of launches in the \(busy.count) busiest hours")
        let smallHours = launches.count { (1...5).contains(hour($0)) }
        #expect(Double(smallHours) < 0.03 * Double(launches.count), "\(smallHours) launches between 01:00 and 06:00")
    }

    @Test("refresh stops entirely three weeks after the user stops opening the app (it fades before: FadingCalibrationTests)")
    func refreshStopsWhenUnused() throws {
        var scenario = Presets.scenario(named: "probe-refresh")!
        scenario.user.app.absences = [AppAbsence(startDay: 60, days: 1_000)]
        let (_, launches, opens) = try run(scenario, seed: 3, days: 120)
        let lastOpen = try #require(opens.last)
        #expect(lastOpen < .start + .days(60))
        let lastLaunch = try #require(launches.last)
        #expect(lastLaunch > lastOpen, "launches continue for a while")
        #expect(lastOpen.duration(to: lastLaunch) <= .days(21), "stopped \(lastOpen.duration(to: lastLaunch)) after the last use")
        #expect(launches.count { $0 > .start + .days(82) } == 0)
    }

    /// Keeps a processing request pending that requires the network but not power, so that
    /// where it runs is the launch model's choice, not a rule's.
    final class ProcessingOnAnyPower: BackgroundPolicy {
        func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
            app.taskScheduler.register(forTaskWithIdentifier: ProbePolicy.processingIdentifier) { task in
                self.submit(app)
                task.setTaskCompleted(success: true)
            }
        }
        func didEnterBackground(_ app: AppContext) { submit(app) }
        func submit(_ app: AppContext) {
            var request = TaskRequest.processing(identifier: ProbePolicy.processingIdentifier, requiresNetworkConnectivity: true)
            request.earliestBeginDate = app.date + .minutes(15)
            try? app.taskScheduler.submit(request)
        }
    }

    @Test("processing the model may run on battery still runs at least 80 % of the time on the charger", arguments: [UInt64(1), 2])
    func processingPrefersTheCharger(seed: UInt64) throws {
        let (result, launches, _) = try run(Presets.scenario(named: "probe-processing")!, seed: seed, days: 200, policy: { ProcessingOnAnyPower() })
        #expect(launches.count > 100)
        #expect(result.os.launchesWhileChargingShare >= 0.8)
        #expect(result.os.launchesWhileChargingShare < 1, "some on battery: the rules allowed it")
    }

    @Test("processing that requires power: mostly at night, on most days", arguments: [UInt64(1), 2])
    func processingOnCharger(seed: UInt64) throws {
        let (_, launches, _) = try run(Presets.scenario(named: "probe-processing")!, seed: seed, days: 200)
        let night = launches.count { let h = hour($0); return h >= 21 || h < 6 }
        #expect(Double(night) >= 0.5 * Double(launches.count), "\(night) of \(launches.count) at night")
        let days = Set(launches.map { Int($0.sinceStart / .days(1)) })
        #expect(days.count >= 140, "a launch on \(days.count) of 200 days")
    }

    @Test("the eager model launches far more than the heuristic, the stingy model far less")
    func modelsOrdered() throws {
        var eager = Presets.scenario(named: "probe-refresh")!
        eager.system.launchModel = .eager
        var stingy = eager
        stingy.system.launchModel = .stingy
        let heuristicRate = try run(Presets.scenario(named: "probe-refresh")!, seed: 4, days: 60).result.os.refreshLaunchesPerDay
        let eagerRate = try run(eager, seed: 4, days: 60).result.os.refreshLaunchesPerDay
        let stingyRate = try run(stingy, seed: 4, days: 60).result.os.refreshLaunchesPerDay
        // Eager: one launch every 15 min while not in Low Power Mode, about 90 a day.
        #expect(eagerRate > 60, "eager \(eagerRate)")
        #expect(stingyRate < heuristicRate / 2, "stingy \(stingyRate), heuristic \(heuristicRate)")
        #expect(stingyRate > 0)
    }
}

@Suite("System event filtering")
struct SystemFilteringTests {
    @Test("skipping device events and evaluations that cannot matter changes nothing", arguments: [
        ("probe-refresh", LaunchModelKind.heuristic), ("probe-refresh", .eager), ("probe-processing", .heuristic),
        ("probe-processing", .eager), ("probe-refresh", .stingy),
    ])
    func filteringIsInvisible(preset: String, model: LaunchModelKind) throws {
        var scenario = Presets.scenario(named: preset)!
        scenario.system.launchModel = model
        func run(everyEvent: Bool) throws -> (RunResult, [String]) {
            final class Sink { var lines: [String] = [] }
            let sink = Sink()
            let result = try SimulationRunner.run(
                scenario: scenario, seed: 8, days: 40, policy: nil, tracer: nil,
                log: { entry in
                    // Evaluations that cannot launch are what filtering skips: their denials differ.
                    if case .launchDecision(_, _, .notLaunched) = entry.event { return }
                    // And the lines that say which evaluations filtering passes over, and why.
                    if case .launchDeferred = entry.event { return }
                    sink.lines.append("\(entry.time) \(entry.event)")
                },
                configure: { system in
                    system.reactsToEveryDeviceEvent = everyEvent
                    // And evaluate at every tick, not only those that could launch.
                    guard everyEvent else { return }
                    if var heuristic = system.admission.model as? HeuristicLaunchModel {
                        heuristic.skipsFutileEvaluations = false
                        system.admission.replaceModel(heuristic)
                    } else if var stingy = system.admission.model as? StingyLaunchModel {
                        stingy.skipsFutileEvaluations = false
                        system.admission.replaceModel(stingy)
                    } else {
                        #expect(model == .eager, "the \(model) model's evaluations were not all made")
                    }
                })
            return (result, sink.lines)
        }
        let filtered = try run(everyEvent: false)
        let unfiltered = try run(everyEvent: true)
        // The digests differ (fewer evaluation events fire); everything else the system did may not.
        #expect(filtered.1 == unfiltered.1)
        // Apart from the denials counted (the skipped evaluations' denials are what differ).
        let filteredOS = filtered.0.os, unfilteredOS = unfiltered.0.os
        for kind in [TaskRequest.Kind.appRefresh, .processing] {
            #expect(filteredOS.metrics.launchDecisions.launched(kind) == unfilteredOS.metrics.launchDecisions.launched(kind))
        }
        #expect(filteredOS.metrics.withoutLaunchDecisions == unfilteredOS.metrics.withoutLaunchDecisions)
        #expect(filtered.0.device == unfiltered.0.device)
        #expect(filtered.0.events <= unfiltered.0.events)
        #expect(filtered.0.os.metrics.launches > 0)
    }
}
