import CommandLineSupport

/// What every subcommand that prints a result does with it: `--output FILE` or standard output,
/// and the command line its HTML report shows.
enum CommandOutput {
    /// The flags a report's command line leaves out: how the run went and where it wrote, not
    /// what it computed.
    static let incidentalFlags: Set<String> = ["jobs", "quiet", "report", "output", "format"]

    /// Writes `text` (and a newline) to the file `--output` names, atomically, or prints it.
    static func emit(_ text: String, _ flags: Flags) throws {
        if let path = flags.string("output") {
            try Output.write(text + "\n", toFile: path)
        } else {
            print(text)
        }
    }

    /// The command line that reproduces the result: the tool's name, `subcommand` and the flags
    /// but the incidental ones (and `alsoOmitting`), for a report to show.
    static func commandLine(_ subcommand: String, _ flags: Flags, _ context: CLIContext, alsoOmitting extra: Set<String> = []) -> String {
        ([context.toolName, subcommand] + flags.arguments(omitting: incidentalFlags.union(extra))).joined(separator: " ")
    }
}
