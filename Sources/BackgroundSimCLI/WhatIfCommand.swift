import BackgroundSim
import BackgroundSimLab
import CommandLineSupport

/// `bgsim whatif`: what a policy costs in battery across network mixes, charging habits, app
/// usage and device models.
enum WhatIfCommand {
    static let usage = """
        USAGE: bgsim whatif SCENARIO... [--with FRAGMENT]... [--conditions FILE] [--seeds N] [--first-seed S] [--days D] [--jobs J]
                            [--format table|markdown|csv|json] [--output FILE] [--report FILE.html] [--model-uncertainty]

        Runs each scenario in every cell of a grid of conditions — network mix (mostly Wi-Fi,
        typical, mostly cellular with poor signal) × charging habits (every night, most nights,
        irregular) × app usage (several times a day, daily, weekly) × device (iPhone 12 mini,
        iPhone 15, iPhone 16 Pro Max): 81 cells, on the same seeds — and reports what the app's
        background work costs in battery (%/day) in typical conditions, how each condition moves
        it, and every cell. A SCENARIO is a preset name (see 'bgsim presets') or a scenario file;
        the grid's settings are applied on top of it (docs/WHATIF.md lists them). With
        --conditions, the grid is your own: dimensions of named levels, each a set of scenario
        settings, optionally with the share of your users at each level, which weighs the cells.

        OPTIONS:
          --with FRAGMENT    A scenario fragment laid over every scenario (repeatable, in order): objects
                             merge key by key, other values replace; for example the fragment
                             'bgsim calibrate --fragment' writes. docs/SCENARIOS.md, "Fragments".
          --conditions FILE  Your own grid of conditions instead of the standard one (docs/WHATIF.md).
          --model-uncertainty
                             Draw, for each seed, the iOS model's uncertain numbers from their plausible
                             ranges (as bgsim compare does; the same draw in every cell and for every
                             scenario), so the intervals include what we do not know about iOS.
          --seeds N          Seeds per cell (default 8).
          --first-seed S     The first seed; seeds are S, S+1, … (default 1).
          --days D           Simulated days per run (default 30).
          --jobs J           Runs in parallel (default: all cores). The output does not depend on it.
          --format F         table, markdown, csv or json (default: as --output's extension .md, .csv or
                             .json says, else table).
          --output FILE      Write the result to FILE (atomically).
          --report FILE      Also write a self-contained HTML report with charts (atomically).
          --quiet            No progress on standard error (a line redrawn in place on a terminal, else
                             a line every 10 s once a run has taken 10 s).

        EXAMPLE:
          bgsim whatif proton-upload-designed coverdrop-designed zashi-designed --report whatif.html
        """

    static func run(_ arguments: ArraySlice<String>, _ context: CLIContext) throws -> Int32 {
        let flags = try Flags(arguments, known: ["seeds", "first-seed", "days", "jobs", "format", "output", "report", "conditions"],
                              switches: ["quiet", "model-uncertainty"], repeatable: ["with"], allowsPositional: true)
        try flags.checkOutputPaths("output", "report")
        guard !flags.positional.isEmpty else {
            throw UsageError("whatif needs at least one scenario (a preset name or a file); try 'bgsim whatif proton-upload-designed'")
        }
        let scenarios = try ScenarioArguments.load(flags.positional, context, overlays: flags.strings("with"))
        let count = try flags.integer("seeds", default: 8, in: 2...100_000)
        let days = try flags.integer("days", default: 30, in: SimulationRunner.days)
        let jobs = try flags.integer("jobs", default: Replications.defaultJobs, in: 1...1_024)
        let format = try flags.format(["table", "markdown", "csv", "json"], default: "table")
        let seeds = try flags.consecutiveSeeds(from: "first-seed", default: 1, count: count)
        var grid = WhatIfGrid.standard
        if let path = flags.string("conditions") {
            do {
                grid = try WhatIfConditions.load(path: path, policies: context.policies)
            } catch {
                throw UsageError(error.description)
            }
        }
        if let first = scenarios.first {
            // Four cells across the grid: conditions change what a run costs.
            let sample = Array(Set((0..<4).map { $0 * grid.cellCount / 4 })).sorted()
            let policies = context.policies
            context.announceCost("whatif", scenario: first.scenario, runs: scenarios.count * grid.cellCount * seeds.count, days: days, jobs: jobs,
                                 quiet: flags.isSet("quiet"), probe: RunEstimate.Probe(runs: sample.count) { days in
                for cell in sample {
                    _ = try SimulationRunner.run(scenario: grid.scenario(first.scenario, cell: cell), seed: 1, days: days, policies: policies)
                }
            })
        }
        let meter = ProgressMeter(total: scenarios.count * grid.cellCount * seeds.count, deviceDaysPerItem: days,
                                  quiet: flags.isSet("quiet"))
        let study = try WhatIfStudy.run(scenarios, grid: grid, seeds: seeds, days: days, jobs: jobs,
                                        modelUncertainty: flags.isSet("model-uncertainty") ? ModelUncertainty.standard : nil,
                                        progress: meter.advance)
        meter.finish()
        if let path = flags.string("report") {
            let command = CommandOutput.commandLine("whatif", flags, context)
            try Output.write(WhatIfReport.html(study, command: command), toFile: path)
        }
        let text = switch format {
        case "markdown": WhatIfFormatter.markdown(study)
        case "csv": WhatIfFormatter.csv(study)
        case "json": JSONWriter.pretty(WhatIfFormatter.json(study))
        default: WhatIfFormatter.table(study)
        }
        try CommandOutput.emit(text, flags)
        return 0
    }
}
