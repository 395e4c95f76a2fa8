import BackgroundSim
import BackgroundSimLab
import CommandLineSupport
import Foundation

/// `bgsim-bench sweep`: device-days per second of a whole sweep's worth of replications, on a
/// given number of jobs.
enum SweepBenchmark {
    static func run(_ flags: Flags) throws {
        let seeds = try flags.integer("seeds", default: 1_000, in: 1...1_000_000)
        let days = try flags.integer("days", default: 1_000, in: 1...100_000)
        let jobs = try flags.integer("jobs", default: Replications.defaultJobs, in: 1...1_024)
        let presetName = flags.string("preset") ?? "proton-upload-designed"
        guard let scenario = Presets.scenario(named: presetName) else {
            throw UsageError("unknown preset '\(presetName)'; expected one of \(Presets.all.map(\.name).joined(separator: ", "))")
        }
        let clock = ContinuousClock()
        let start = clock.now
        let results = try Replications.run(scenario, seeds: (1...UInt64(seeds)).map { $0 }, days: days, jobs: jobs)
        let seconds = (clock.now - start).inSeconds
        let deviceDays = seeds * days
        let digest = results.reduce(UInt64(0)) { $0 &* 31 &+ $1.digest.value }
        print("""
            {"benchmark":"sweep","preset":"\(presetName)","seeds":\(seeds),"days":\(days),"jobs":\(jobs),\
            "deviceDays":\(deviceDays),"seconds":\(String(format: "%.3f", seconds)),\
            "deviceDaysPerSecond":\(Int((Double(deviceDays) / seconds).rounded())),"digest":"\(String(digest, radix: 16))"}
            """)
    }
}
