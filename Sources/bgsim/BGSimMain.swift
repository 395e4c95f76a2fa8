import CommandLineSupport
import Foundation

/// `bgsim`: the BackgroundSim command-line tool.
@main
enum BGSimMain {
    static let version = "0.2.0"

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

        Run 'bgsim run --help' for the options of run.
        """

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            switch arguments.first {
            case nil, "help", "-h", "--help":
                print(usage)
            case "version", "--version":
                print("bgsim \(version)")
            case "run":
                if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
                    print(RunCommand.usage)
                } else {
                    exit(try RunCommand.run(arguments.dropFirst()))
                }
            case "compare":
                if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
                    print(CompareCommand.usage)
                } else {
                    exit(try CompareCommand.run(arguments.dropFirst()))
                }
            case "sweep", "merge":
                if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
                    print(SweepCommand.usage)
                } else {
                    exit(try arguments.first == "sweep" ? SweepCommand.run(arguments.dropFirst()) : SweepCommand.merge(arguments.dropFirst()))
                }
            case "whatif":
                if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
                    print(WhatIfCommand.usage)
                } else {
                    exit(try WhatIfCommand.run(arguments.dropFirst()))
                }
            case "check":
                if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
                    print(CheckCommand.usage)
                } else {
                    exit(try CheckCommand.run(arguments.dropFirst()))
                }
            case "trace":
                if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
                    print(TraceCommand.usage)
                } else {
                    exit(try TraceCommand.run(arguments.dropFirst()))
                }
            case "presets":
                PresetsCommand.run()
            case "scenario":
                if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
                    print(ScenarioCommand.usage)
                } else {
                    try ScenarioCommand.run(arguments.dropFirst())
                }
            case let word?:
                throw UsageError("unknown subcommand '\(word)'; run 'bgsim --help' for the list")
            }
        } catch let error as UsageError {
            Output.error("bgsim: \(error.message)")
            exit(2)
        } catch {
            Output.error("bgsim: \(error)")
            exit(1)
        }
    }
}
