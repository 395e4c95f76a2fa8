import BackgroundSim
import BackgroundSimLab
import CommandLineSupport
import SimKernel

/// `bgsim trace`: a Perfetto / chrome://tracing timeline of one run.
enum TraceCommand {
    static let usage = """
        USAGE: bgsim trace (--preset NAME | --scenario FILE) [--with FRAGMENT]... --out TRACE.json [--days N] [--seed S]
                           [--simulate-launch ID@TIME]... [--simulate-expiration ID@TIME]...

        Writes a Chrome trace-event file that opens in Perfetto (ui.perfetto.dev) and
        chrome://tracing: tracks for the screen, the app's state, background tasks, assertions,
        the work executor, the network and the charger, and a battery-level counter.

        OPTIONS:
          --with F     A scenario fragment laid over the scenario (repeatable, in order; docs/SCENARIOS.md).
          --days N     Simulated days (default 3, at most 60: traces grow with time).
          --seed S     Root seed (default 1).
          --out FILE   Where to write the trace (atomically).
        \(DebuggerFlags.help)
        """

    static func run(_ arguments: ArraySlice<String>, _ context: CLIContext) throws -> Int32 {
        let flags = try Flags(arguments, known: ["preset", "scenario", "days", "seed", "out"],
                              repeatable: ["with", DebuggerFlags.launch, DebuggerFlags.expiration])
        try flags.checkOutputPaths("out")
        let scenario = try RunCommand.loadScenario(flags, context, for: "trace")
        let days = try flags.integer("days", default: 3, in: 1...60)
        let seed = try flags.unsigned("seed", default: 1)
        guard let out = flags.string("out") else { throw UsageError("trace needs --out FILE") }
        let trace = PerfettoTrace()
        _ = try SimulationRunner.run(scenario: scenario, seed: seed, days: days, log: { trace.record($0) }, configure: { _ in },
                                     observer: { trace.observe(at: $1, device: $2, system: $3) })
        let document = trace.finish(at: .start + .days(days), title: "\(scenario.name), seed \(seed)")
        try Output.write(JSONWriter.compact(document) + "\n", toFile: out)
        print("wrote \(out): open it in ui.perfetto.dev or chrome://tracing")
        return 0
    }
}
