import BackgroundSim
import BackgroundSimCalibration
import BackgroundSimLab
import CommandLineSupport
import Foundation

/// `bgsim run`: simulates one scenario and prints its report.
enum RunCommand {
    static let usage = """
        USAGE: bgsim run (--preset NAME | --scenario FILE) [--with FRAGMENT]... [--days N] [--seed S] [--format table|json]
                         [--output FILE] [--trace FILE | --field-log FILE] [--simulate-launch ID@TIME]... [--simulate-expiration ID@TIME]...
               bgsim run (--preset NAME | --scenario FILE) [--with FRAGMENT]... --seeds N [--seed S] [--days D] [--jobs J]
                         [--format table|json|csv] [--output FILE] [--field-log FILE]

        Simulates one device for N days and reports what the user, the phone, iOS and the app's
        background work did: launches and why requests waited, the work's latency and completion,
        and the energy it cost. The same scenario, seed and days give the same report and digest
        on any machine.

        OPTIONS:
          --preset NAME      A built-in scenario (see 'bgsim presets').
          --scenario FILE    A scenario JSON file ('-' for standard input); '{}' is the default scenario. See docs/SCENARIOS.md.
          --with FRAGMENT    A scenario fragment laid over the scenario (repeatable, in order): objects
                             merge key by key, other values replace; for example the fragment
                             'bgsim calibrate --fragment' writes. docs/SCENARIOS.md, "Fragments".
          --days N           Simulated days (default 365, at most 100000).
          --seed S           Root seed, 0 to 18446744073709551615 (default 1).
          --format F         table or json (default: json if --output ends in .json, else table). Fields:
                             docs/OUTPUT.md. With --seeds also csv.
          --output FILE      Write the report to FILE (atomically) instead of standard output; FILE's folder must exist,
                             and FILE must not be a directory, a device or a symbolic link (checked before the run).
          --trace FILE       Write every event and every iOS-model transition (launch, suspend,
                             assertion, submit, task launch, expiration, completion, kill) to FILE
                             as JSON lines. See docs/OUTPUT.md.
          --field-log FILE   Also write the field log an instrumented app would have written on each
                             simulated phone (device-SEED): foregrounds, task submissions, launches,
                             completions and expirations with charging, network and battery, in
                             local time. JSON lines, or CSV for a .csv FILE. See docs/FIELD-LOGS.md.
          --seeds N          Replications: run seeds S, S+1, … S+N−1 and summarise every field of
                             the report across them (mean ± 95 % CI, sd, p10, median, p90).
          --jobs J           Replications run in parallel (default: all cores); the output does
                             not depend on it.
          --quiet            No progress on standard error (replications only; a line redrawn in place on
                             a terminal, else a line every 10 s once a run has taken 10 s).
          --app-output       Also show, on standard error as the run goes, what the app's own code
                             writes (print, standard error, Logger), each line after its simulated
                             time. It is the device's log: never part of the report (the trace has
                             it as appOutput events). One run only.
        \(DebuggerFlags.help)

        EXIT STATUS: 0 success, 1 the simulation failed, 2 bad usage or a bad scenario.
        """

    static func run(_ arguments: ArraySlice<String>, _ context: CLIContext) throws -> Int32 {
        let flags = try Flags(arguments, known: ["preset", "scenario", "days", "seed", "format", "output", "trace", "seeds", "jobs", "field-log"],
                              switches: ["quiet", "app-output"], repeatable: ["with", DebuggerFlags.launch, DebuggerFlags.expiration])
        try flags.checkOutputPaths("output", "trace", "field-log")
        if flags.string("trace") != nil && flags.string("field-log") != nil {
            throw UsageError("--trace and --field-log both record the run's log; give one of them")
        }
        var scenario = try loadScenario(flags, context)
        // The report says which fragments made the scenario it ran, not the preset's name alone.
        let fragments = flags.strings("with").map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
        if !fragments.isEmpty { scenario.name += " with " + fragments.joined(separator: ", ") }
        let days = try flags.integer("days", default: 365, in: SimulationRunner.days)
        let seed = try flags.unsigned("seed", default: 1)
        if flags.string("seeds") != nil {
            guard !flags.isSet("app-output") else { throw UsageError("--app-output shows one run's app output; drop --seeds, or give --seed S") }
            return try replications(scenario, flags: flags, days: days, context)
        }
        for name in ["jobs", "quiet"] where flags.string(name) != nil {
            throw UsageError("--\(name) applies only with --seeds (replications); one run uses one thread")
        }
        let format = try flags.format(["table", "json"], default: "table")

        let trace = try flags.string("trace").map { path throws(UsageError) in try TraceWriter(path: path) }
        let result: RunResult
        if let path = flags.string("field-log") {
            let log = try FieldLogWriter(path: path)
            result = try FieldLogRecorder.run(scenario, seed: seed, days: days, device: "device-\(seed)", policies: context.policies,
                                              record: log.append)
            try log.commit()
        } else {
            let showsOutput = flags.isSet("app-output")
            let debugger = DebuggerOutcomes()
            let log: ((SystemLogEntry) -> Void)? = trace == nil && !showsOutput && scenario.debugger.isEmpty ? nil : { entry in
                trace?.system(entry)
                if showsOutput, case .appOutput(let line) = entry.event { Output.error("\(entry.time)  \(line)") }
                debugger.observe(entry)
            }
            result = try SimulationRunner.run(
                scenario: scenario, seed: seed, days: days,
                tracer: trace.map { writer in { writer.event($0) } }, log: log)
            for line in debugger.ignored { Output.error("\(context.toolName) run: warning: \(line)") }
        }
        try trace?.commit()
        let text = format == "json" ? JSONWriter.pretty(ReportFormatter.json(result)) : ReportFormatter.table(result)
        try CommandOutput.emit(text, flags)
        return 0
    }

    /// `--seeds N`: the scenario over N seeds, every report field summarised across them.
    static func replications(_ scenario: Scenario, flags: Flags, days: Int, _ context: CLIContext) throws -> Int32 {
        let policies = context.policies
        guard flags.string("trace") == nil else {
            throw UsageError("--trace records one run; drop --seeds, or trace one seed with 'bgsim trace'")
        }
        let count = try flags.integer("seeds", default: 1, in: 2...100_000)
        let jobs = try flags.integer("jobs", default: Replications.defaultJobs, in: 1...1_024)
        let format = try flags.format(["table", "json", "csv"], default: "table")
        let seeds = try flags.consecutiveSeeds(from: "seed", default: 1, count: count)
        context.announceCost("run", scenario: scenario, runs: seeds.count, days: days, jobs: jobs, quiet: flags.isSet("quiet"))
        let meter = ProgressMeter(total: seeds.count, deviceDaysPerItem: days, quiet: flags.isSet("quiet"))
        let summary: ReplicationSummary
        if let path = flags.string("field-log") {
            // Each phone writes to its own spool while it runs, and a batch's spools are copied
            // into the log in seed order: memory holds a block per phone and a few kilobytes a
            // seed, however long the run.
            let log = try FieldLogWriter(path: path)
            var accumulator = ReplicationSummary.Accumulator()
            try scenario.requireValid(policies: policies)
            let batch = 4 * jobs
            for start in stride(from: 0, to: seeds.count, by: batch) {
                let part = Array(seeds[start..<Swift.min(seeds.count, start + batch)])
                let spools = try part.map { seed throws(UsageError) in try log.spool(seed: seed) }
                let results = try ParallelRuns.map(count: part.count, jobs: jobs, progress: meter.advance) { index in
                    try FieldLogRecorder.run(scenario, seed: part[index], days: days, device: "device-\(part[index])",
                                             policies: policies, record: spools[index].append)
                }
                for (result, spool) in zip(results, spools) {
                    try log.append(spool)
                    accumulator.add(result)
                }
            }
            try log.commit()
            summary = accumulator.summary
        } else {
            // A batch of runs at a time, each reduced to its numbers: memory holds one batch's
            // reports (about 10 kB each) and each field's value per seed (about 2 kB a seed: the
            // percentiles need them all), not every run.
            var accumulator = ReplicationSummary.Accumulator()
            let batch = 64 * jobs
            for start in stride(from: 0, to: seeds.count, by: batch) {
                let part = Array(seeds[start..<Swift.min(seeds.count, start + batch)])
                for result in try Replications.run(scenario, seeds: part, days: days, jobs: jobs, policies: policies, progress: meter.advance) {
                    accumulator.add(result)
                }
            }
            summary = accumulator.summary
        }
        meter.finish()
        let text = switch format {
        case "json": JSONWriter.pretty(summary.json)
        case "csv": summary.csv
        default: summary.table
        }
        try CommandOutput.emit(text, flags)
        return 0
    }

    static func scenarioSource(_ flags: Flags) -> String {
        flags.string("scenario") ?? "preset \(flags.string("preset") ?? "")"
    }

    /// The scenario `--preset` or `--scenario` names, for `subcommand` (named in the message
    /// when neither is given).
    /// `--simulate-launch` and `--simulate-expiration`, where the subcommand takes them, add to
    /// its `debugger` section.
    static func loadScenario(_ flags: Flags, _ context: CLIContext, for subcommand: String = "run") throws -> Scenario {
        let scenario = try DebuggerFlags.applying(flags, to: loadNamedScenario(flags, context, for: subcommand))
        context.warnAboutNoOps(in: scenario)
        return scenario
    }

    private static func loadNamedScenario(_ flags: Flags, _ context: CLIContext, for subcommand: String) throws -> Scenario {
        switch (flags.string("preset"), flags.string("scenario")) {
        case (let name?, nil):
            guard let scenario = context.scenario(named: name) else {
                throw UsageError("unknown preset '\(name)'; \(context.unknownScenario(name))")
            }
            return try context.overlaying(flags.strings("with"), on: scenario)
        case (nil, let path?):
            return try context.overlaying(flags.strings("with"), on: context.loadScenario(path: path))
        case (nil, nil):
            throw UsageError("\(subcommand) needs --preset NAME or --scenario FILE; try '\(context.toolName) \(subcommand) --preset device-only'")
        case (_?, _?):
            throw UsageError("give either --preset or --scenario, not both")
        }
    }
}

/// The debugger's commands that did nothing in a run (`--simulate-launch` while the app was not
/// running, or with no request pending), to say so rather than leave the user to find it in a trace.
private final class DebuggerOutcomes {
    private(set) var ignored: [String] = []

    func observe(_ entry: SystemLogEntry) {
        switch entry.event {
        case .simulatedLaunch(let identifier, let outcome) where outcome != .done:
            ignored.append("--simulate-launch \(identifier) at \(entry.time) did nothing: \(Self.reason(outcome)) (as Xcode's debugger does then)")
        case .simulatedExpiration(let identifier, let outcome) where outcome != .done:
            ignored.append("--simulate-expiration \(identifier) at \(entry.time) did nothing: \(Self.reason(outcome)) (as Xcode's debugger does then)")
        default:
            break
        }
    }

    private static func reason(_ outcome: DebuggerOutcome) -> String {
        switch outcome {
        case .done: "it was carried out"
        case .appNotRunning: "the app was not running"
        case .noPendingRequest: "no request with that identifier was pending"
        case .noRunningTask: "no task with that identifier was running"
        case .notAdmitted: "the system's rules for the debugger held it back"
        }
    }
}
