import BackgroundSimTesting

/// What the app's code and the system did that a user or the server could see, to compare two
/// runs by: launches, lifecycle, requests (with their delays), task launches, expirations and
/// completions, kills — not the work executor's own records, which differ by construction (the
/// app's code sends one request at a time; a policy hands the executor a run of items).
struct Decision: Equatable, CustomStringConvertible {
    var time: SimInstant
    var event: SystemLogEvent

    var description: String { "\(time) \(key)" }

    /// The event, with a request's delay to the millisecond: a `Date` holds a simulated instant
    /// to about a microsecond, so a delay computed from dates can differ from the policy's in
    /// its last nanoseconds.
    var key: String {
        guard case .submit(let identifier, let kind, let delay) = event else { return "\(event)" }
        return "submit(\(identifier), \(kind), \((delay.nanoseconds + 500_000) / 1_000_000) ms)"
    }

    static func of(_ entry: SystemLogEntry) -> Decision? {
        switch entry.event {
        case .launch, .resume, .willEnterForeground, .didEnterBackground, .suspend, .terminate, .kill, .crash,
             .submit, .submitError, .taskLaunch, .taskExpire, .taskCompleted:
            Decision(time: entry.time, event: entry.event)
        default:
            nil
        }
    }
}

struct Run {
    var decisions: [Decision] = []
    var result: RunResult?

    init(_ scenario: Scenario, seed: UInt64, days: Int) throws {
        var decisions: [Decision] = []
        result = try SimulationRunner.run(scenario: scenario, seed: seed, days: days, log: { entry in
            if let decision = Decision.of(entry) { decisions.append(decision) }
        })
        self.decisions = decisions
    }
}


/// Bursts of decisions (each within a second of the one before), each as a sorted list, in
/// order: two runs whose app code sends the same bytes in different requests decide the same
/// things at the same moments, but not always in the same order within a burst.
func bursts(_ decisions: [Decision]) -> [[String]] {
    var buckets: [[String]] = []
    var last: SimInstant?
    for decision in decisions {
        if let last, last.duration(to: decision.time) <= .seconds(1) {
            buckets[buckets.count - 1].append(decision.key)
        } else {
            buckets.append([decision.key])
        }
        last = decision.time
    }
    return buckets.map { $0.sorted() }
}

/// The first burst that differs, if any.
func firstDifference(_ a: [[String]], _ b: [[String]]) -> ([String], [String])? {
    for (x, y) in zip(a, b) where x != y { return (x, y) }
    return a.count == b.count ? nil : (a.last ?? [], b.last ?? [])
}
