import BackgroundSim
import SimKernel
import BackgroundSimLab

/// What a field log cannot say about the phone between its records, as a scenario's user and
/// phone make it: a Markov chain over four states — off or on the charger, each in use or
/// idle (its screen off for at least the launch model's `idleDelayMinutes`) — stepped at the
/// launch model's evaluations (every 15 min), with transition chances by local hour, and
/// whether the phone is still locked since a restart (``Belief``).
///
/// An app writes the phone's state only when it runs, so a log says whether the phone was
/// charging at each record and not when it was plugged in or out in between; and it never
/// says when the screen was off, which the model requires for processing. Replaying a log
/// (``LaunchReplay``), this chain is the hidden state between records: the assumption is that
/// the logged users charge and use their phones, hour by hour, as the base scenario's user
/// does. Charging and idleness share one chain because they go together: a phone plugged in
/// in the morning is usually in the hand, one plugged in at night is not. On the default
/// scenario's phone, the evaluations at 04:00 find it on the charger 86 % of the time and idle in
/// nearly all of those; at 07:00, on the charger 30 % of the time, and in use in a quarter of
/// those.
struct PhoneStateProfile: Sendable, Equatable {
    /// The four states, as indices into the chain's vectors.
    static let offInUse = 0, offIdle = 1, onInUse = 2, onIdle = 3

    /// The share of evaluations in each state, by hour.
    var shares: [SIMD4<Double>]
    /// The chance of each state at an evaluation at `hour`, by `[hour][state at the evaluation
    /// before]`; half a pseudo-count in each cell, so no transition is impossible.
    var transitions: [[SIMD4<Double>]] {
        didSet {
            table = Self.flattened(transitions)
            powers = Self.powers(of: table)
        }
    }
    /// `transitions` in one flat table (row `4 × hour + state before`): stepping reads a row
    /// without touching an inner array (and its reference count) 100,000s of times a fit.
    private var table: ContiguousArray<SIMD4<Double>>
    /// Each hour's transitions raised to the powers 1 … ``maximumPower`` (row
    /// `4 × (maximumPower × hour + power − 1) + state before`): a run of steps within one hour,
    /// as a tape records it, is one product (``step(_:hour:times:)``).
    private var powers: ContiguousArray<SIMD4<Double>>
    /// The longest run of steps in one hour taken as one product: 8, twice the four evaluations
    /// an hour at the default 15 minutes.
    static let maximumPower = 8

    init(shares: [SIMD4<Double>], transitions: [[SIMD4<Double>]]) {
        self.shares = shares
        self.transitions = transitions
        table = Self.flattened(transitions)
        powers = Self.powers(of: table)
    }

    private static func flattened(_ transitions: [[SIMD4<Double>]]) -> ContiguousArray<SIMD4<Double>> {
        ContiguousArray(transitions.joined())
    }

    private static func powers(of table: ContiguousArray<SIMD4<Double>>) -> ContiguousArray<SIMD4<Double>> {
        var powers = ContiguousArray<SIMD4<Double>>()
        powers.reserveCapacity(table.count * maximumPower)
        for hour in 0..<(table.count / 4) {
            var rows = (0..<4).map { table[4 * hour + $0] }
            for _ in 1...maximumPower {
                powers.append(contentsOf: rows)
                rows = rows.map { row -> SIMD4<Double> in
                    var next: SIMD4<Double> = row[0] * table[4 * hour]
                    next += row[1] * table[4 * hour + 1]
                    next += row[2] * table[4 * hour + 2]
                    next += row[3] * table[4 * hour + 3]
                    return next
                }
            }
        }
        return powers
    }

    /// How long a record's network is taken to hold: 15 min [Inf]; after that the network is
    /// taken as available (it is on 98 % of the default user's day).
    static let freshSeconds = 900.0

    /// The phones simulated, and for how long: 40 seeds × 28 days (≈ 1,100 evaluations per
    /// hour, so ±0.03 on a share of one half).
    static let seeds = 40
    static let days = 28

    /// Measures the chain on `scenario`'s phone (its app's policy changes nothing here) on
    /// seeds 1 … ``seeds`` for ``days`` days each.
    static func measure(_ scenario: Scenario, jobs: Int) throws -> PhoneStateProfile {
        var withoutApp = scenario
        withoutApp.app.policy = PolicyConfiguration(name: "none")
        let quiet = withoutApp
        let calendar = quiet.calendar.calendar
        let idleDelay = SimDuration.minutes(scenario.system.heuristic.idleDelayMinutes)
        let step = SimDuration.minutes(scenario.system.heuristic.evaluationMinutes).nanoseconds
        /// Per hour: visits to each state, and moves from each state to each.
        typealias Counts = (visits: [[Int]], moves: [[[Int]]])
        let counts = try ParallelRuns.map(count: seeds, jobs: jobs) { index -> Counts in
            final class Counter {
                var visits = [[Int]](repeating: [0, 0, 0, 0], count: 24)
                var moves = [[[Int]]](repeating: [[Int]](repeating: [0, 0, 0, 0], count: 4), count: 24)
                var previous: Int?
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
                    let state = (counter.charging ? 2 : 0) + (idle ? 1 : 0)
                    counter.visits[hour][state] += 1
                    if let previous = counter.previous { counter.moves[hour][previous][state] += 1 }
                    counter.previous = state
                    counter.nextTick += step
                }
                counter.screenOn = device.isScreenOn
                counter.screenOffSince = device.screenOffSince
                counter.charging = device.isPluggedIn
            })
            return (counter.visits, counter.moves)
        }
        let shares = (0..<24).map { hour -> SIMD4<Double> in
            let visits = (0..<4).map { state in Double(counts.reduce(0) { $0 + $1.visits[hour][state] }) + 0.5 }
            let total = visits.reduce(0, +)
            return SIMD4(visits.map { $0 / total })
        }
        let transitions = (0..<24).map { hour in
            (0..<4).map { from -> SIMD4<Double> in
                let moves = (0..<4).map { to in Double(counts.reduce(0) { $0 + $1.moves[hour][from][to] }) + 0.5 }
                let total = moves.reduce(0, +)
                return SIMD4(moves.map { $0 / total })
            }
        }
        return PhoneStateProfile(shares: shares, transitions: transitions)
    }

    /// The chances of the chain's states with whether the phone has stayed locked since it last
    /// started: lanes 0 … 3 the four states (``offInUse`` …) after the first unlock, lanes 4 … 7
    /// the same states before it.
    ///
    /// After a restart nothing launches in the background until the user first unlocks the
    /// phone [Inf] (data under the default protection class cannot be read before it [A], Apple
    /// Platform Security, "Data Protection classes"). A log cannot say when that was — the app
    /// writes nothing until then — so the chain carries it: a restart leaves the phone locked
    /// unless it is in use, the phone stays locked until the chain first enters an in-use
    /// state, and every record (the app ran) says it was unlocked by then.
    typealias Belief = SIMD8<Double>

    /// The chain of users who live the same day `hours` later (earlier, for a negative shift):
    /// at each hour they do what this chain's users did `hours` before.
    func shifted(byHours hours: Int) -> PhoneStateProfile {
        let turned = { (hour: Int) in ((hour - hours) % 24 + 24) % 24 }
        return PhoneStateProfile(shares: (0..<24).map { shares[turned($0)] }, transitions: (0..<24).map { transitions[turned($0)] })
    }

    /// The belief at the start of a log: the shares at midnight, unlocked.
    var initialBelief: Belief { Belief(lowHalf: shares[0], highHalf: .zero) }

    /// The chain's step into an evaluation at `hour` from `belief`: each half moves by the
    /// hour's transitions, and a locked phone that comes into use is unlocked.
    func step(_ belief: Belief, hour: Int) -> Belief {
        let row = 4 * hour
        func moved(_ from: SIMD4<Double>) -> SIMD4<Double> {
            from[0] * table[row] + from[1] * table[row + 1] + from[2] * table[row + 2] + from[3] * table[row + 3]
        }
        // Nearly always nothing is locked: the same result, at half the work.
        guard belief.highHalf != .zero else { return Belief(lowHalf: moved(belief.lowHalf), highHalf: .zero) }
        let unlocked = moved(belief.lowHalf), locked = moved(belief.highHalf)
        return Belief(lowHalf: unlocked + locked * Self.inUseLanes, highHalf: locked * (1 - Self.inUseLanes))
    }

    /// `times` steps into evaluations in `hour`, one after another: as many ``step(_:hour:)``s,
    /// but one product where nothing is locked (to rounding: the tape's score equals the
    /// replay's to 10⁻⁹).
    func step(_ belief: Belief, hour: Int, times: Int) -> Belief {
        guard times > 1 else { return times == 1 ? step(belief, hour: hour) : belief }
        guard belief.highHalf == .zero, times <= Self.maximumPower else {
            var stepped = belief
            for _ in 0..<times { stepped = step(stepped, hour: hour) }
            return stepped
        }
        let row = 4 * (Self.maximumPower * hour + times - 1)
        let from = belief.lowHalf
        var moved: SIMD4<Double> = from[0] * powers[row]
        moved += from[1] * powers[row + 1]
        moved += from[2] * powers[row + 2]
        moved += from[3] * powers[row + 3]
        return Belief(lowHalf: moved, highHalf: .zero)
    }

    /// The belief just after the phone started again in `hour`: the hour's shares, locked
    /// unless in use.
    func afterRestart(hour: Int) -> Belief {
        Belief(lowHalf: shares[hour] * Self.inUseLanes, highHalf: shares[hour] * (1 - Self.inUseLanes))
    }

    /// The in-use states among the four.
    private static let inUseLanes = SIMD4<Double>(1, 0, 1, 0)

    /// What a record with the phone on the charger (`true`) or off it allows: those states,
    /// unlocked.
    static func charging(_ charging: Bool) -> Belief {
        Belief(lowHalf: charging ? SIMD4(0, 0, 1, 1) : SIMD4(1, 1, 0, 0), highHalf: .zero)
    }
    /// What an open or close of the app allows: the in-use states, unlocked.
    static let inUse = Belief(lowHalf: inUseLanes, highHalf: .zero)
    /// A processing request's chance in each state: `battery` idle off the charger, `charger`
    /// idle on it, after the first unlock; nothing otherwise.
    static func processingChance(battery: Double, charger: Double) -> Belief {
        Belief(lowHalf: SIMD4(0, battery, 0, charger), highHalf: .zero)
    }
}
