import BackgroundSim
import BackgroundSimLab
import CommandLineSupport
import Foundation

/// `bgsim sweep FILE` and `bgsim merge`.
enum SweepCommand {
    static let usage = """
        USAGE: bgsim sweep FILE [--with FRAGMENT]... [--shard I/N] [--out RESULTS.jsonl] [--jobs J]
                           [--format table|markdown|csv|json] [--report FILE.html]
               bgsim merge RESULTS.jsonl... --out MERGED.jsonl [--sweep FILE [--format F] [--report FILE.html]]
                           [--allow-partial]

        Runs every cell of a sweep (a base scenario, axes of parameter values, seeds, days and two
        objectives; see docs/SWEEPS.md) and prints one recommendation (under the sweep's objective,
        if it has one), the cells, the Pareto front — with the cells the noise cannot rule off it —
        and the best cell for each objective with the cells that cannot be told apart from it.

        Results go to one JSON line per cell, appended as each cell finishes and put in cell order
        at the end. Each line carries a fingerprint of its cell's scenario, seeds, days and bgsim
        version: a rerun skips the cells whose lines still match and recomputes the others (an
        interrupted or edited sweep resumes), and merging the files of shards gives the same
        bytes as an unsharded run. Merge refuses missing cells, lines of another sweep, and files
        that are missing or cut short, naming them (exit 2), unless --allow-partial.

        OPTIONS:
          --with FRAGMENT    A scenario fragment laid over the sweep's base scenario before the axes
                             (repeatable, in order; the merge rule: docs/SCENARIOS.md), e.g. the
                             fragment bgsim calibrate wrote. A changed base recomputes every cell.
          --shard I/N        Run only cells whose index ≡ I (mod N), for I in 0..<N.
          --out FILE         The results file (default: NAME.jsonl beside the sweep file).
          --jobs J           Seeds run in parallel within a cell (default: all cores).
          --format F         The summary on standard output: table (default), markdown, csv or json.
          --report FILE      Also write a self-contained HTML report with the Pareto plot (atomically).
          --quiet            No progress on standard error (a line redrawn in place on a terminal, else
                             a line every 10 s once a run has taken 10 s).
          --allow-partial    (merge) Merge what there is: report missing cells and leave out lines of
                             another sweep instead of failing.
        \(DecisionArguments.help)
        """

    static func run(_ arguments: ArraySlice<String>, _ context: CLIContext) throws -> Int32 {
        let flags = try Flags(arguments, known: ["shard", "out", "jobs", "format", "report"] + DecisionArguments.flags, switches: ["quiet"],
                              repeatable: ["with"], allowsPositional: true)
        try flags.checkOutputPaths("out", "report")
        guard flags.positional.count == 1, let path = flags.positional.first else {
            throw UsageError("sweep needs one sweep file; see 'bgsim sweep --help'")
        }
        var definition = try withObjective(try load(path, context), flags)
        definition.base = try context.overlaying(flags.strings("with"), onDocument: definition.base, source: path)
        definition.fragments = flags.strings("with")
        let (shard, shards) = try shard(flags)
        let jobs = try flags.integer("jobs", default: Replications.defaultJobs, in: 1...1_024)
        let format = try flags.choice("format", formats, default: "table")
        let out = flags.string("out") ?? defaultOutput(path, definition, shard: shard, of: shards)
        try Output.checkDestination(out, for: "the results file")
        let state = try resultsFile { try SweepRunner.resumption(definition, source: path, shard: shard, of: shards, outputPath: out) }
        // Timed on up to four of the cells to run, across them: the values change what a run costs.
        let sample = Array(Set((0..<4).map { state.todo.isEmpty ? 0 : state.todo[$0 * state.todo.count / 4] })).sorted()
        let probed = sample.compactMap { try? definition.scenario(ofCell: $0, source: path) }
        if let scenario = probed.first, !state.todo.isEmpty {
            let policies = context.policies
            context.announceCost("sweep", scenario: scenario, runs: state.todo.count * definition.seeds.count, days: definition.days, jobs: jobs,
                                 quiet: flags.isSet("quiet"), probe: RunEstimate.Probe(runs: probed.count) { days in
                for scenario in probed { _ = try SimulationRunner.run(scenario: scenario, seed: 1, days: days, policies: policies) }
            })
        }
        let meter = ProgressMeter(total: state.todo.count * definition.seeds.count, deviceDaysPerItem: definition.days,
                                  quiet: flags.isSet("quiet"))
        let results = try SweepRunner.run(definition, source: path, shard: shard, of: shards, jobs: jobs, outputPath: out,
                                          resuming: state, progress: meter.advance,
                                          notice: { Output.error("\(context.toolName) sweep: \($0)") })
        meter.finish()
        try present(SweepSummary(definition: definition, results: results), format: format, flags: flags, command: "sweep", context)
        return 0
    }

    static func merge(_ arguments: ArraySlice<String>, _ context: CLIContext) throws -> Int32 {
        let flags = try Flags(arguments, known: ["out", "sweep", "format", "report"] + DecisionArguments.flags, switches: ["allow-partial"], allowsPositional: true)
        try flags.checkOutputPaths("out", "report")
        guard !flags.positional.isEmpty, let out = flags.string("out") else {
            throw UsageError("merge needs results files and --out FILE; see 'bgsim sweep --help'")
        }
        let format = try flags.choice("format", formats, default: "table")
        guard flags.string("sweep") != nil || (flags.string("format") == nil && flags.string("report") == nil) else {
            throw UsageError("--format and --report need the sweep file: add --sweep FILE")
        }
        let definition = try flags.string("sweep").map { try withObjective(try load($0, context), flags) }
        let merged = try resultsFile {
            try SweepRunner.merge(flags.positional, into: out, definition: definition, allowPartial: flags.isSet("allow-partial"))
        }
        if !merged.foreign.isEmpty {
            Output.error("\(context.toolName) merge: left out \(merged.foreign.count) line(s) of another sweep: \(merged.foreign.prefix(10).joined(separator: "; "))")
        }
        if !merged.missing.isEmpty {
            Output.error("\(context.toolName) merge: \(merged.missing.count) cells missing: \(SweepRunner.listed(merged.missing))")
        }
        if let definition {
            try present(SweepSummary(definition: definition, results: merged.results), format: format, flags: flags, command: "merge", context)
        } else {
            print("merged \(merged.results.count) cells into \(out)")
        }
        return 0
    }

    static let formats = ["table", "markdown", "csv", "json"]

    /// Runs `body`, reporting a results file that cannot be used as bad input (exit 2).
    /// The definition with the objective the flags give, if they give one (it replaces the file's).
    static func withObjective(_ definition: SweepDefinition, _ flags: Flags) throws -> SweepDefinition {
        var definition = definition
        let metrics = try DecisionArguments.metrics(flags, definition.metrics)
        try Objective.requireAbsoluteMargins(metrics, source: "--margins", path: "")
        if let objective = try DecisionArguments.objective(flags, metrics: metrics) {
            definition.objective = objective
        }
        return definition
    }

    /// `--shard I/N` as (I, N); (0, 1) without it.
    static func shard(_ flags: Flags) throws -> (Int, Int) {
        guard let text = flags.string("shard") else { return (0, 1) }
        let parts = text.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (0..<n).contains(i) else {
            throw UsageError("--shard expects I/N with 0 <= I < N, such as 0/4, got '\(text)'")
        }
        return (i, n)
    }

    static func resultsFile<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SweepFileError {
            throw UsageError(error.message)
        }
    }

    /// Prints the summary in `format` and writes the HTML report if `--report` asks for one.
    static func present(_ summary: SweepSummary, format: String, flags: Flags, command: String, _ context: CLIContext) throws {
        if let path = flags.string("report") {
            let shown = CommandOutput.commandLine(command, flags, context)
            try Output.write(SweepReport.html(summary, command: shown), toFile: path)
        }
        switch format {
        case "markdown": print(SweepFormatter.markdown(summary))
        case "csv": print(SweepFormatter.csv(summary))
        case "json": print(JSONWriter.pretty(SweepFormatter.json(summary)))
        default: print(summary.table)
        }
    }

    static func load(_ path: String, _ context: CLIContext) throws -> SweepDefinition {
        do {
            return try SweepDefinition.load(path: path, policies: context.policies, presets: context.presets)
        } catch {
            throw UsageError(error.description)
        }
    }

    static func defaultOutput(_ path: String, _ definition: SweepDefinition, shard: Int, of shards: Int) -> String {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        let name = shards == 1 ? "\(definition.name).jsonl" : "\(definition.name).shard-\(shard)-of-\(shards).jsonl"
        return directory.appendingPathComponent(name).path
    }
}
