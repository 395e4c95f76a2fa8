import BackgroundSim
import Foundation

/// What a long command is about to cost, said before it starts: the simulated device-days and
/// the time they should take on this machine, from a short timed probe of the scenario.
///
///     if let note = RunEstimate.note(scenario, deviceDays: 2e9, jobs: 2) { print(note) }
///     // "about 2 × 10⁹ device-days, ~6.3 days on 2 jobs here (from a 64-day probe)"
package enum RunEstimate {
    /// Commands estimated to take less than this say nothing: 30 s.
    package static let quietBelowSeconds = 30.0
    /// The probe stops doubling its length once a run takes this long: 0.1 s.
    static let probeSeconds = 0.1
    /// The speed-up per job when jobs run side by side, as a share of the ideal: 0.84, measured
    /// on the 2-core machine BENCHMARKS.md names (a year of `coverdrop-shipped` on 300 seeds,
    /// 11.0 s on one job and 6.5 s on two) [Inf]: the jobs share caches and memory bandwidth.
    static let parallelEfficiency = 0.84

    /// One unit of a command's work, `days` days of seed 1: what the probe times. By default a
    /// run of the scenario; `check` passes its checker, whose invariants cost time too, and
    /// `whatif` a run of a few of its cells, whose conditions make runs cheaper or dearer.
    package struct Probe {
        /// How many of the command's runs one call makes.
        package var runs: Int
        package var run: (_ days: Int) throws -> Void

        package init(runs: Int = 1, _ run: @escaping (_ days: Int) throws -> Void) {
            self.runs = runs
            self.run = run
        }
    }

    /// The note for running `deviceDays` of `scenario`, in runs of `days` days, on `jobs`
    /// parallel jobs, or `nil` when it should take less than ``quietBelowSeconds`` (unless
    /// `evenIfShort`). The probe runs first (at most a few tenths of a second); a scenario the
    /// probe cannot run gets no note (the command reports it).
    package static func note(_ scenario: Scenario, deviceDays: Double, jobs: Int, days: Int, policies: PolicyRegistry = .builtIn,
                             evenIfShort: Bool = false, probe: Probe? = nil) -> String? {
        guard deviceDays > 0,
              let estimate = seconds(scenario, deviceDays: deviceDays, jobs: jobs, days: days, policies: policies, probe: probe)
        else { return nil }
        guard estimate.seconds >= quietBelowSeconds || evenIfShort else { return nil }
        return "about \(count(deviceDays)) device-days, ~\(duration(estimate.seconds)) on \(jobs) job\(jobs == 1 ? "" : "s") here "
            + "(from a \(estimate.probeDays)-day probe)"
    }

    /// The seconds `deviceDays` of `scenario` should take, in runs of `days` days on `jobs`
    /// jobs, and the length of the probe it was timed on.
    package static func seconds(_ scenario: Scenario, deviceDays: Double, jobs: Int, days: Int, policies: PolicyRegistry = .builtIn,
                                probe: Probe? = nil) -> (seconds: Double, probeDays: Int)? {
        let probe = probe ?? Probe { days in _ = try SimulationRunner.run(scenario: scenario, seed: 1, days: days, policies: policies) }
        guard let cost = runSeconds(days: Swift.max(1, days), probe: probe.run) else { return nil }
        let runs = deviceDays / Double(Swift.max(1, days)) / Double(Swift.max(1, probe.runs))
        let parallel = Double(Swift.max(1, Swift.min(jobs, ProcessInfo.processInfo.activeProcessorCount)))
        let speedUp = parallel > 1 ? parallel * parallelEfficiency : 1
        return (runs * cost.seconds / speedUp, cost.probeDays)
    }

    /// The seconds one run of `days` days takes one job. A first, untimed day pays what only a
    /// process's first run costs (tables, lazily made state; a cold probe made notes up to nine
    /// times too long). Then runs of 1, 2, 4, … days are timed until one takes
    /// ``probeSeconds`` or is the whole run, and the last, timed twice, the faster kept, is
    /// scaled to `days`: short probes underestimated, since a run's first days are its cheapest. Wall-clock time goes only into
    /// the note on standard error, never into a simulated outcome: the probes' results are
    /// thrown away.
    static func runSeconds(days: Int, probe: (Int) throws -> Void) -> (seconds: Double, probeDays: Int)? {
        guard time(days: 1, probe) != nil else { return nil }
        var length = 1
        while true {
            guard let elapsed = time(days: length, probe) else { return nil }
            if elapsed >= probeSeconds || length >= days {
                // The faster of two timings: an interruption (another process, a page fault)
                // only ever lengthens one.
                let again = time(days: length, probe) ?? elapsed
                return (Swift.min(elapsed, again) * Double(days) / Double(length), length)
            }
            length = Swift.min(days, length * 2)
        }
    }

    /// Seconds `probe` takes for `days` days here; `nil` if it cannot run.
    private static func time(days: Int, _ probe: (Int) throws -> Void) -> Double? {
        let clock = ContinuousClock()
        let start = clock.now
        guard (try? probe(days)) != nil else { return nil }
        let parts = (clock.now - start).components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    /// A count of device-days: whole below a million with thousands separated (`52,000`),
    /// then `1.2 × 10⁹`.
    static func count(_ value: Double) -> String {
        if value < 1e6 {
            var digits = String(Int(value.rounded()))
            var grouped = ""
            while digits.count > 3 {
                grouped = "," + digits.suffix(3) + grouped
                digits.removeLast(3)
            }
            return digits + grouped
        }
        var mantissa = value, exponent = 0
        while mantissa >= 10 {
            mantissa /= 10
            exponent += 1
        }
        return "\(Format.significant((mantissa * 10).rounded() / 10)) × 10\(superscript(exponent))"
    }

    /// A duration in the largest unit that fits: `45 s`, `12 min`, `14 h`, `6.3 days`.
    static func duration(_ seconds: Double) -> String {
        switch seconds {
        case ..<90: "\(Int(seconds.rounded())) s"
        case ..<5_400: "\(Int((seconds / 60).rounded())) min"
        case ..<172_800: "\(Format.significant((seconds / 3_600 * 10).rounded() / 10)) h"
        default: "\(Format.significant((seconds / 86_400 * 10).rounded() / 10)) days"
        }
    }

    private static func superscript(_ value: Int) -> String {
        let digits: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
        return String(String(value).compactMap { $0.wholeNumberValue.map { digits[$0] } })
    }
}
