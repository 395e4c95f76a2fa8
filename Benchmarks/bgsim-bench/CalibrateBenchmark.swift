import BackgroundSim
import BackgroundSimCalibration
import BackgroundSimLab
import CommandLineSupport
import Foundation

/// `bgsim-bench calibrate`: what `bgsim calibrate` does on S simulated phones × D days of a
/// preset's field logs — the fit, the bootstrap intervals, the goodness of fit, the HTML report
/// and the fragment — timed apart from writing the logs. With `--start K`, the phones run
/// K + D days and the first K days' records are dropped: logs that begin after install.
enum CalibrateBenchmark {
    static func run(_ flags: Flags) throws {
        let seeds = try flags.integer("seeds", default: 250, in: 1...100_000)
        let days = try flags.integer("days", default: 28, in: 1...10_000)
        let startDay = try flags.integer("start", default: 0, in: 0...10_000)
        let jobs = try flags.integer("jobs", default: ProcessInfo.processInfo.activeProcessorCount, in: 1...1_024)
        let presetName = flags.string("preset") ?? "coverdrop-shipped"
        guard let scenario = Presets.scenario(named: presetName) else {
            throw UsageError("unknown preset '\(presetName)'; expected one of \(Presets.all.map(\.name).joined(separator: ", "))")
        }
        let clock = ContinuousClock()
        var start = clock.now
        let written = try FieldLogRecorder.run(scenario, seeds: (1...UInt64(seeds)).map { $0 }, days: startDay + days, jobs: jobs).records
        let firstDay = written.map(\.time.date.daysSinceEpoch).min() ?? 0
        let records = startDay == 0 ? written : written.filter { $0.time.date.daysSinceEpoch >= firstDay + startDay }
        let logSeconds = (clock.now - start).inSeconds
        start = clock.now
        let calibration = try LaunchCalibration.run(records, sources: ["benchmark"], base: scenario, jobs: jobs)
        let report = CalibrationReport.html(calibration)
        let fragment = JSONWriter.pretty(calibration.fragment)
        let seconds = (clock.now - start).inSeconds
        // FNV-1a over the fragment and the report: the same bytes on every run and machine.
        let digest = (fragment + report).utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        print("""
            {"benchmark":"calibrate","preset":"\(presetName)","seeds":\(seeds),"days":\(days),"start":\(startDay),"jobs":\(jobs),\
            "records":\(records.count),"deviceWeeks":\(String(format: "%.1f", Double(seeds * days) / 7)),\
            "logSeconds":\(String(format: "%.3f", logSeconds)),"seconds":\(String(format: "%.3f", seconds)),\
            "misfits":\(calibration.misfits.count),"digest":"\(String(digest, radix: 16))"}
            """)
    }
}
