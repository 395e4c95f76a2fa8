import BackgroundSim
import BackgroundSimCalibration
import BackgroundSimLab
import CommandLineSupport

/// `bgsim calibrate FILE…`: the launch model fitted to field logs, with intervals, a scenario
/// fragment and a goodness-of-fit report.
enum CalibrateCommand {
    static let usage = """
        USAGE: bgsim calibrate FILE... [--preset NAME | --scenario FILE] [--with FRAGMENT]... [--metrickit FILE[,FILE...]]
                               [--fragment FILE.json] [--report FILE.html] [--format table|markdown|json]
                               [--output FILE] [--jobs J] [--quiet]

        Fits the launch model to field logs — an app's own records of when iOS ran its tasks on its
        users' phones (docs/FIELD-LOGS.md; 'bgsim run --field-log' writes them from simulated
        phones) — so that policies can be evaluated against the team's own users:

          - per task kind, the parameters that fit the logged launches best (maximum likelihood,
            given each phone's logged use, submissions and state), with 95 % intervals from a
            bootstrap over devices;
          - the goodness of fit: launches per day, by hour of day, the delay after the earliest
            begin date, the spacing, the share on the charger and the fading after the last use,
            in the logs and in replays of the logged phones under the fitted model, each with a
            plain verdict ("fits", "the model underestimates night launches … by 34 %");
          - what the model cannot express.

        The base scenario (default: the default scenario) supplies every parameter that is not
        fitted, and the charging and idleness of the phone between records, which no log shows.

        OPTIONS:
          --preset NAME      Base the calibration on a preset ('bgsim presets').
          --scenario FILE    Base it on a scenario file.
          --with FRAGMENT    A scenario fragment laid over the base (repeatable, in order).
          --metrickit FILES  MetricKit daily payloads (MXMetricPayload.jsonRepresentation(): an
                             object, an array or JSON lines per file, comma-separated): their
                             background time and background exits by reason per day, beside the
                             calibrated scenario's (give the base scenario your app's policy).
          --fragment FILE    Write the fitted values, with their provenance, as a scenario
                             fragment (atomically): use it as a scenario, or copy its
                             system.heuristic block into yours.
          --report FILE      Also write a self-contained HTML report (atomically).
          --format F         table (default), markdown or json (with the fragment).
          --output FILE      Write the summary to FILE (atomically) instead of standard output.
          --jobs J           Devices scored in parallel (default: all cores). The outcome is the
                             same for any J.
          --quiet            No progress on standard error.

        EXAMPLE:
          bgsim run --preset coverdrop-shipped --seeds 250 --days 28 --field-log logs.jsonl --quiet
          bgsim calibrate logs.jsonl --fragment calibrated.json --report calibration.html
        """

    static func run(_ arguments: ArraySlice<String>, _ context: CLIContext) throws -> Int32 {
        let flags = try Flags(arguments, known: ["preset", "scenario", "metrickit", "fragment", "report", "format", "output", "jobs"],
                              switches: ["quiet"], repeatable: ["with"], allowsPositional: true)
        try flags.checkOutputPaths("fragment", "report", "output")
        guard !flags.positional.isEmpty else { throw UsageError("calibrate needs one or more field-log files; see 'bgsim calibrate --help'") }
        let format = try flags.format(["table", "markdown", "json"], default: "table")
        let jobs = try flags.integer("jobs", default: Replications.defaultJobs, in: 1...1_024)
        let base = flags.string("preset") == nil && flags.string("scenario") == nil ? try context.overlaying(flags.strings("with"), on: Scenario())
            : try RunCommand.loadScenario(flags, context, for: "calibrate")
        let progress = FieldLogProgress(quiet: flags.isSet("quiet"))
        let log = try CalibrationLog.load(paths: flags.positional, jobs: jobs, progress: progress.step)
        progress.finish()
        if log.duplicatesDropped > 0 && !flags.isSet("quiet") {
            Output.error("\(context.toolName) calibrate: left out \(log.duplicatesDropped) record(s) that repeat another exactly (a batch uploaded twice?)")
        }
        var payloads: [MetricKitPayload] = []
        let metricKitPaths = (flags.string("metrickit") ?? "").split(separator: ",").map(String.init)
        try TextInput.requireDistinct(metricKitPaths, counted: "payloads")
        for path in metricKitPaths { payloads += try MetricKitPayload.read(path: path) }
        if flags.string("metrickit") != nil && payloads.isEmpty { throw UsageError("--metrickit: the files hold no payloads") }
        let quiet = flags.isSet("quiet")
        let calibration = try LaunchCalibration.run(log, sources: flags.positional, base: base, metricKit: payloads, policies: context.policies, jobs: jobs,
                                                    notice: { if !quiet { Output.error("\(context.toolName) calibrate: \($0)") } })
        let fragmentPath = flags.string("fragment")
        if let fragmentPath {
            try Output.write(JSONWriter.pretty(DocumentSeal.sealed(calibration.fragment, by: "\(context.toolName) calibrate")) + "\n", toFile: fragmentPath)
        }
        let use = Self.useCommand(flags, context, fragment: fragmentPath ?? "calibrated.json")
        if let report = flags.string("report") {
            try Output.write(CalibrationReport.html(calibration, command: CommandOutput.commandLine("calibrate", flags, context, alsoOmitting: ["fragment"]),
                                                    use: use), toFile: report)
        }
        let text = switch format {
        case "json": JSONWriter.pretty(CalibrationFormatter.json(calibration, use: use))
        case "markdown": CalibrationFormatter.markdown(calibration, fragmentPath: fragmentPath, use: use)
        default: CalibrationFormatter.table(calibration, fragmentPath: fragmentPath, use: use)
        }
        try CommandOutput.emit(text, flags)
        return 0
    }

    /// The command that runs the base scenario with the fitted values: `bgsim run`, the base as
    /// given (`--preset`, `--scenario`, its `--with` fragments), then `--with fragment`.
    static func useCommand(_ flags: Flags, _ context: CLIContext, fragment: String) -> String {
        var words = [context.toolName, "run"]
        if let preset = flags.string("preset") { words += ["--preset", preset] }
        if let scenario = flags.string("scenario") { words += ["--scenario", scenario] }
        if flags.string("preset") == nil && flags.string("scenario") == nil { words += ["--scenario", "'{}'"] }
        for path in flags.strings("with") { words += ["--with", path] }
        words += ["--with", fragment]
        return words.joined(separator: " ")
    }
}
