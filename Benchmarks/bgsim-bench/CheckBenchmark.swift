import BackgroundSim
import BackgroundSimChecking
import CommandLineSupport
import Foundation

/// `bgsim-bench check`: S seeds × D days of a preset checked against the invariant library (and
/// what the preset's policy declares), on J jobs, optionally as a swarm.
enum CheckBenchmark {
    static func run(_ flags: Flags) throws {
        let seeds = try flags.integer("seeds", default: 10_000, in: 1...10_000_000)
        let days = try flags.integer("days", default: 7, in: 1...100_000)
        let jobs = try flags.integer("jobs", default: ProcessInfo.processInfo.activeProcessorCount, in: 1...1_024)
        let presetName = flags.string("preset") ?? "coverdrop-designed"
        guard let scenario = Presets.scenario(named: presetName) else {
            throw UsageError("unknown preset '\(presetName)'; expected one of \(Presets.all.map(\.name).joined(separator: ", "))")
        }
        var checker = PolicyChecker(scenario: scenario, days: days, invariants: Invariants.standard + Invariants.declared(by: scenario))
        if flags.isSet("swarm") { checker.swarm = Swarm() }
        let clock = ContinuousClock()
        let start = clock.now
        let report = try checker.check(seeds: (1...UInt64(seeds)).map { $0 }, jobs: jobs)
        let seconds = (clock.now - start).inSeconds
        let deviceDays = seeds * days
        let digest = report.runs.reduce(UInt64(0)) { $0 &* 31 &+ $1.digest.value }
        print("""
            {"benchmark":"check","preset":"\(presetName)","swarm":\(flags.isSet("swarm")),"seeds":\(seeds),"days":\(days),\
            "jobs":\(jobs),"invariants":\(checker.invariants.count),"failures":\(report.failures.count),\
            "deviceDays":\(deviceDays),"seconds":\(String(format: "%.3f", seconds)),\
            "deviceDaysPerSecond":\(Int((Double(deviceDays) / seconds).rounded())),"digest":"\(String(digest, radix: 16))"}
            """)
    }
}
