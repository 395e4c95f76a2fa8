import SimKernel

/// The `app` group of a run's report: the app's own metrics (``AppMetrics``) per day and in the
/// units every command uses. Every field is documented in `docs/OUTPUT.md`.
public struct AppReport: Sendable, Equatable {
    public var metrics: AppMetrics
    public var days: Int

    private var dayCount: Double { Double(Swift.max(1, days)) }

    /// The content's age at the opens, at quantile `q`, in minutes; `nil` without content age
    /// declared or without an open.
    public func contentAgeMinutes(_ q: Double) -> Double? {
        metrics.contentAgeAtOpen.count > 0 ? metrics.contentAgeAtOpen.quantile(q) / 60 : nil
    }

    /// The declared interval's durations at quantile `q`, in minutes; `nil` with none ended.
    public func durationMinutes(_ index: Int, _ q: Double) -> Double? {
        let durations = metrics.intervals[index].durations
        return durations.count > 0 ? durations.quantile(q) / 60 : nil
    }

    /// How many of the declaration's signposts a day (an interval's begins, an event's events).
    public func perDay(_ index: Int) -> Double { Double(metrics.counts[index]) / dayCount }

    /// Every figure the declarations measure, each under its key (``AppMeasure``).
    public var measures: [AppMeasure] { AppMeasure.measures(for: metrics.declarations) }

    /// The `app` group; `nil` when no metric is declared.
    package var json: JSONValue? {
        guard !metrics.isEmpty else { return nil }
        var fields: [(String, JSONValue)] = [("signposts", .number(Double(metrics.signposts)))]
        var intervals: [(String, JSONValue)] = [], events: [(String, JSONValue)] = []
        func number(_ value: Double?) -> JSONValue { value.map { .number(rounded($0)) } ?? .null }
        for (index, declaration) in metrics.declarations.enumerated() {
            switch declaration.kind {
            case .contentAge:
                guard !fields.contains(where: { $0.0 == "contentAgeAtOpenMinutes" }) else { continue }
                let ages = metrics.contentAgeAtOpen
                fields.append(("contentAgeAtOpenMinutes", .object([
                    ("p50", number(contentAgeMinutes(0.5))),
                    ("p90", number(contentAgeMinutes(0.9))),
                    ("max", number(ages.count > 0 ? ages.maximum / 60 : nil)),
                    ("opens", .number(Double(ages.count))),
                    ("updates", .number(Double(metrics.counts[index]))),
                ])))
            case .interval:
                let interval = metrics.intervals[index]
                intervals.append((declaration.signpostName, .object([
                    ("begun", .number(Double(interval.begun))),
                    ("ended", .number(Double(interval.ended))),
                    ("perDay", number(perDay(index))),
                    ("doneWithinHours", number(declaration.doneWithin.seconds / 3_600)),
                    ("doneInTimePercent", number(interval.doneInTimePercent)),
                    ("durationMinutes", .object([
                        ("p50", number(durationMinutes(index, 0.5))),
                        ("p90", number(durationMinutes(index, 0.9))),
                        ("max", number(interval.durations.count > 0 ? interval.durations.maximum / 60 : nil)),
                    ])),
                    ("openAtEnd", .number(Double(interval.openAtEnd))),
                    ("abandoned", .number(Double(interval.abandoned))),
                    ("unmatchedEnds", .number(Double(interval.unmatchedEnds))),
                ])))
            case .event:
                events.append((declaration.signpostName, .object([
                    ("count", .number(Double(metrics.counts[index]))),
                    ("perDay", number(perDay(index))),
                ])))
            }
        }
        if !intervals.isEmpty { fields.append(("intervals", .object(intervals))) }
        if !events.isEmpty { fields.append(("events", .object(events))) }
        return .object(fields)
    }
}

/// One figure of the app's own metrics, as commands compare, sweep and tune it: its key (the
/// path of the figure in `run`'s JSON), what a person calls it, its unit, which way is better,
/// the margin the declaration gave, and how to read it from a run. Made from the declarations
/// alone (``measures(for:)``), so that `run`, the comparisons and the docs name the same figures.
public struct AppMeasure: Sendable {
    public enum Better: Sendable { case lower, higher, neither }

    public var key: String
    public var label: String
    public var unit: String
    public var better: Better
    /// The declared margin, in the unit of a difference; `nil` for the default.
    public var margin: Double?
    /// The margin when none is declared: an absolute one (sweeps and tuning), and for times the
    /// share of a baseline's mean a comparison takes instead (0.1), as for the built-in latencies.
    public var defaultMargin: Double
    public var defaultShare: Double?
    public var value: @Sendable (AppReport) -> Double?

    /// The figures `declarations` measure, in order; a second content-age declaration adds none.
    public static func measures(for declarations: [AppMetricDeclaration]) -> [AppMeasure] {
        var measures: [AppMeasure] = []
        var hasContentAge = false
        for (index, declaration) in declarations.enumerated() {
            let name = declaration.signpostName
            switch declaration.kind {
            case .contentAge:
                guard !hasContentAge else { continue }
                hasContentAge = true
                for (q, label) in [(0.5, "median"), (0.9, "p90")] {
                    measures.append(AppMeasure(
                        key: "app.contentAgeAtOpenMinutes.p\(Int(q * 100))", label: "\(label) content age at open", unit: "min",
                        better: .lower, margin: declaration.marginMinutes, defaultMargin: 1, defaultShare: 0.1) { $0.contentAgeMinutes(q) })
                }
            case .interval:
                let hours = Format.significant(declaration.doneWithin.seconds / 3_600)
                measures.append(AppMeasure(
                    key: "app.intervals.\(name).doneInTimePercent", label: "\(name) done within \(hours) h", unit: "%",
                    better: .higher, margin: declaration.marginPoints, defaultMargin: 1, defaultShare: nil) {
                        $0.metrics.intervals[index].doneInTimePercent
                    })
                for (q, label) in [(0.5, "median"), (0.9, "p90")] {
                    measures.append(AppMeasure(
                        key: "app.intervals.\(name).durationMinutes.p\(Int(q * 100))", label: "\(label) \(name) duration", unit: "min",
                        better: .lower, margin: declaration.marginMinutes, defaultMargin: 1, defaultShare: 0.1) { $0.durationMinutes(index, q) })
                }
                measures.append(AppMeasure(
                    key: "app.intervals.\(name).perDay", label: "\(name) begun", unit: "/day",
                    better: .neither, margin: declaration.marginPerDay, defaultMargin: 0.1, defaultShare: nil) { $0.perDay(index) })
            case .event:
                measures.append(AppMeasure(
                    key: "app.events.\(name).perDay", label: "\(name) events", unit: "/day",
                    better: .neither, margin: declaration.marginPerDay, defaultMargin: 0.1, defaultShare: nil) { $0.perDay(index) })
            }
        }
        return measures
    }
}
