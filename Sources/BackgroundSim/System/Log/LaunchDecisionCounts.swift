/// How many launch decisions of each outcome the system made, per task kind: why a pending
/// request did or did not run, counted over a run (the report's `os.launchDecisions`).
///
/// Every decision the log records is counted: one per pending request at each launch
/// evaluation. Evaluations the heuristic launch model skips because nothing could launch at them
/// (the app unused for the recency window, the spacing not passed, no use predicted) make no
/// decision and are not counted.
public struct LaunchDecisionCounts: Sendable, Equatable {
    /// The denials in the order counts are kept (``LaunchDenial/allCases``).
    static let denials = LaunchDenial.allCases
    /// Per kind (by raw value): launched, then one count per denial in ``denials`` order.
    /// Continued-processing tasks start on the user's action and are never decided; their row
    /// stays zero.
    private var rows = [[Int]](repeating: [Int](repeating: 0, count: 1 + LaunchDenial.allCases.count), count: 3)

    public init() {}

    /// Counts `decision` for a request of `kind`.
    mutating func record(_ decision: LaunchDecision, kind: TaskRequest.Kind) {
        let index = switch decision {
        case .launched: 0
        case .notLaunched(let denial): 1 + (Self.denials.firstIndex(of: denial) ?? 0)
        }
        rows[Int(kind.rawValue)][index] += 1
    }

    private func counts(_ kind: TaskRequest.Kind) -> [Int] { rows[Int(kind.rawValue)] }

    /// Decisions for requests of `kind` that launched a task.
    public func launched(_ kind: TaskRequest.Kind) -> Int { counts(kind)[0] }

    /// Decisions for requests of `kind` that left them pending for `denial`.
    public func count(_ kind: TaskRequest.Kind, _ denial: LaunchDenial) -> Int {
        counts(kind)[1 + (Self.denials.firstIndex(of: denial) ?? 0)]
    }

    /// Every decision for requests of `kind`.
    public func decisions(_ kind: TaskRequest.Kind) -> Int { counts(kind).reduce(0, +) }

    /// The denials of `kind` that happened, most frequent first (ties in ``LaunchDenial`` order).
    public func denials(_ kind: TaskRequest.Kind) -> [(denial: LaunchDenial, count: Int)] {
        Self.denials.map { ($0, count(kind, $0)) }.filter { $0.1 > 0 }.enumerated()
            .sorted { ($0.element.1, -$0.offset) > ($1.element.1, -$1.offset) }.map { ($0.element.0, $0.element.1) }
    }
}
