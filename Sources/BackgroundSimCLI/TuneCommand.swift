import BackgroundSim
import BackgroundSimLab
import CommandLineSupport
import Foundation

/// `bgsim tune FILE`: searches a policy's parameters for the best configuration under an
/// objective, by a fully sequential ranking-and-selection procedure with a stated guarantee.
enum TuneCommand {
    static let usage = """
        USAGE: bgsim tune FILE [--with FRAGMENT]... [--shard I/N] [--jobs J] [--format table|markdown|csv|json]
                          [--output FILE] [--report FILE.html] [--quiet]

        Searches a policy's parameters (discrete values, or continuous ranges on an even grid) for
        the configuration with the best objective — such as the lowest p90 message latency
        subject to a battery bound — by a fully sequential selection procedure (Kim–Nelson) on
        common random numbers: every configuration runs a few seeds, then those still in
        contention run on, looked at after twice as many seeds each time; a configuration
        clearly worse than one meeting the bounds, or clearly over a bound, stops at the look
        that shows it, and the rest run as many seeds as the procedure needs for its guarantee:
        with 95 % probability the chosen configuration is within the indifference zone of the
        best one meeting the bounds (docs/TUNING.md). The output starts with one recommendation
        and lists the configurations that cannot be told apart from it.

        Results go to NAME.stage1.jsonl, NAME.stage2.jsonl, … beside FILE (one line per
        configuration and stage; stage 1 the first seeds, each later stage the seeds up to the
        next look); a rerun resumes. With --shard I/N a process runs its share of the current
        stage into NAME.stageK.shard-I-of-N.jsonl; every run reads all of NAME's files in the
        folder, so: run every shard, again while it says a stage waits for other shards, then run
        without --shard for the outcome. The outcome is the same bytes however it is split.

        OPTIONS:
          --with FRAGMENT    A scenario fragment laid over the tuning's base scenario (repeatable, in
                             order; the merge rule: docs/SCENARIOS.md), e.g. the fragment bgsim
                             calibrate wrote: tune your policy on your own users. A changed base
                             recomputes every configuration.
          --shard I/N        Run only this shard's share of each stage, for I in 0..<N.
          --jobs J           Seeds run in parallel within a configuration (default: all cores).
          --format F         table (default), markdown, csv or json.
          --output FILE      Write the outcome to FILE (atomically) instead of standard output.
          --report FILE      Also write a self-contained HTML report (atomically).
          --quiet            No progress on standard error (a line redrawn in place on a terminal, else
                             a line every 10 s once a run has taken 10 s).

        EXAMPLE:
          bgsim tune experiments/tune-coverdrop/coverdrop-delay.json --report tune.html
        """

    static func run(_ arguments: ArraySlice<String>, _ context: CLIContext) throws -> Int32 {
        let flags = try Flags(arguments, known: ["shard", "jobs", "format", "output", "report"], switches: ["quiet"],
                              repeatable: ["with"], allowsPositional: true)
        try flags.checkOutputPaths("output", "report")
        guard flags.positional.count == 1, let path = flags.positional.first else {
            throw UsageError("tune needs one tuning file; see 'bgsim tune --help'")
        }
        var definition = try TuneDefinition.load(path: path, policies: context.policies, presets: context.presets)
        definition.configurations.base = try context.overlaying(flags.strings("with"), onDocument: definition.configurations.base, source: path)
        definition.configurations.fragments = flags.strings("with")
        let (shard, shards) = try SweepCommand.shard(flags)
        let jobs = try flags.integer("jobs", default: Replications.defaultJobs, in: 1...1_024)
        let format = try flags.format(["table", "markdown", "csv", "json"], default: "table")
        let quiet = flags.isSet("quiet")
        let progress = try SweepCommand.resultsFile {
            try TuneRunner.run(definition, source: path, shard: shard, of: shards, jobs: jobs, stages: { stage, configurations, seeds in
                if !quiet { Output.error("\(context.toolName) tune: stage \(stage): \(configurations) configuration(s) × \(seeds) seeds") }
                if let scenario = try? definition.configurations.scenario(ofCell: 0, source: path) {
                    context.announceCost("tune", scenario: scenario, runs: configurations * seeds, days: definition.days, jobs: jobs, quiet: quiet)
                }
                let meter = ProgressMeter(total: configurations * seeds, deviceDaysPerItem: definition.days, quiet: quiet)
                return TuneRunner.StageProgress(advance: meter.advance, finish: meter.finish)
            }, notice: { Output.error("\(context.toolName) tune: \($0)") })
        }
        guard case .done(let tuning) = progress else {
            if case .waiting(let stage, let missing, let count) = progress {
                Output.error("\(context.toolName) tune: stage \(stage) has \(missing) of \(count) configuration(s) for other shards; "
                             + "run them (in this folder), then run this again")
            }
            return 0
        }
        let axes = definition.configurations.axes.map(\.path)
        let values = (0..<definition.configurations.cellCount).map(definition.configurations.values(ofCell:))
        let text = switch format {
        case "markdown": TuningFormatter.markdown(tuning, name: definition.name)
        case "csv": TuningFormatter.csv(tuning, axes: axes, values: values)
        case "json": JSONWriter.pretty(TuningFormatter.json(tuning, name: definition.name))
        default: TuningFormatter.table(tuning, name: definition.name)
        }
        if let report = flags.string("report") {
            let shown = CommandOutput.commandLine("tune", flags, context, alsoOmitting: ["shard"])
            try Output.write(TuningReport.html(tuning, name: definition.name, axes: axes, values: values, command: shown), toFile: report)
        }
        try CommandOutput.emit(text, flags)
        return 0
    }
}
