import Foundation

/// `bgsim`: the BackgroundSim command-line tool.
@main
enum BGSimMain {
    static let version = "0.1.0"

    static let usage = """
        OVERVIEW: BackgroundSim simulates, deterministically and fast, how iOS runs an app's
        background work: extensions, BGAppRefreshTask and BGProcessingTask launches, expirations
        and kills, under simulated days of user behaviour, charging, network and battery.

        USAGE: bgsim <subcommand> [options]

        SUBCOMMANDS:
          help             Show this help.
          version          Print the version.

        OPTIONS:
          -h, --help       Show this help.
          --version        Print the version.

        Simulation subcommands (run, compare, sweep, check) arrive with the device, iOS and
        policy models; see README.md. Benchmarks: bgsim-bench --help.
        """

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case nil, "help", "-h", "--help":
            print(usage)
        case "version", "--version":
            print("bgsim \(version)")
        case let word?:
            FileHandle.standardError.write(Data("bgsim: unknown subcommand '\(word)'; run 'bgsim --help' for the list\n".utf8))
            exit(2)
        }
    }
}
