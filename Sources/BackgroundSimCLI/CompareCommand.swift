import BackgroundSim
import BackgroundSimLab
import CommandLineSupport
import Foundation

/// `bgsim compare`: two or more scenarios on the same seeds, with paired differences.
enum CompareCommand {
    static let usage = """
        USAGE: bgsim compare [SCENARIO SCENARIO...] [--with FRAGMENT]... [--seeds N] [--first-seed S] [--days D] [--jobs J]
                             [--format table|markdown|csv|json] [--output FILE] [--report FILE.html]
                             [--minimize KEY | --maximize KEY] [--subject-to BOUNDS] [--margins MARGINS]
                             [--precision KEYS|all|objective [--max-seeds N]]
                             [--model-uncertainty [--break-even PATHS]]

        Runs every scenario on the same seeds (the same user days, charging and network: common
        random numbers) and compares each with the first: means with 95 % confidence intervals,
        paired differences, and a verdict per metric — better or worse by at least the metric's
        margin (the smallest difference that matters), a real difference perhaps smaller than
        the margin, equivalent (within the margin), or inconclusive with the seeds that would
        decide it — Holm-corrected across metrics and candidates. The output starts with one recommendation: under the
        objective if one is given, else from the verdicts.
        A SCENARIO is a preset name (see 'bgsim presets') or a scenario JSON file. With none, the
        built-in default: the Guardian's CoverDrop message sending as its design document
        describes it against what its iOS code ships (cover traffic on every run, a run on every
        foreground), over \(defaultSeeds) seeds × \(defaultDays) days, minimising p90 message
        latency subject to the app using at most 0.05 % of the battery a day.

        OPTIONS:
          --with FRAGMENT    A scenario fragment laid over every scenario (repeatable, in order): objects
                             merge key by key, other values replace; for example the fragment
                             'bgsim calibrate --fragment' writes. docs/SCENARIOS.md, "Fragments".
          --seeds N          Seeds per scenario (default 20; \(defaultSeeds) for the built-in default).
          --first-seed S     The first seed; seeds are S, S+1, … (default 1).
          --days D           Simulated days per run (default 90; \(defaultDays) for the built-in default).
          --jobs J           Runs in parallel (default: all cores). The output does not depend on it.
          --format F         table, markdown, csv or json (default: as --output's extension .md, .csv or
                             .json says, else table).
          --output FILE      Write the result to FILE (atomically).
          --report FILE      Also write a self-contained HTML report with charts (atomically).
          --quiet            No progress on standard error (a line redrawn in place on a terminal, else
                             a line every 10 s once a run has taken 10 s).
        \(DecisionArguments.help)
          --precision P      Keep adding seeds — --seeds, then doubling up to --max-seeds, the same seeds
                             in the same order every time — until the verdicts on P are decided
                             (not inconclusive) for every candidate: comma-separated metric keys, all
                             (every metric with a better direction) or objective (the objective's
                             and bounds' metrics, and a confident recommendation). Each look decides
                             at 5 % divided by the number of possible looks, so the verdicts hold at
                             95 % overall. The output says whether it decided, after how many seeds.
          --max-seeds N      The most seeds --precision may run (default 640).
          --model-uncertainty
                             Draw, for each seed, every number of the iOS model that is our inference
                             or observed in the field from its plausible range (docs/SCENARIOS.md,
                             "Every number"; the same draw for every scenario, so the pairing holds):
                             the intervals then include what we do not know about iOS. With an
                             objective, the output ranks the numbers the decision is most sensitive
                             to, runs the comparison again with each of the top three set across
                             its plausible range (the others at their defaults, then drawn), and
                             says where the recommendation changes: "holds unless X > v (plausible
                             up to w)", with the arm of least maximum regret over those runs
                             (docs/OUTPUT.md, "Under model uncertainty"). About 20–40 more
                             comparisons.
          --break-even PATHS Also search these numbers, comma-separated paths with a plausible
                             range (system.heuristic.refreshBasePerDay,…; docs/SCENARIOS.md).

        EXAMPLES:
          bgsim compare --report comparison.html
          bgsim compare --model-uncertainty --report robust.html
          bgsim compare coverdrop-shipped my-coverdrop.json --seeds 40 --days 120 --format markdown
          bgsim compare proton-upload-designed proton-upload-urlsession --maximize work.completionPercent \\
                        --subject-to 'energy.appBatteryPercentPerDay<=0.1' --margins work.completionPercent=2
        """

    /// The numbers `--break-even` names, checked: each a path of the model uncertainty's, and
    /// the flag only with `--model-uncertainty` and an objective.
    static func breakEvenPaths(_ flags: Flags, uncertainty: ModelUncertainty?, objective: Objective?) throws -> [String] {
        guard let text = flags.string("break-even") else { return [] }
        guard let uncertainty else { throw UsageError("--break-even needs --model-uncertainty") }
        guard objective != nil else { throw UsageError("--break-even needs an objective: add --minimize KEY or --maximize KEY") }
        let known = uncertainty.parameters.map(\.path)
        return try text.split(separator: ",", omittingEmptySubsequences: false).map { part in
            let path = part.trimmingCharacters(in: .whitespaces)
            guard known.contains(path) else {
                let suggestion = known.first { $0.hasSuffix("." + path) }.map { " (did you mean \($0)?)" } ?? ""
                throw UsageError("--break-even expects paths of numbers with a plausible range (docs/SCENARIOS.md, \"Every number\"), "
                                 + "separated by commas; '\(path)' is not one\(suggestion)")
            }
            return path
        }
    }

    /// The built-in comparison: CoverDrop as designed against CoverDrop as shipped.
    static let defaultScenarios = [ReferenceApp.CoverDropName.designed, ReferenceApp.CoverDropName.shipped]
    static let defaultSeeds = 100
    static let defaultDays = 365
    /// The built-in comparison's objective: the sooner a source's message leaves, the better,
    /// within a twentieth of a percent of the battery a day.
    static let defaultObjective = ("minimize", "work.allItemsLatencyMinutes.p90", "energy.appBatteryPercentPerDay<=0.05")

    static func run(_ arguments: ArraySlice<String>, _ context: CLIContext) throws -> Int32 {
        let flags = try Flags(arguments, known: ["seeds", "first-seed", "days", "jobs", "format", "output", "report", "precision", "max-seeds", "break-even"] + DecisionArguments.flags, switches: ["quiet", "model-uncertainty"], repeatable: ["with"], allowsPositional: true)
        try flags.checkOutputPaths("output", "report")
        let builtIn = flags.positional.isEmpty
        guard builtIn || flags.positional.count >= 2 else {
            throw UsageError("compare needs at least two scenarios (preset names or files), or none for the built-in default; "
                             + "try 'bgsim compare coverdrop-designed coverdrop-shipped'")
        }
        let scenarios = try ScenarioArguments.load(builtIn ? defaultScenarios : flags.positional, context, overlays: flags.strings("with"))
        let count = try flags.integer("seeds", default: builtIn ? defaultSeeds : 20, in: 2...100_000)
        let first = try flags.unsigned("first-seed", default: 1)
        let days = try flags.integer("days", default: builtIn ? defaultDays : 90, in: SimulationRunner.days)
        let jobs = try flags.integer("jobs", default: Replications.defaultJobs, in: 1...1_024)
        let format = try flags.format(["table", "markdown", "csv", "json"], default: "table")
        let seeds = try flags.consecutiveSeeds(from: "first-seed", default: 1, count: count)
        let metrics = try DecisionArguments.metrics(flags, ComparedMetric.standard(including: scenarios.map(\.scenario)))
        var objective = try DecisionArguments.objective(flags, metrics: metrics)
        if builtIn && objective == nil {
            objective = try Objective.parse(goal: defaultObjective.0, key: defaultObjective.1, bounds: defaultObjective.2,
                                            metrics: metrics, source: "the built-in default")
        }
        if builtIn && !flags.isSet("quiet") {
            Output.error("\(context.toolName) compare: no scenarios given; comparing the built-in default, \(defaultScenarios.joined(separator: " vs ")), "
                         + "over \(count) seeds × \(days) days, to \(objective?.description ?? "")")
        }
        let uncertainty = flags.isSet("model-uncertainty") ? ModelUncertainty.standard : nil
        let named = try Self.breakEvenPaths(flags, uncertainty: uncertainty, objective: objective)
        // Under model uncertainty with an objective, the break-even search runs the comparison
        // again, about this many times more.
        let searches = uncertainty != nil && objective != nil
            ? 1 + BreakEven.expectedComparisons * (Sensitivity.testedNumbers + named.count) / Sensitivity.testedNumbers : 1
        var comparison: Comparison
        if let precision = flags.string("precision") {
            let maximum = try flags.integer("max-seeds", default: Swift.max(640, count), in: count...100_000)
            let keys: [String]
            switch precision {
            case "all": keys = []
            case "objective":
                guard let objective else { throw UsageError("--precision objective needs an objective: add --minimize KEY or --maximize KEY") }
                keys = objective.metrics.map(\.key)
            default:
                keys = precision.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                // An empty list, or an empty name in it, is refused: "every metric" is `all`.
                guard !keys.contains(where: \.isEmpty) else {
                    throw UsageError("--precision expects all, objective or metric keys separated by commas, got '\(precision)'")
                }
            }
            _ = try flags.firstOfConsecutiveSeeds(from: "first-seed", default: 1, count: maximum)   // no wrapping past 2⁶⁴ − 1
            context.announceCost("compare", scenario: scenarios[0].scenario, runs: scenarios.count * maximum * searches, days: days, jobs: jobs,
                                 quiet: flags.isSet("quiet"), evenIfShort: builtIn)
            // The most seeds it may run, for the meter; it stops early when decided.
            let meter = ProgressMeter(total: scenarios.count * maximum, deviceDaysPerItem: days, quiet: flags.isSet("quiet"))
            comparison = try Comparison.run(scenarios, firstSeed: first, initialSeeds: count, maximumSeeds: maximum, deciding: keys,
                                            days: days, jobs: jobs, metrics: metrics, objective: objective,
                                            modelUncertainty: uncertainty, progress: meter.advance).comparison
            meter.finish()
        } else {
            guard flags.string("max-seeds") == nil else { throw UsageError("--max-seeds needs --precision") }
            context.announceCost("compare", scenario: scenarios[0].scenario, runs: scenarios.count * seeds.count * searches, days: days, jobs: jobs,
                                 quiet: flags.isSet("quiet"), evenIfShort: builtIn)
            let meter = ProgressMeter(total: scenarios.count * seeds.count, deviceDaysPerItem: days,
                                      quiet: flags.isSet("quiet"))
            comparison = try Comparison.run(scenarios, seeds: seeds, days: days, jobs: jobs, metrics: metrics, objective: objective,
                                            modelUncertainty: uncertainty, progress: meter.advance)
            meter.finish()
        }
        if uncertainty != nil, let objective {
            // Where, inside the plausible ranges, the recommendation changes: each probe runs the
            // comparison again with one number set.
            let quiet = flags.isSet("quiet")
            comparison = try comparison.findingBreakEvens(of: scenarios, objective: objective, jobs: jobs, named: named) { search in
                if !quiet { Output.error("\(context.toolName) compare: break-even search: \(search)") }
            }
        }
        let text = switch format {
        case "markdown": ComparisonFormatter.markdown(comparison)
        case "csv": ComparisonFormatter.csv(comparison)
        case "json": JSONWriter.pretty(ComparisonFormatter.json(comparison))
        default: ComparisonFormatter.table(comparison)
        }
        if let path = flags.string("report") {
            let command = CommandOutput.commandLine("compare", flags, context)
            try Output.write(ComparisonReport.html(comparison, command: command), toFile: path)
        }
        try CommandOutput.emit(text, flags)
        return 0
    }
}
