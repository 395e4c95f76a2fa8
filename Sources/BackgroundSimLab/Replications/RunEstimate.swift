import BackgroundSim
import Foundation

/// What a long command is about to cost, said before it starts: the simulated device-days and
/// the time they should take on this machine, from a short timed probe of the scenario.
///
///     if let note = RunEstimate.note(scenario, deviceDays: 2e9, jobs: 2) { print(note) }
///     // "about 2 × 10⁹ device-days, ~6.3 days on 2 jobs here (from a 4-day probe)"
package enum RunEstimate {
    /// Commands estimated to take less than this say nothing: 30 s.
    package static let quietBelowSeconds = 30.0
    /// The probe: one seed of the scenario for a day and for this many days (fewer if the runs
    /// are shorter), after an untimed day.
    static let probeDays = 4

    /// The note for running `deviceDays` of `scenario`, in runs of `days` days, on `jobs`
    /// parallel jobs, or `nil` when it should take less than ``quietBelowSeconds`` (unless
    /// `evenIfShort`). The probe runs first (a few milliseconds to a second); a scenario the
    /// probe cannot run gets no note (the command reports it).
    package static func note(_ scenario: Scenario, deviceDays: Double, jobs: Int, days: Int, policies: PolicyRegistry = .builtIn,
                             evenIfShort: Bool = false) -> String? {
        guard deviceDays > 0, let seconds = seconds(scenario, deviceDays: deviceDays, jobs: jobs, days: days, policies: policies)
        else { return nil }
        guard seconds >= quietBelowSeconds || evenIfShort else { return nil }
        return "about \(count(deviceDays)) device-days, ~\(duration(seconds)) on \(jobs) job\(jobs == 1 ? "" : "s") here "
            + "(from a \(Swift.min(days, probeDays))-day probe)"
    }

    /// The seconds `deviceDays` of `scenario` should take, in runs of `days` days on `jobs` jobs.
    package static func seconds(_ scenario: Scenario, deviceDays: Double, jobs: Int, days: Int, policies: PolicyRegistry = .builtIn) -> Double? {
        guard let cost = runCost(scenario, days: days, policies: policies) else { return nil }
        let runs = deviceDays / Double(Swift.max(1, days))
        let parallel = Double(Swift.max(1, Swift.min(jobs, ProcessInfo.processInfo.activeProcessorCount)))
        return runs * (cost.fixed + Double(days) * cost.perDay) / parallel
    }

    /// What one run of `scenario` costs one job: seconds per run whatever its length (setting
    /// up the device and the system; a fork server for app code in a process per launch) and
    /// seconds per simulated day. Timed on short runs after a first, untimed one that pays the
    /// costs only a process's first run has (tables, lazily made state), which a cold probe
    /// would count into every run: that made notes up to nine times too long. Wall-clock time
    /// goes only into the note on standard error, never into a simulated outcome: the probes'
    /// results are thrown away.
    static func runCost(_ scenario: Scenario, days: Int, policies: PolicyRegistry) -> (fixed: Double, perDay: Double)? {
        let long = Swift.max(1, Swift.min(days, probeDays))
        guard time(scenario, days: 1, policies: policies) != nil,
              let short = time(scenario, days: 1, policies: policies) else { return nil }
        guard long > 1, let longer = time(scenario, days: long, policies: policies) else { return (0, short) }
        let perDay = Swift.max(0, (longer - short) / Double(long - 1))
        return (Swift.max(0, short - perDay), perDay)
    }

    /// Seconds a run of `days` days takes here; `nil` if it cannot run.
    private static func time(_ scenario: Scenario, days: Int, policies: PolicyRegistry) -> Double? {
        let clock = ContinuousClock()
        let start = clock.now
        guard (try? SimulationRunner.run(scenario: scenario, seed: 1, days: days, policies: policies)) != nil else { return nil }
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
