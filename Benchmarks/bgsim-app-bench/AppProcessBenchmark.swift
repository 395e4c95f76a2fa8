import BackgroundSim
import CommandLineSupport
import Foundation
import SimulatedBackgroundTasks

/// `bgsim-app-bench`: what running the app's own code costs, with a process per launch
/// and in one process. A probe app makes `calls` calls that await the simulated system's answer
/// (random draws) at each launch and each return to the foreground, for a user who opens it 20
/// times a day and swipes it away each time (every open is a launch). Four runs — each isolation
/// with no calls and with `calls` — give the time per call (the difference over the calls made)
/// and the time a process per launch adds per launch (with no calls, over the launches).
enum AppProcessBenchmark {
    static func run(_ flags: Flags) throws {
        let days = try flags.integer("days", default: 100, in: 1...SimulationRunner.maximumDays)
        let calls = try flags.integer("calls", default: 200, in: 1...100_000)
        let seed = try flags.unsigned("seed", default: 1)
        if let only = flags.string("isolation") {
            // One run of one isolation, with the calls: what the instruction guard counts
            // (Benchmarks/instructions.txt); a process per launch forks, which callgrind does
            // not follow, so the guard counts the shared process.
            let isolations: [String: AppProcessIsolation] = ["shared": .sharedProcess, "process-per-launch": .processPerLaunch]
            guard let isolation = isolations[only] else { throw UsageError("--isolation: expected shared or process-per-launch, got '\(only)'") }
            let run = try measure(isolation: isolation, calls: calls, days: days, seed: seed)
            print(#"{"benchmark":"app-process","isolation":"\#(only)","days":\#(days),"seed":\#(seed),"launches":\#(run.launches),"calls":\#(run.calls),"seconds":\#(String(format: "%.3f", run.seconds))}"#)
            return
        }
        var figures: [String: Double] = [:]
        var launches = 0
        for isolation in [AppProcessIsolation.processPerLaunch, .sharedProcess] {
            let name = isolation == .processPerLaunch ? "processPerLaunch" : "sharedProcess"
            let idle = try measure(isolation: isolation, calls: 0, days: days, seed: seed)
            let busy = try measure(isolation: isolation, calls: calls, days: days, seed: seed)
            guard idle.launches == busy.launches, idle.launches > 0 else {
                throw UsageError("the probe's runs differ in launches (\(idle.launches), \(busy.launches)): the benchmark's premise fails")
            }
            launches = idle.launches
            figures["\(name)Seconds"] = idle.seconds
            figures["\(name)MicrosecondsPerCall"] = (busy.seconds - idle.seconds) / Double(busy.calls) * 1e6
            figures["\(name)DeviceDaysPerSecond"] = Double(days) / idle.seconds
        }
        let perLaunch = (figures["processPerLaunchSeconds"]! - figures["sharedProcessSeconds"]!) / Double(launches) * 1e6
        print("""
            {"benchmark":"app-process","days":\(days),"seed":\(seed),"launches":\(launches),"callsPerRun":\(calls),\
            "microsecondsAddedPerLaunch":\(Int(perLaunch.rounded())),\
            "microsecondsPerCall":{"processPerLaunch":\(String(format: "%.2f", figures["processPerLaunchMicrosecondsPerCall"]!)),\
            "sharedProcess":\(String(format: "%.2f", figures["sharedProcessMicrosecondsPerCall"]!))},\
            "deviceDaysPerSecondWithoutCalls":{"processPerLaunch":\(Int(figures["processPerLaunchDeviceDaysPerSecond"]!.rounded())),\
            "sharedProcess":\(Int(figures["sharedProcessDeviceDaysPerSecond"]!.rounded()))}}
            """)
    }

    private static func measure(isolation: AppProcessIsolation, calls: Int, days: Int, seed: UInt64) throws
        -> (seconds: Double, launches: Int, calls: Int) {
        var policies = PolicyRegistry.builtIn
        try policies.register(.appDelegate(name: "probe", summary: "Makes calls at each launch and return.", taskIdentifiers: [],
                                           isolation: isolation) { CallingDelegate(calls: calls) })
        let scenario = try ScenarioLoader.decode(#"""
            {"app": {"policy": "probe"},
             "user": {"app": {"profile": "custom", "customSessionsPerDay": 20, "forceQuitProbability": 1}}}
            """#, source: "app-process.json", policies: policies)
        var launches = 0, runs = 0
        let clock = ContinuousClock()
        let start = clock.now
        let result = try SimulationRunner.run(scenario: scenario, seed: seed, days: days, policies: policies, log: { entry in
            switch entry.event {
            case .launch: launches += 1; runs += 1
            case .willEnterForeground: runs += 1
            default: break
            }
        })
        let seconds = (clock.now - start).inSeconds
        guard launches > 0, result.os.metrics.appCodeCrashes == 0 else {
            throw UsageError("the probe app crashed (\(result.os.metrics.appCodeCrashes) times): this runtime cannot run the app's code "
                             + "(docs/RUN-YOUR-OWN-CODE.md, \"Supported toolchains\")")
        }
        return (seconds, launches, runs * calls)
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
