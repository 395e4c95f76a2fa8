import BackgroundSim
import SimKernel

/// What a field log cannot say about the phone between its records, as a scenario's user and
/// phone make it, at the launch model's evaluations (every 15 min), by local hour: how often
/// the phone is on the charger, how its charging state carries from one evaluation to the
/// next, and how often it is idle — its screen off for at least the launch model's
/// `idleDelayMinutes` — on the charger and off it.
///
/// An app writes the phone's state only when it runs, so a log says whether the phone was
/// charging at each record and not when it was plugged in or out in between; and it never
/// says when the screen was off, which the model requires for processing. Replaying a log
/// (``LaunchReplay``), the charging state between records is a hidden two-state Markov chain
/// with these transition chances, and idleness a chance at each evaluation: the assumption is
/// that the logged users charge and leave their screens off, hour by hour, as the base
/// scenario's user does. On the default scenario the phone is on the charger 80–90 % of the
/// night and idle there about 90 % of it.
struct PhoneStateProfile: Sendable, Equatable {
    /// The share of evaluations on the charger, by hour.
    var chargingShare: [Double]
    /// The chance of being on the charger at an evaluation at `hour`, by `[hour][charging at
    /// the evaluation before ? 1 : 0]` (with one pseudo-count each way, so never 0 or 1).
    var chargerAfter: [[Double]]
    /// The share of evaluations with the phone idle, by `[charging ? 1 : 0][hour]`.
    var idleShare: [[Double]]

    /// How long a record's network is taken to hold: 15 min [Inf]; after that the network is
    /// taken as available (it is on 98 % of the default user's day).
    static let freshSeconds = 900.0

    /// The phones simulated, and for how long: 40 seeds × 28 days (≈ 1,100 evaluations per
    /// hour and charging state, enough for ±0.03 on a share of one half).
    static let seeds = 40
    static let days = 28

    func idle(hour: Int, charging: Bool) -> Double { idleShare[charging ? 1 : 0][hour] }

    /// Measures the shares on `scenario`'s phone (its app's policy changes nothing here) on
    /// seeds 1 … ``seeds`` for ``days`` days each.
    static func measure(_ scenario: Scenario, jobs: Int) throws -> PhoneStateProfile {
        var withoutApp = scenario
        withoutApp.app.policy = PolicyConfiguration(name: "none")
        let quiet = withoutApp
        let calendar = quiet.calendar.calendar
        let idleDelay = SimDuration.minutes(scenario.system.heuristic.idleDelayMinutes)
        let step = SimDuration.minutes(scenario.system.heuristic.evaluationMinutes).nanoseconds
        typealias Counts = (idle: [[(idle: Int, all: Int)]], transitions: [[[Int]]])
        let counts = try ParallelRuns.map(count: seeds, jobs: jobs) { index -> Counts in
            final class Counter {
                var counts = [[(idle: Int, all: Int)]](repeating: [(idle: Int, all: Int)](repeating: (0, 0), count: 24), count: 2)
                /// By `[hour][charging before][charging now]`.
                var transitions = [[[Int]]](repeating: [[0, 0], [0, 0]], count: 24)
                var chargingAtLastTick: Bool?
                var screenOn = false
                var screenOffSince = SimInstant.start
                var charging = false
                var nextTick: Int64 = 0
            }
            let counter = Counter()
            _ = try SimulationRunner.run(scenario: quiet, seed: UInt64(index + 1), days: days, configure: { _ in }, observer: { _, now, device, _ in
                // The evaluations up to this event saw the state before it.
                while counter.nextTick < now.nanosecondsSinceStart {
                    let tick = SimInstant(nanosecondsSinceStart: counter.nextTick)
                    let hour = Int(calendar.timeOfDay(at: tick) / .hours(1))
                    let idle = !counter.screenOn && counter.screenOffSince.duration(to: tick) >= idleDelay
                    let row = counter.charging ? 1 : 0
                    counter.counts[row][hour].all += 1
                    if idle { counter.counts[row][hour].idle += 1 }
                    if let before = counter.chargingAtLastTick { counter.transitions[hour][before ? 1 : 0][row] += 1 }
                    counter.chargingAtLastTick = counter.charging
                    counter.nextTick += step
                }
                counter.screenOn = device.isScreenOn
                counter.screenOffSince = device.screenOffSince
                counter.charging = device.isPluggedIn
            })
            return (counter.counts, counter.transitions)
        }
        func total(_ row: Int, _ hour: Int) -> (idle: Int, all: Int) {
            counts.reduce((0, 0)) { ($0.idle + $1.idle[row][hour].idle, $0.all + $1.idle[row][hour].all) }
        }
        let chargerAfter = (0..<24).map { hour in
            (0..<2).map { before -> Double in
                let toCharger = counts.reduce(0) { $0 + $1.transitions[hour][before][1] }
                let all = counts.reduce(0) { $0 + $1.transitions[hour][before][0] + $1.transitions[hour][before][1] }
                return Double(toCharger + 1) / Double(all + 2)
            }
        }
        let charging = (0..<24).map { hour -> Double in
            let on = total(1, hour).all, all = on + total(0, hour).all
            return all > 0 ? Double(on) / Double(all) : 0
        }
        let idle = (0..<2).map { row in
            (0..<24).map { hour -> Double in
                let (idle, all) = total(row, hour)
                return all > 0 ? Double(idle) / Double(all) : 1
            }
        }
        return PhoneStateProfile(chargingShare: charging, chargerAfter: chargerAfter, idleShare: idle)
    }
}
