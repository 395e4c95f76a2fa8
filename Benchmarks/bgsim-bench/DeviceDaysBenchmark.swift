import BackgroundSim
import CommandLineSupport
import Foundation

/// `bgsim-bench device-days` and `scenario-days`: how many simulated device-days one thread runs
/// per second (they differ only in the default preset).
enum DeviceDaysBenchmark {
    static func run(_ name: String, _ flags: Flags) throws {
        let days = try flags.integer("days", default: 10_000, in: 1...SimulationRunner.maximumDays)
        let seed = try flags.unsigned("seed", default: 1)
        let presetName = flags.string("preset") ?? (name == "device-days" ? "device-only" : "probe-refresh")
        guard let scenario = Presets.scenario(named: presetName) else {
            throw UsageError("unknown preset '\(presetName)'; expected one of \(Presets.all.map(\.name).joined(separator: ", "))")
        }
        let clock = ContinuousClock()
        let start = clock.now
        let result = try SimulationRunner.run(scenario: scenario, seed: seed, days: days)
        let seconds = (clock.now - start).inSeconds
        let daysPerSecond = seconds > 0 ? Double(days) / seconds : 0
        print("""
            {"benchmark":"\(name)","preset":"\(presetName)","days":\(days),"seed":\(seed),\
            "seconds":\(String(format: "%.4f", seconds)),"deviceDaysPerSecond":\(Int(daysPerSecond.rounded())),\
            "events":\(result.events),"digest":"\(result.digest)"}
            """)
    }
}
