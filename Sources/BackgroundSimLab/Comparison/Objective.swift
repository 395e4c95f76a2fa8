import BackgroundSim
import Foundation

/// What a team wants from a policy: the best value of one metric, subject to bounds on others —
/// "minimise p90 work latency subject to app battery use ≤ 0.05 %/day".
///
/// Comparisons, sweeps and `bgsim tune` take one and turn their results into a single
/// recommendation (``Recommendation``).
public struct Objective: Sendable {
    public enum Goal: String, Sendable {
        case minimize, maximize
    }

    /// A bound on a metric's mean: at most or at least `value`, in the metric's unit.
    public struct Bound: Sendable {
        public var metric: ComparedMetric
        public var atMost: Bool
        public var value: Double

        public init(metric: ComparedMetric, atMost: Bool, value: Double) {
            self.metric = metric
            self.atMost = atMost
            self.value = value
        }

        /// Whether `mean` satisfies the bound.
        public func holds(for mean: Double) -> Bool { atMost ? mean <= value : mean >= value }

        /// "app battery use ≤ 0.05 %/day".
        public var description: String {
            "\(metric.label) \(atMost ? "≤" : "≥") \(Format.significant(value))\(metric.unit.isEmpty ? "" : " " + metric.unit)"
        }
    }

    public var goal: Goal
    public var metric: ComparedMetric
    public var bounds: [Bound]

    public init(_ goal: Goal, _ metric: ComparedMetric, subjectTo bounds: [Bound] = []) {
        self.goal = goal
        self.metric = metric
        self.bounds = bounds
    }

    /// A value oriented so that lower is better.
    func cost(_ value: Double) -> Double { goal == .minimize ? value : -value }

    /// "minimise p90 work latency subject to app battery use ≤ 0.05 %/day".
    public var description: String {
        let verb = goal == .minimize ? "minimise" : "maximise"
        let subject = bounds.isEmpty ? "" : " subject to " + bounds.map(\.description).joined(separator: " and ")
        return "\(verb) \(metric.label)\(subject)"
    }

    /// The metrics it names, the objective's first, each once.
    public var metrics: [ComparedMetric] {
        var result = [metric]
        for bound in bounds where !result.contains(where: { $0.key == bound.metric.key }) { result.append(bound.metric) }
        return result
    }

    // MARK: Reading

    /// Reads an objective from its parts as a user writes them.
    ///
    /// - Parameters:
    ///   - goal: "minimize" or "maximize" (also "minimise", "maximise").
    ///   - key: a metric key of `metrics` ("work.latencyMinutes.p90").
    ///   - bounds: comma-separated `KEY<=VALUE` or `KEY>=VALUE` (also `≤`, `≥`); may be empty.
    ///   - source: where the text came from, for messages ("--subject-to", "tune.json").
    /// - Throws: ``ScenarioError`` naming `path` and what was expected.
    public static func parse(goal: String, key: String, bounds: String, metrics: [ComparedMetric] = ComparedMetric.standard,
                             source: String, path: String = "objective") throws(ScenarioError) -> Objective {
        func fail(_ field: String, _ message: String) -> ScenarioError {
            ScenarioError(source: source, issues: [ScenarioIssue(path: field, message: message)])
        }
        let goals: [String: Goal] = ["minimize": .minimize, "minimise": .minimize, "maximize": .maximize, "maximise": .maximize]
        guard let parsedGoal = goals[goal] else {
            throw fail("\(path).goal", "expected \"minimize\" or \"maximize\", got \"\(goal)\"")
        }
        let metric = try Self.metric(key, in: metrics, source: source, path: "\(path).metric")
        var parsed: [Bound] = []
        let pieces = bounds.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for (index, piece) in pieces.enumerated() {
            let field = "\(path).subjectTo[\(index)]"
            let operators: [(String, Bool)] = [("<=", true), ("≤", true), (">=", false), ("≥", false)]
            guard let (symbol, atMost) = operators.first(where: { piece.contains($0.0) }),
                  let range = piece.range(of: symbol) else {
                throw fail(field, "expected KEY<=VALUE or KEY>=VALUE, such as energy.appBatteryPercentPerDay<=0.05, got \"\(piece)\"")
            }
            let boundKey = piece[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            let text = piece[range.upperBound...].trimmingCharacters(in: .whitespaces)
            guard let value = Double(text), value.isFinite else {
                throw fail(field, "expected a finite number after \(symbol), got \"\(text)\"")
            }
            parsed.append(Bound(metric: try Self.metric(boundKey, in: metrics, source: source, path: field), atMost: atMost, value: value))
        }
        return Objective(parsedGoal, metric, subjectTo: parsed)
    }

    /// The metric with `key`, or an error listing the keys.
    public static func metric(_ key: String, in metrics: [ComparedMetric] = ComparedMetric.standard,
                              source: String, path: String) throws(ScenarioError) -> ComparedMetric {
        guard let metric = metrics.first(where: { $0.key == key }) else {
            let suggestion = ScenarioLoader.closest(to: key, among: metrics.map(\.key)).map { "did you mean \"\($0)\"? " } ?? ""
            throw ScenarioError(source: source, issues: [ScenarioIssue(
                path: path, message: "unknown metric \"\(key)\"; \(suggestion)expected one of \(metrics.map(\.key).joined(separator: ", "))")])
        }
        return metric
    }

    /// A margin as written: a finite number ≥ 0 in the metric's difference unit, or a share of
    /// the baseline's mean, `"5%"`; `nil` if neither.
    static func margin(_ text: String) -> (absolute: Double?, relative: Double?)? {
        if text.hasSuffix("%") {
            guard let percent = Double(text.dropLast().trimmingCharacters(in: .whitespaces)), percent.isFinite, percent >= 0 else { return nil }
            return (nil, percent / 100)
        }
        guard let value = Double(text), value.isFinite, value >= 0 else { return nil }
        return (value, nil)
    }

    /// `metrics` with `key`'s margin set from `margin`.
    static func setting(_ margin: (absolute: Double?, relative: Double?), of key: String, in metrics: inout [ComparedMetric]) {
        for position in metrics.indices where metrics[position].key == key {
            metrics[position].margin = margin.absolute ?? 0
            metrics[position].relativeMargin = margin.relative
            metrics[position].comparisonDefaultShare = nil
        }
    }

    /// Margins from comma-separated `KEY=VALUE` pairs, applied to `metrics`; a VALUE ending in
    /// `%` is a share of the baseline's mean (`work.latencyMinutes.p90=5%`).
    ///
    /// - Throws: ``ScenarioError`` for an unknown key or a value that is not a finite number ≥ 0
    ///   or a percentage.
    public static func applyingMargins(_ text: String, to metrics: [ComparedMetric], source: String,
                                       path: String = "margins") throws(ScenarioError) -> [ComparedMetric] {
        var result = metrics
        let pieces = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for (index, piece) in pieces.enumerated() {
            let parts = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else {
                throw ScenarioError(source: source, issues: [ScenarioIssue(path: "\(path)[\(index)]", message: "expected KEY=VALUE, got \"\(piece)\"")])
            }
            let metric = try Self.metric(parts[0], in: metrics, source: source, path: "\(path)[\(index)]")
            guard let value = margin(parts[1]) else {
                throw ScenarioError(source: source, issues: [ScenarioIssue(path: "\(path).\(parts[0])",
                                                                           message: "expected a finite number ≥ 0 or a percentage (\"5%\"), got \"\(parts[1])\"")])
            }
            setting(value, of: metric.key, in: &result)
        }
        return result
    }

    /// Throws if any of `metrics` has a margin relative to a baseline (`"5%"`): sweeps and
    /// tuning rank configurations with no baseline to take a share of.
    package static func requireAbsoluteMargins(_ metrics: [ComparedMetric], source: String, path: String) throws(ScenarioError) {
        guard let relative = metrics.first(where: { $0.relativeMargin != nil }) else { return }
        throw ScenarioError(source: source, issues: [ScenarioIssue(
            path: path.isEmpty ? relative.key : "\(path).\(relative.key)",
            message: "a margin as a percentage needs a baseline to take the share of (bgsim compare); give it in \(relative.differenceUnit.isEmpty ? "the metric's unit" : relative.differenceUnit)")])
    }

    /// Margins from a JSON object `{"KEY": VALUE, …}` (a file's, or a sweep's `margins`); a
    /// VALUE may be a string percentage, `"5%"`, a share of the baseline's mean.
    ///
    /// - Throws: ``ScenarioError`` naming `path.KEY` for an unknown key or a value that is not a
    ///   finite number ≥ 0 or a percentage.
    package static func applyingMargins(document: JSONValue, to metrics: [ComparedMetric], source: String,
                                       path: String) throws(ScenarioError) -> [ComparedMetric] {
        let prefix = path.isEmpty ? "" : path + "."
        guard case .object(let members) = document else {
            throw ScenarioError(source: source, issues: [ScenarioIssue(path: path, message: "expected an object {\"KEY\": margin, …}")])
        }
        var result = metrics
        for (key, value) in members {
            let metric = try Self.metric(key, in: metrics, source: source, path: prefix + key)
            let parsed: (absolute: Double?, relative: Double?)? = switch value {
            case .number(let number): number.isFinite && number >= 0 ? (number, nil) : nil
            case .string(let text) where text.hasSuffix("%"): margin(text)
            default: nil
            }
            guard let parsed else {
                throw ScenarioError(source: source, issues: [ScenarioIssue(path: prefix + key, message: "expected a finite number ≥ 0 or a percentage (\"5%\")")])
            }
            setting(parsed, of: metric.key, in: &result)
        }
        return result
    }

    /// An objective from a file's object: `{"minimize": KEY, "subjectTo": ["KEY<=VALUE", …]}`
    /// (or `"maximize"`).
    ///
    /// - Throws: ``ScenarioError`` naming `path.…` for any problem.
    package static func decode(_ document: JSONValue, metrics: [ComparedMetric], source: String,
                               path: String) throws(ScenarioError) -> Objective {
        func fail(_ field: String, _ message: String) -> ScenarioError {
            ScenarioError(source: source, issues: [ScenarioIssue(path: field, message: message)])
        }
        guard case .object(let members) = document else {
            throw fail(path, "expected {\"minimize\": KEY} or {\"maximize\": KEY}, with \"subjectTo\": [\"KEY<=VALUE\", …]")
        }
        for key in members.map(\.key) where !["minimize", "maximize", "subjectTo"].contains(key) {
            throw fail("\(path).\(key)", "unknown key; expected minimize or maximize, and subjectTo")
        }
        let goals = members.filter { $0.key != "subjectTo" }
        guard goals.count == 1, case .string(let key) = goals[0].value else {
            throw fail(path, "expected exactly one of \"minimize\" or \"maximize\" with a metric key")
        }
        var bounds: [String] = []
        if let subject = document["subjectTo"] {
            guard case .array(let items) = subject else { throw fail("\(path).subjectTo", "expected an array of \"KEY<=VALUE\" or \"KEY>=VALUE\"") }
            for (index, item) in items.enumerated() {
                guard case .string(let text) = item, !text.contains(",") else {
                    throw fail("\(path).subjectTo[\(index)]", "expected a string \"KEY<=VALUE\" or \"KEY>=VALUE\"")
                }
                bounds.append(text)
            }
        }
        return try parse(goal: goals[0].key, key: key, bounds: bounds.joined(separator: ","), metrics: metrics, source: source, path: path)
    }
}
