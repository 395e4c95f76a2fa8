import BackgroundSim

extension ComparedMetric {
    /// A figure of the app's own metrics (``AppMeasure``) as commands compare it: the declared
    /// margin, or the default one (for a time, a tenth of the baseline's mean in a comparison).
    public init(_ measure: AppMeasure) {
        let better: Better = switch measure.better {
        case .lower: .lower
        case .higher: .higher
        case .neither: .neither
        }
        self.init(key: measure.key, label: measure.label, unit: measure.unit, margin: measure.margin ?? measure.defaultMargin,
                  better: better) { measure.value($0.app) }
        if measure.margin == nil { comparisonDefaultShare = measure.defaultShare }
    }

    /// ``standard``, then the app's own metrics the scenarios declare (`app.metrics`), each key
    /// once, in the order the scenarios declare them: what every command reports.
    public static func standard(including scenarios: [Scenario]) -> [ComparedMetric] {
        var metrics = standard
        for scenario in scenarios {
            for measure in AppMeasure.measures(for: scenario.app.metrics) where !metrics.contains(where: { $0.key == measure.key }) {
                metrics.append(ComparedMetric(measure))
            }
        }
        return metrics
    }
}
