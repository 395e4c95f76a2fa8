import CommandLineSupport
import Foundation

/// `bgsim-app-bench`: what running an app's own code under SimulatedBackgroundTasks costs. Apart
/// from `bgsim-bench` because the simulated frameworks need FoundationNetworking, which does not
/// link with `--static-swift-stdlib`. Prints, as its last line, one JSON object.
@main
enum AppBenchMain {
    static let usage = """
        USAGE: bgsim-app-bench [--days D] [--calls C] [--seed S] [--isolation shared|process-per-launch]

        The app's own code under SimulatedBackgroundTasks, a process per launch and one process:
        the time a launch adds and the time per call that awaits the simulated system's answer, for
        a probe app opened and swiped away 20 times a day (every open a launch) that makes C calls
        (default 200) at each open, over D days (default 100). With --isolation, one run of that
        isolation with the calls, and its time. Build with
        'swift build -c release --product bgsim-app-bench'.
        """

    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first == "--help" || arguments.first == "-h" || arguments.first == "help" {
            print(usage)
            exit(0)
        }
        do {
            try AppProcessBenchmark.run(Flags(arguments, known: ["days", "calls", "seed", "isolation"]))
        } catch let error as UsageError {
            Output.error("bgsim-app-bench: \(error.message)")
            exit(2)
        } catch {
            Output.error("bgsim-app-bench: \(error)")
            exit(1)
        }
    }
}
