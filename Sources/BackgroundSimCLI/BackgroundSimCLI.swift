import BackgroundSim
import BackgroundSimLab
import CommandLineSupport
import Foundation

/// The whole of `bgsim` as a library: every subcommand, with a team's own policies usable by
/// name in scenario files, sweeps and comparisons.
///
/// `bgsim` itself is this with the built-in policies. A team's executable target gets the same
/// tool with its policies in a few lines:
///
///     import BackgroundSim
///     import BackgroundSimCLI
///
///     @main
///     enum MySim {
///         static func main() throws {
///             var policies = PolicyRegistry.builtIn
///             try policies.register(PolicyDefinition(name: "my-upload", summary: "Uploads on every wake.",
///                                                    parameters: UploadParameters.self) { UploadPolicy(parameters: $0) })
///             BackgroundSimCLI(policies: policies).main()
///         }
///     }
///
/// A registered name then works wherever a preset's does (`mysim run --preset my-upload`,
/// `mysim compare proton-upload-designed my-upload`: the default scenario with that policy), in a scenario
/// file's `app.policy`, and in sweep axes over `app.policy.parameters.*`.
public struct BackgroundSimCLI: Sendable {
    /// The policies scenario files and command lines may name.
    public var policies: PolicyRegistry
    /// Scenarios the tool offers by name besides the built-in presets (listed by `presets`).
    public var presets: [Presets.Preset]
    /// The tool's name, in messages.
    public var toolName: String

    /// The tool with `policies` and extra `presets`.
    public init(policies: PolicyRegistry = .builtIn, presets: [Presets.Preset] = [], toolName: String = "bgsim") {
        self.policies = policies
        self.presets = presets
        self.toolName = toolName
    }

    /// Runs the command line of this process and exits with its status.
    public func main() -> Never {
        // While the process has one thread: what the package's libraries prepare before any
        // run (the broker that starts the app's own processes, for policies of app code).
        ToolStart.run(policies: policies)
        exit(run(Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs one command line (without the tool's name) and returns its exit status: 0 success,
    /// 1 a failure found (`check`) or an error while running, 2 bad input, reported on standard
    /// error before anything runs.
    public func run(_ arguments: [String]) -> Int32 {
        let context = CLIContext(policies: policies, extraPresets: presets, toolName: toolName)
        do {
            let status = try Self.dispatch(arguments, context)
            precondition((0...1).contains(status), "\(toolName): a subcommand returned exit status \(status); 2 is for bad input, thrown")
            return status
        } catch let error as UsageError {
            Output.error(Self.badInputReport(context.named(error.message), toolName: toolName))
            return 2
        } catch let error as ScenarioError {
            // Bad input found at a run's door (scenario files are checked when read).
            Output.error(Self.badInputReport(error.description, toolName: toolName))
            return 2
        } catch let error as SweepFileError {
            // A results file that cannot be trusted: bad input too.
            Output.error(Self.badInputReport(error.message, toolName: toolName))
            return 2
        } catch {
            Output.error("\(toolName): \(error)")
            return 1
        }
    }

    /// The most problems a bad-input report lists; the rest are counted.
    static let reportedProblems = 20

    /// A bad-input message as the tool reports it: each line prefixed with the tool's name, and
    /// past the first ``reportedProblems`` lines, a count of the rest instead of them, so that a
    /// file with thousands of mistakes gives a screenful, not megabytes.
    static func badInputReport(_ message: String, toolName: String) -> String {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        var shown = lines.prefix(reportedProblems).map { "\(toolName): \($0)" }
        if lines.count > reportedProblems {
            let rest = lines.count - reportedProblems
            shown.append("\(toolName): … and \(rest) more problem\(rest == 1 ? "" : "s") (fix these and run again to see them)")
        }
        return shown.joined(separator: "\n")
    }

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
          tune             Find a policy's best parameters under an objective, with a stated guarantee.
          fieldlog         Summarise field logs of when iOS ran an app's tasks on real (or simulated) phones.
          calibrate        Fit the launch model to field logs, with intervals and its goodness of fit.
          whatif           What a policy costs in battery across network, charging, usage and device.
          check            Check a policy against invariants over many seeds; shrink a failure to a replay.
          trace            Write a Perfetto / chrome://tracing timeline of one run.
          presets          List the built-in scenarios.
          scenario         Print a scenario with every parameter filled in (default: the defaults).
          help             Show this help ('help --markdown': every command's help, as docs/COMMANDS.md).
          version          Print the version.

        Run 'bgsim help SUBCOMMAND' (or 'bgsim SUBCOMMAND --help') for its options.
        """

    /// The subcommands that take arguments: each one's usage and what runs it (returning the
    /// exit status).
    static func subcommands(_ context: CLIContext) -> [String: (usage: String, run: (ArraySlice<String>) throws -> Int32)] {
        [
            "run": (RunCommand.usage, { try RunCommand.run($0, context) }),
            "compare": (CompareCommand.usage, { try CompareCommand.run($0, context) }),
            "sweep": (SweepCommand.usage, { try SweepCommand.run($0, context) }),
            "merge": (SweepCommand.usage, { try SweepCommand.merge($0, context) }),
            "tune": (TuneCommand.usage, { try TuneCommand.run($0, context) }),
            "fieldlog": (FieldLogCommand.usage, { try FieldLogCommand.run($0, context) }),
            "calibrate": (CalibrateCommand.usage, { try CalibrateCommand.run($0, context) }),
            "whatif": (WhatIfCommand.usage, { try WhatIfCommand.run($0, context) }),
            "check": (CheckCommand.usage, { try CheckCommand.run($0, context) }),
            "trace": (TraceCommand.usage, { try TraceCommand.run($0, context) }),
            "scenario": (ScenarioCommand.usage, { try ScenarioCommand.run($0, context); return 0 }),
            "presets": (PresetsCommand.usage, { try PresetsCommand.run($0, context) }),
        ]
    }

    /// The subcommands in the order the overview lists them; `merge` shares `sweep`'s help.
    static let subcommandOrder = ["run", "compare", "sweep", "tune", "fieldlog", "calibrate", "whatif", "check", "trace",
                                  "presets", "scenario"]

    /// The command-line reference, `docs/COMMANDS.md`: the overview and every subcommand's help,
    /// verbatim, as Markdown (a test checks the committed file against it).
    static func markdownReference(_ context: CLIContext) -> String {
        let subcommands = subcommands(context)
        precondition(Set(subcommandOrder + ["merge"]) == Set(subcommands.keys), "the reference's order misses a subcommand")
        var text = """
            # Command reference

            Every command's help, exactly as `bgsim help SUBCOMMAND` prints it. This file is generated
            by `bgsim help --markdown > docs/COMMANDS.md`, and a test fails when it differs from the
            tool's help. The guides explain the commands' outputs and methods: docs/OUTPUT.md
            (`run`, `compare`), docs/SWEEPS.md (`sweep`, `merge`), docs/TUNING.md (`tune`),
            docs/FIELD-LOGS.md (`fieldlog`), docs/CALIBRATION.md (`calibrate`), docs/WHATIF.md (`whatif`) and
            docs/CHECKING.md (`check`).

            ## bgsim

            ```text
            \(usage)
            ```

            """
        for name in subcommandOrder {
            guard let subcommand = subcommands[name] else { preconditionFailure("no subcommand '\(name)'") }
            let heading = name == "sweep" ? "bgsim sweep, bgsim merge" : "bgsim \(name)"
            text += "\n## \(heading)\n\n```text\n\(subcommand.usage)\n```\n"
        }
        return text
    }

    static func dispatch(_ arguments: [String], _ context: CLIContext) throws -> Int32 {
        let subcommands = subcommands(context)
        switch arguments.first {
        case "help" where arguments.count == 2 && arguments[1] == "--markdown":
            print(context.named(markdownReference(context)), terminator: "")
        case "help" where arguments.count == 2:
            // `bgsim help run`: that subcommand's help.
            guard let subcommand = subcommands[arguments[1]] else {
                throw UsageError("unknown subcommand '\(arguments[1])'; run '\(context.toolName) --help' for the list")
            }
            print(context.named(subcommand.usage))
        case "help" where arguments.count > 2:
            throw UsageError("help takes one subcommand's name (or --markdown), got '\(arguments.dropFirst().joined(separator: " "))'")
        case nil, "help", "-h", "--help":
            print(context.named(usage))
        case "version", "--version":
            print("\(context.toolName) \(version)")
        case let word?:
            guard let subcommand = subcommands[word] else {
                throw UsageError("unknown subcommand '\(word)'; run '\(context.toolName) --help' for the list")
            }
            if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
                print(context.named(subcommand.usage))
            } else {
                return try subcommand.run(arguments.dropFirst())
            }
        }
        return 0
    }
}
