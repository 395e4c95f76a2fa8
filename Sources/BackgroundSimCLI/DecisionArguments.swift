import BackgroundSim
import BackgroundSimLab
import CommandLineSupport

/// The flags that say what a team wants from a comparison, sweep or tuning: `--minimize` or
/// `--maximize` a metric, `--subject-to` bounds, and `--margins`.
enum DecisionArguments {
    static let flags = ["minimize", "maximize", "subject-to", "margins"]

    static let help = """
          --minimize KEY     The objective: the metric to make as low as possible (such as
                             work.allItemsLatencyMinutes.p90, which counts an item that never
                             completed at its deadline or the run's end, so dropping work does not
                             lower it; work.latencyMinutes.p90 counts completed items only); the
                             output starts with one recommendation.
          --maximize KEY     The same, as high as possible (such as work.completionPercent).
          --subject-to B     Bounds on other metrics' means, comma-separated KEY<=VALUE or KEY>=VALUE
                             (such as energy.appBatteryPercentPerDay<=0.05).
          --margins M        The smallest differences that matter, comma-separated KEY=VALUE in the
                             metric's difference unit (percentage points for a percentage) or, in
                             compare, as a share of the baseline's mean (work.allItemsLatencyMinutes.p90=5%);
                             or a JSON file {"KEY": VALUE, …}; the rest keep their defaults
                             (docs/OUTPUT.md).
        """

    /// The objective the flags give, if any.
    ///
    /// - Throws: ``UsageError`` for both goals, bounds without a goal; ``ScenarioError`` for an
    ///   unknown metric or a malformed bound.
    static func objective(_ flags: Flags, metrics: [ComparedMetric] = ComparedMetric.standard) throws -> Objective? {
        let goals = [("minimize", flags.string("minimize")), ("maximize", flags.string("maximize"))].filter { $0.1 != nil }
        guard goals.count <= 1 else { throw UsageError("give --minimize or --maximize, not both") }
        guard let (goal, key) = goals.first, let key else {
            if flags.string("subject-to") != nil { throw UsageError("--subject-to needs an objective: add --minimize KEY or --maximize KEY") }
            return nil
        }
        return try Objective.parse(goal: goal, key: key, bounds: flags.string("subject-to") ?? "", metrics: metrics,
                                   source: "--\(goal)", path: "objective")
    }

    /// `metrics` with the margins the flags set.
    static func metrics(_ flags: Flags, _ metrics: [ComparedMetric] = ComparedMetric.standard) throws -> [ComparedMetric] {
        guard let text = flags.string("margins") else { return metrics }
        guard text.hasSuffix(".json") else { return try Objective.applyingMargins(text, to: metrics, source: "--margins") }
        let source = try ScenarioLoader.readText(path: text)
        let document: JSONValue
        do { document = try JSONParser.parse(source) } catch {
            throw ScenarioError(source: text, issues: [ScenarioIssue(path: "", message: "not valid JSON: \(error)")])
        }
        return try Objective.applyingMargins(document: document, to: metrics, source: text, path: "")
    }
}
