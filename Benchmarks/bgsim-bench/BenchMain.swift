import BackgroundSim
import CommandLineSupport
import Foundation
import SimKernel

/// `bgsim-bench`: BackgroundSim's benchmarks. Each prints, as its last line, one JSON object with
/// at least `benchmark`, `seconds` and the benchmark's figure. Build with `-c release`.
@main
enum BenchMain {
    static let usage = """
        USAGE: bgsim-bench <benchmark> [options]

        Benchmarks (build with -c release for meaningful figures):
          kernel-hold      The hold model on the simulation kernel: P pending timers, each firing
                           reschedules itself after an exponential delay (mean 1 s), until E events.
          raw-heap-hold    The same model on a bare array binary heap with no kernel: the ceiling.

          device-days      Simulates one device for D days of a preset, single-threaded
                           (default preset device-only: the device alone).
          scenario-days    The same with the iOS model and an app (default preset probe-refresh).
          sweep            S seeds × D days of a preset as replications on J jobs (default 1,000 × 1,000
                           of proton-upload-designed: one million device-days).
          check            S seeds × D days of a preset checked against the invariant library on J jobs
                           (default 10,000 × 7 of coverdrop-designed); --swarm draws each seed's scenario.
          calibrate        Field logs of S phones × D days of a preset, then what 'bgsim calibrate' does
                           with them, report and fragment included (default 250 × 28 of
                           coverdrop-shipped: 1,000 device-weeks); the logs are timed apart.
          (The app's own code under SimulatedBackgroundTasks has a benchmark of its own:
          bgsim-app-bench --help.)

        Options for kernel-hold and raw-heap-hold:
          --pending P      Timers pending at once (default 1000).
          --events E       Events to fire (default 10000000).
          --seed S         Root seed (default 1).

        Options for sweep: --seeds S (1000), --days D (1000), --jobs J (all cores), --preset NAME.
        Options for check: --seeds S (10000), --days D (7), --jobs J (all cores), --preset NAME, --swarm.
        Options for calibrate: --seeds S (250), --days D (28), --start K (0: logs from install; K: the
          phones run K + D days and the first K are dropped), --jobs J (all cores), --preset NAME.

        Options for device-days and scenario-days:
          --days D         Simulated days (default 10000).
          --preset NAME    The scenario (see bgsim presets).
          --seed S         Root seed (default 1).

        The last line of output is one JSON object, for example:
          {"benchmark":"kernel-hold","pending":1000,"events":10000000,"seconds":1.2,"eventsPerSecond":8.3e6,"digest":"…"}
        """

    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
            print(usage)
            exit(arguments.isEmpty ? 2 : 0)
        }
        do {
            switch name {
            case "kernel-hold", "raw-heap-hold":
                try runHold(name, Flags(arguments.dropFirst(), known: ["pending", "events", "seed"]))
            case "sweep":
                try SweepBenchmark.run(Flags(arguments.dropFirst(), known: ["seeds", "days", "jobs", "preset"]))
            case "check":
                try CheckBenchmark.run(Flags(arguments.dropFirst(), known: ["seeds", "days", "jobs", "preset"], switches: ["swarm"]))
            case "calibrate":
                try CalibrateBenchmark.run(Flags(arguments.dropFirst(), known: ["seeds", "days", "start", "jobs", "preset"]))
            case "device-days", "scenario-days":
                try DeviceDaysBenchmark.run(name, Flags(arguments.dropFirst(), known: ["days", "seed", "preset"]))
            default:
                throw UsageError("unknown benchmark '\(name)'; run 'bgsim-bench --help' for the list")
            }
        } catch let error as UsageError {
            Output.error("bgsim-bench: \(error.message)")
            exit(2)
        } catch {
            Output.error("bgsim-bench: \(error)")
            exit(1)
        }
    }

    static func runHold(_ name: String, _ flags: Flags) throws {
        var parameters = HoldParameters()
        parameters.pending = try flags.integer("pending", default: parameters.pending, in: 1...100_000_000)
        parameters.events = try flags.integer("events", default: parameters.events, in: 0...Int(Int32.max) * 64)
        parameters.seed = try flags.unsigned("seed", default: parameters.seed)

        let clock = ContinuousClock()
        let start = clock.now
        let result = name == "kernel-hold" ? try KernelHold.run(parameters) : RawHeapHold.run(parameters)
        let seconds = (clock.now - start).inSeconds

        let eventsPerSecond = seconds > 0 ? Double(result.firedEvents) / seconds : 0
        print("""
            {"benchmark":"\(name)","pending":\(parameters.pending),"events":\(result.firedEvents),\
            "seed":\(parameters.seed),"seconds":\(rounded(seconds)),\
            "eventsPerSecond":\(Int(eventsPerSecond.rounded())),"digest":"\(result.digest)"}
            """)
    }

    static func rounded(_ value: Double) -> String {
        String(format: "%.4f", value)
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
