extension WakeRule {
    /// ``table`` as the Markdown table `docs/MODEL.md` prints under "One way in" (a test checks
    /// that the two agree): one row per rule, in order, a column per door.
    package static var markdownTable: String {
        let doors: [(WakeSource, String)] = [
            (.appRefreshTask, "refresh"), (.processingTask, "processing"), (.continuedProcessingTask, "continued"),
            (.silentPush, "push"), (.sessionEvents, "URL session"), (.discretionarySessionEvents, "URL session (discretionary)"),
            (.debuggerCommand, "debugger"),
        ]
        var lines = ["| rule | " + doors.map(\.1).joined(separator: " | ") + " | stage | reason | source |",
                     "|---|" + String(repeating: ":-:|", count: doors.count) + "---|---|---|"]
        for rule in table {
            let marks = doors.map { rule.applies(to: $0.0) ? (rule.isDeviceCondition && $0.0.isTaskRequest ? "✓†" : "✓") : "" }
            let reason = rule.denial.map { "`\($0.rawValue)`" } ?? (rule.check == .launchModel ? "the model's" : "`energyBudget`, `dataBudget`")
            lines.append("| `\(rule.check.rawValue)` | " + marks.joined(separator: " | ") + " | \(rule.stage.rawValue) | \(reason) | \(rule.source) |")
        }
        return lines.joined(separator: "\n")
    }
}
