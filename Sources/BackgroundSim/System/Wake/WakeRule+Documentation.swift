extension WakeRule {
    /// Every door, with the name the docs' tables give its column, in ``WakeSource`` order:
    /// derived from the enum, so a new source gets a column (and must be given a name).
    package static let doors: [(source: WakeSource, name: String)] = WakeSource.allCases.map { ($0, $0.columnName) }

    /// The reasons a wake from `source` this rule holds back can be given: its ``denial``; the
    /// budgets' two; or the launch model's for the task request's kind
    /// (``HeuristicLaunchModel/denials(for:)``). Empty where the rule does not apply.
    package func denials(for source: WakeSource) -> [LaunchDenial] {
        guard applies(to: source) else { return [] }
        if let denial { return [denial] }
        switch check {
        case .budgets: return [.energyBudget, .dataBudget]
        case .launchModel:
            switch source {
            case .appRefreshTask: return HeuristicLaunchModel.denials(for: .appRefresh)
            case .processingTask: return HeuristicLaunchModel.denials(for: .processing)
            default: return []
            }
        default: return []
        }
    }

    /// ``table`` as the Markdown table `docs/MODEL.md` prints under "One way in" (a test checks
    /// that the two agree): one row per rule, in order, a column per door.
    package static var markdownTable: String {
        var lines = ["| rule | " + doors.map(\.name).joined(separator: " | ") + " | stage | reason | source |",
                     "|---|" + String(repeating: ":-:|", count: doors.count) + "---|---|---|"]
        for rule in table {
            let marks = doors.map { rule.applies(to: $0.source) ? (rule.isDeviceCondition && $0.source.isTaskRequest ? "✓†" : "✓") : "" }
            let reason = rule.denial.map { "`\($0.rawValue)`" } ?? (rule.check == .launchModel ? "the model's" : "`energyBudget`, `dataBudget`")
            lines.append("| `\(rule.check.rawValue)` | " + marks.joined(separator: " | ") + " | \(rule.stage.rawValue) | \(reason) | \(rule.source) |")
        }
        return lines.joined(separator: "\n")
    }
}
