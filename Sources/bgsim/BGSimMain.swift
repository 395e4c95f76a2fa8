import BackgroundSim
import CommandLineSupport
import Foundation

/// `bgsim`: the BackgroundSim command-line tool.
@main
enum BGSimMain {
    static let version = BackgroundSimVersion.string

    static let usage = """
        OVERVIEW: BackgroundSim simulates, deterministically and fast, how iOS runs an app's
        background work: extensions, BGAppRefreshTask and BGProcessingTask launches, expirations
        and kills, under simulated days of user behaviour, charging, network and battery.

        USAGE: bgsim <subcommand> [options]

        SUBCOMMANDS:
          run              Simulate a preset or a scenario file and report what happened.
          compare          Compare two or more scenarios on the same seeds, with confidence intervals.
          sweep            Run a grid of parameter values (shardable, resumable) and find the Pareto front.
          merge            Merge the results files of sweep shards.
          whatif           What a policy costs in battery across network, charging, usage and device.
          check            Check a policy against invariants over many seeds; shrink a failure to a replay.
          trace            Write a Perfetto / chrome://tracing timeline of one run.
          presets          List the built-in scenarios.
          scenario         Print a scenario with every parameter filled in (default: the defaults).
          help             Show this help.
          version          Print the version.

        Run 'bgsim help SUBCOMMAND' (or 'bgsim SUBCOMMAND --help') for its options.
        """

    /// The subcommands that take arguments: each one's usage and what runs it (returning the
    /// exit status).
    static let subcommands: [String: (usage: String, run: @Sendable (ArraySlice<String>) throws -> Int32)] = [
        "run": (RunCommand.usage, RunCommand.run),
        "compare": (CompareCommand.usage, CompareCommand.run),
        "sweep": (SweepCommand.usage, SweepCommand.run),
        "merge": (SweepCommand.usage, SweepCommand.merge),
        "whatif": (WhatIfCommand.usage, WhatIfCommand.run),
        "check": (CheckCommand.usage, CheckCommand.run),
        "trace": (TraceCommand.usage, TraceCommand.run),
        "scenario": (ScenarioCommand.usage, { try ScenarioCommand.run($0); return 0 }),
        "presets": (PresetsCommand.usage, PresetsCommand.run),
    ]

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            switch arguments.first {
            case "help" where arguments.count == 2:
                // `bgsim help run`: that subcommand's help.
                guard let subcommand = subcommands[arguments[1]] else {
                    throw UsageError("unknown subcommand '\(arguments[1])'; run 'bgsim --help' for the list")
                }
                print(subcommand.usage)
            case nil, "help", "-h", "--help":
                print(usage)
            case "version", "--version":
                print("bgsim \(version)")
            case let word?:
                guard let subcommand = subcommands[word] else {
                    throw UsageError("unknown subcommand '\(word)'; run 'bgsim --help' for the list")
                }
                if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
                    print(subcommand.usage)
                } else {
                    exit(try subcommand.run(arguments.dropFirst()))
                }
            }
        } catch let error as UsageError {
            Output.error("bgsim: \(error.message)")
            exit(2)
        } catch let error as ScenarioError {
            // Bad input found at a run's door (scenario files are checked when read).
            Output.error("\(error)")
            exit(2)
        } catch {
            Output.error("bgsim: \(error)")
            exit(1)
        }
    }
}
