import BackgroundSim
import SimKernel

/// The app's own promise about an interval it marks with signposts: every begin of the
/// interval `name` has its end within `within` (a declaration's `endsWithinHours`,
/// ``AppMetricDeclaration/endsWithin``). Begins and ends pair by name and signpost ID, across
/// the app's launches, as the app's metrics pair them (``AppMetrics``).
///
/// Reported at the first event after the bound, once per interval; an interval the run's end
/// cut short before its bound is not a violation.
public struct IntervalEndsWithin: Invariant {
    public let name: String
    public let signpost: String
    public let within: SimDuration
    /// The open intervals of the name: signpost ID to when it began; and whether each was reported.
    private var open: [UInt64: (begun: SimInstant, reported: Bool)] = [:]

    public init(signpost: String, within: SimDuration) {
        self.signpost = signpost
        self.within = within
        name = "\(signpost)EndsWithin(\(Format.number(within.seconds / 3_600)) h)"
    }

    public mutating func observe(_ entry: SystemLogEntry, in run: inout RunContext) {
        guard case .signpost(let mark) = entry.event, mark.name == signpost else { return }
        switch mark.kind {
        case .begin:
            report(at: run.now, in: &run)
            open[mark.id] = (entry.time, false)
        case .end:
            report(at: run.now, in: &run)
            open[mark.id] = nil
        case .event:
            break
        }
    }

    public mutating func observe(_ event: DeviceEvent?, device: borrowing Device, system: SimulatedSystem, in run: inout RunContext) {
        report(at: run.now, in: &run)
    }

    /// Reports the oldest open interval past the bound at `now`, once.
    private mutating func report(at now: SimInstant, in run: inout RunContext) {
        guard !open.isEmpty else { return }
        // The oldest first, the ID breaking ties: the report does not depend on the dictionary's order.
        var oldest: (id: UInt64, begun: SimInstant)?
        for (id, interval) in open where !interval.reported && now - interval.begun > within {
            if let current = oldest, (current.begun, current.id) < (interval.begun, id) { continue }
            oldest = (id, interval.begun)
        }
        guard let oldest else { return }
        open[oldest.id]?.reported = true
        run.fail("the \"\(signpost)\" interval begun at \(oldest.begun) has not ended \(Format.duration(now - oldest.begun)) later")
    }
}

extension Invariants {
    /// The invariants the scenario's own metrics declare: ``IntervalEndsWithin`` for each
    /// interval with `endsWithinHours`.
    public static func declaredByAppMetrics(of scenario: Scenario) -> [any Invariant] {
        scenario.app.metrics.compactMap { declaration in
            guard declaration.kind == .interval, let within = declaration.endsWithin else { return nil }
            return IntervalEndsWithin(signpost: declaration.signpostName, within: within)
        }
    }
}
