import BackgroundSim
import Foundation

/// What a long command is about to cost, said before it starts: the simulated device-days and
/// the time they should take on this machine, from a short timed probe of the scenario.
///
///     if let note = RunEstimate.note(scenario, deviceDays: 2e9, jobs: 2) { print(note) }
///     // "about 2 × 10⁹ device-days, ~6.3 days on 2 jobs here (from a 3-day probe)"
package enum RunEstimate {
    /// Commands estimated to take less than this say nothing: 30 s.
    package static let quietBelowSeconds = 30.0
    /// The probe: one seed of the scenario for this many days (fewer if the runs are shorter).
    static let probeDays = 3

    /// The note for running `deviceDays` of `scenario` on `jobs` parallel jobs, or `nil` when
    /// it should take less than ``quietBelowSeconds`` (unless `evenIfShort`). The probe runs
    /// first (a few milliseconds); a scenario the probe cannot run gets no note (the command
    /// reports it).
    package static func note(_ scenario: Scenario, deviceDays: Double, jobs: Int, days: Int, policies: PolicyRegistry = .builtIn,
                             evenIfShort: Bool = false) -> String? {
        guard deviceDays > 0, let perDay = secondsPerDeviceDay(scenario, days: days, policies: policies) else { return nil }
        let seconds = deviceDays * perDay / Double(Swift.max(1, Swift.min(jobs, ProcessInfo.processInfo.activeProcessorCount)))
        guard seconds >= quietBelowSeconds || evenIfShort else { return nil }
        return "about \(count(deviceDays)) device-days, ~\(duration(seconds)) on \(jobs) job\(jobs == 1 ? "" : "s") here "
            + "(from a \(Swift.min(days, probeDays))-day probe)"
    }

    /// Seconds one job takes per simulated device-day of `scenario`, timed on a short run.
    /// Wall-clock time goes only into the note on standard error, never into a simulated
    /// outcome: the probe's own result is thrown away.
    static func secondsPerDeviceDay(_ scenario: Scenario, days: Int, policies: PolicyRegistry) -> Double? {
        let probe = Swift.max(1, Swift.min(days, probeDays))
        let clock = ContinuousClock()
        let start = clock.now
        guard (try? SimulationRunner.run(scenario: scenario, seed: 1, days: probe, policies: policies)) != nil else { return nil }
        let elapsed = clock.now - start
        let parts = elapsed.components
        return (Double(parts.seconds) + Double(parts.attoseconds) * 1e-18) / Double(probe)
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
