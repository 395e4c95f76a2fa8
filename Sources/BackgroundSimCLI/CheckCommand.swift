import BackgroundSim
import BackgroundSimChecking
import BackgroundSimLab
import CommandLineSupport
import Foundation

/// `bgsim check`: runs a scenario over many seeds, checks the invariant library, and shrinks
/// the first failure to a small scenario with a replay line.
enum CheckCommand {
    static let usage = """
        USAGE: bgsim check (--preset NAME | --scenario FILE) [--with FRAGMENT]... [--seeds N] [--first-seed S] [--days D]
                           [--swarm [--pin DIMENSIONS]] [--within-hours H] [--jobs J] [--out DIR] [--no-shrink] [--quiet]
               bgsim check (--preset NAME | --scenario FILE) --seed S --days D

        Runs the scenario on N seeds for D days each and checks every run against the invariant
        library: the model's (time, battery, energy ledger, submit limits, no work while
        suspended, the assertion budget) and the policy's (every task completed exactly once, no
        leaked assertion, no crash), plus what a built-in policy promises about itself (CoverDrop:
        delays of 5–130 min, successful runs an hour apart on the device clock). With --swarm,
        each seed draws its own user, network, charging, launch model, clock jumps, faults and
        workload; --pin keeps the named dimensions at the scenario's values.

        On a violation: the first failure (the one earliest in its run) is shrunk — fewer days,
        fewer faults, a plainer scenario that still fails — and written to DIR, with the line that
        replays it; exit status 1. Otherwise exit status 0.

        OPTIONS:
          --with FRAGMENT    A scenario fragment laid over the scenario (repeatable, in order): objects
                             merge key by key, other values replace; for example the fragment
                             'bgsim calibrate --fragment' writes. docs/SCENARIOS.md, "Fragments".
          --seeds N          Seeds to check (default 100).
          --first-seed S     The first seed; seeds are S, S+1, … (default 1).
          --seed S           Check this one seed only (with --days: a replay line's check).
          --days D           Simulated days per run (default 7).
          --swarm            Draw a random scenario around the given one for each seed.
          --pin D,D          With --swarm, vary none of these (keep the scenario's): sessions, appUsage,
                             network, charging, launchModel, clock, faults, workload.
          --within-hours H   Also check liveness: every work item completes within H hours.
          --jobs J           Runs in parallel (default: all cores). The result does not depend on it.
          --out DIR          Where to write the minimal failing scenario (default: bgsim-failures, created
                             when a failure is written).
          --no-shrink        Report the failure as found.
          --quiet            No progress on standard error (shown only when it is a terminal).

        EXAMPLES:
          bgsim check --preset coverdrop-send-forgetful --seeds 1000
          bgsim check --preset proton-upload-designed --swarm --seeds 500 --days 7 --within-hours 24

        EXIT STATUS: 0 every invariant held, 1 a violation (or the simulation failed), 2 bad usage.
        """

    /// Where failures go unless `--out` says otherwise: a folder of their own, not the
    /// working directory.
    static let defaultDirectory = "bgsim-failures"

    static func run(_ arguments: ArraySlice<String>, _ context: CLIContext) throws -> Int32 {
        let flags = try Flags(arguments, known: ["preset", "scenario", "seeds", "first-seed", "seed", "days", "within-hours", "jobs", "out", "pin"],
                              switches: ["swarm", "no-shrink", "quiet"], repeatable: ["with"])
        if let directory = flags.string("out") { try Output.checkDirectory(directory, for: "--out") }
        let directory = flags.string("out") ?? defaultDirectory
        let scenario = try RunCommand.loadScenario(flags, context, for: "check")
        let days = try flags.integer("days", default: 7, in: SimulationRunner.days)
        let jobs = try flags.integer("jobs", default: ProcessInfo.processInfo.activeProcessorCount, in: 1...1_024)
        // Consecutive seeds, as a first and a count: ten million of them cost no memory.
        let first: UInt64, count: Int
        if flags.string("seed") != nil {
            guard flags.string("seeds") == nil else { throw UsageError("give --seed S (one seed) or --seeds N, not both") }
            (first, count) = (try flags.unsigned("seed", default: 1), 1)
        } else {
            count = try flags.integer("seeds", default: 100, in: 1...10_000_000)
            first = try flags.firstOfConsecutiveSeeds(from: "first-seed", default: 1, count: count)
        }
        var invariants = Invariants.standard + Invariants.declared(by: scenario)
        if flags.string("within-hours") != nil {
            invariants.append(WorkCompletesWithin(hours: try flags.number("within-hours", default: 24, in: 0.01...100_000)))
        }
        var checker = PolicyChecker(scenario: scenario, days: days, invariants: invariants)
        if flags.isSet("swarm") {
            var swarm = Swarm()
            for name in (flags.string("pin") ?? "").split(separator: ",", omittingEmptySubsequences: false) where flags.string("pin") != nil {
                guard let dimension = Swarm.Dimension(rawValue: String(name)) else {
                    throw UsageError("--pin expects dimensions from \(Swarm.Dimension.allCases.map(\.rawValue).joined(separator: ", ")), separated by commas, got '\(name)'")
                }
                swarm.varies.remove(dimension)
            }
            checker.swarm = swarm
        } else if flags.string("pin") != nil {
            throw UsageError("--pin needs --swarm")
        }

        context.announceCost("check", scenario: scenario, runs: count, days: days, jobs: jobs, quiet: flags.isSet("quiet"),
                             probe: RunEstimate.Probe { [checker] days in _ = try checker.check(seed: first, days: days) })
        let meter = ProgressMeter(total: count, deviceDaysPerItem: days, quiet: flags.isSet("quiet"))
        let report = try checker.checkKeepingFailures(first: first, count: count, jobs: jobs, progress: meter.advance)
        meter.finish()
        guard let firstFailure = report.firstFailure else {
            print("every invariant held: \(count) seed\(count == 1 ? "" : "s") × \(days) days of \(scenario.name)"
                  + "\(checker.swarm.map { " (swarm varying \($0.variesDescription))" } ?? ""), \(invariants.count) invariants: \(invariants.map(\.name).joined(separator: ", "))")
            return 0
        }
        var shrunk: ShrunkFailure?
        var file: String?
        if !flags.isSet("no-shrink") {
            let result = try Shrinker(checker: checker).shrink(firstFailure)
            let path = FailureReport.scenarioPath(in: directory, for: firstFailure)
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try ScenarioFile.write(result.minimal.scenario, to: path, toolName: context.toolName)
            } catch {
                throw UsageError("cannot write the minimal scenario to \(path): \(error.localizedDescription)")
            }
            shrunk = result
            file = path
        }
        print(FailureReport.describe(report, shrunk: shrunk, scenarioFile: file, replayable: true, toolName: context.toolName))
        return 1
    }
}
