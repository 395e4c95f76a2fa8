import BackgroundSim
import BackgroundSimCalibration
import BackgroundSimLab
import CommandLineSupport

/// `bgsim fieldlog FILE…`: what field logs say about when the system ran an app's tasks.
enum FieldLogCommand {
    static let usage = """
        USAGE: bgsim fieldlog FILE... [--format table|json] [--output FILE]
                              [--replay FILE.json [--device ID]] [--quiet]

        Reads field logs — an app's own records of its task submissions, launches, completions and
        expirations and of the user opening it, with the phone's charging, network and battery where
        known (docs/FIELD-LOGS.md; 'bgsim run --field-log' writes them from simulated phones) — and
        summarises, per task kind: devices and days observed, launches per day, the delay from the
        earliest begin date to the launch, the spacing between launches, the share on the charger,
        launches per day by days since the app was last used, and the busiest hours. Intervals come
        from a bootstrap over devices (200 resamples, a fixed seed: the same output every time).
        A malformed record is reported with its file, line and field (exit 2).

        With --replay, also writes a scenario fragment whose launch model grants launches exactly
        when the logs say the system made them ('replay'; docs/CALIBRATION.md), so a policy can be
        run against real OS decisions: every device, one per seed, or the one --device names.

        OPTIONS:
          --format F         table (default) or json.
          --output FILE      Write the summary to FILE (atomically).
          --replay FILE      Write the replay scenario fragment to FILE (atomically).
          --device ID        Replay only this device's launches.
          --quiet            No progress on standard error.

        EXAMPLE:
          bgsim run --preset coverdrop-shipped --seeds 100 --days 28 --field-log logs.jsonl --quiet
          bgsim fieldlog logs.jsonl --replay replay.json
          bgsim run --scenario replay.json --seeds 20 --days 28
        """

    static func run(_ arguments: ArraySlice<String>, _ context: CLIContext) throws -> Int32 {
        let flags = try Flags(arguments, known: ["format", "output", "replay", "device"], switches: ["quiet"], allowsPositional: true)
        try flags.checkOutputPaths("output", "replay")
        if flags.string("device") != nil && flags.string("replay") == nil { throw UsageError("--device needs --replay FILE") }
        guard !flags.positional.isEmpty else { throw UsageError("fieldlog needs one or more field-log files; see 'bgsim fieldlog --help'") }
        let format = try flags.format(["table", "json"], default: "table")
        // A device at a time: memory holds a few devices' records and the features' totals, not the log.
        let replayDevice = flags.string("device")
        var features: FieldLogFeatures.Builder?
        var replay: ReplayedLaunches?
        let progress = FieldLogProgress(quiet: flags.isSet("quiet"))
        let counts = try FieldLogFormat.forEachDevice(paths: flags.positional, jobs: Replications.defaultJobs, progress: progress.step,
                                                      logEnd: { features = FieldLogFeatures.Builder(logEnd: $0) }) { device in
            features?.add(device)
            if flags.string("replay") != nil, replayDevice == nil || device.first?.device == replayDevice,
               let launches = FieldLogReplay.device(device) {
                replay = replay ?? ReplayedLaunches()
                replay?.devices.append(launches)
            }
        }
        progress.finish()
        if let path = flags.string("replay") {
            guard let replay else {
                // Blame what was given: the device asked for, or logs with no launch to replay.
                if let replayDevice { throw UsageError("--device: no device '\(replayDevice)' in the logs") }
                throw UsageError("--replay: the logs hold no device to replay (no records)")
            }
            try Output.write(JSONWriter.pretty(FieldLogReplay.fragment(replay, sources: flags.positional)) + "\n", toFile: path)
        }
        let summary = (features ?? FieldLogFeatures.Builder(logEnd: -.infinity)).features
        let text = format == "json" ? JSONWriter.pretty(FieldLogFeaturesFormatter.json(summary, records: counts.records, duplicatesDropped: counts.duplicatesDropped))
            : FieldLogFeaturesFormatter.table(summary, records: counts.records, duplicatesDropped: counts.duplicatesDropped)
        try CommandOutput.emit(text, flags)
        return 0
    }
}
