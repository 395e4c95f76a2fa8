import SimKernel

/// A metric of the app's own, measured from its signposts (``AppSignpost``) and reported by every
/// command like the built-in ones: `run`'s `app` group, and in `compare`, `sweep`, `tune` and
/// `what-if` under the keys ``AppMetricDeclaration/keys``. A scenario declares them in
/// `app.metrics`; a registered policy may declare defaults (``PolicyDefinition/metrics``).
///
///     {"kind": "contentAge", "marginMinutes": 10}
///     {"kind": "interval", "name": "upload", "doneWithinHours": 6, "marginPoints": 2, "endsWithinHours": 24}
///     {"kind": "event", "name": "messageSent"}
///
/// Margins are in the unit of the difference they judge: minutes for content age and interval
/// durations, percentage points for the share done in time, a day's count for an event. A margin
/// left out is the same default the built-in metrics use: a tenth of the baseline's mean for
/// times, one point for a share, 0.1 a day for counts.
public struct AppMetricDeclaration: Codable, Sendable, Equatable {
    /// What is measured.
    public enum Kind: String, NamedChoice, Sendable {
        /// The age of the app's content at each open by the user: the time since the last
        /// event signpost named ``AppMetricDeclaration/name`` (default
        /// ``AppSignpost/contentUpdatedName``), or since the run's start before the first.
        case contentAge
        /// The intervals between a begin and an end signpost named ``AppMetricDeclaration/name``:
        /// their durations, and the share done within ``AppMetricDeclaration/doneWithinHours``.
        case interval
        /// How often the event signpost named ``AppMetricDeclaration/name`` is emitted.
        case event
    }

    public var kind: Kind
    /// The signpost's name: letters, digits, `_` and `-`, 1 to 64 of them. Default
    /// ``AppSignpost/contentUpdatedName`` for content age; required for the other kinds.
    public var name: String?
    /// For an interval: the time within which an interval is done in time, for the share done
    /// within it. Default 24 h, a day [Inf]: set it to what the app promises. Valid 0.001–8,760 h.
    public var doneWithinHours: Double?
    /// For an interval: `check` fails a run where an interval begun is not ended within this
    /// many hours (the invariant `<name>EndsWithin`). Default none. Valid 0.001–8,760 h.
    public var endsWithinHours: Double?
    /// The smallest difference that matters in content age or an interval's duration, in
    /// minutes. Default: a tenth of the baseline's mean in a comparison, 1 min in sweeps and
    /// tuning, as for the built-in latencies [Inf]. Valid 0–100,000.
    public var marginMinutes: Double?
    /// The smallest difference that matters in the share of intervals done in time, in
    /// percentage points. Default 1, as for work completed [Inf]. Valid 0–100.
    public var marginPoints: Double?
    /// The smallest difference that matters in an event's or interval's count a day. Default
    /// 0.1, one every ten days, as for launches [Inf]. Valid 0–100,000.
    public var marginPerDay: Double?

    public init(kind: Kind, name: String? = nil, doneWithinHours: Double? = nil, endsWithinHours: Double? = nil,
                marginMinutes: Double? = nil, marginPoints: Double? = nil, marginPerDay: Double? = nil) {
        self.kind = kind
        self.name = name
        self.doneWithinHours = doneWithinHours
        self.endsWithinHours = endsWithinHours
        self.marginMinutes = marginMinutes
        self.marginPoints = marginPoints
        self.marginPerDay = marginPerDay
    }

    /// The content's age at each open, updated by the event signpost `updatedBy`.
    public static func contentAge(updatedBy name: String = AppSignpost.contentUpdatedName, marginMinutes: Double? = nil) -> Self {
        Self(kind: .contentAge, name: name, marginMinutes: marginMinutes)
    }

    /// The intervals of the signpost `name`, done in time within `doneWithin`.
    public static func interval(_ name: String, doneWithin: SimDuration = .hours(24), endsWithin: SimDuration? = nil,
                                marginMinutes: Double? = nil, marginPoints: Double? = nil) -> Self {
        Self(kind: .interval, name: name, doneWithinHours: doneWithin.seconds / 3_600, endsWithinHours: endsWithin.map { $0.seconds / 3_600 },
             marginMinutes: marginMinutes, marginPoints: marginPoints)
    }

    /// How often the event signpost `name` is emitted.
    public static func event(_ name: String, marginPerDay: Double? = nil) -> Self {
        Self(kind: .event, name: name, marginPerDay: marginPerDay)
    }

    /// The signpost name the metric reads.
    public var signpostName: String { name ?? (kind == .contentAge ? AppSignpost.contentUpdatedName : "") }

    /// ``doneWithinHours`` with its default, as a duration.
    public var doneWithin: SimDuration { .hours(doneWithinHours ?? 24) }

    /// ``endsWithinHours`` as a duration.
    public var endsWithin: SimDuration? { endsWithinHours.map { .hours($0) } }

    /// Whether `name` may name a signpost metric: it becomes part of metric keys and column names.
    public static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.count) && name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
        }
    }

    /// Checks the declaration; paths are relative to it.
    func validate(_ v: inout ParameterValidator) {
        if let name {
            v.require(Self.isValidName(name), "name", "expected 1 to 64 letters, digits, \"_\" or \"-\", got \"\(name)\"")
        } else {
            v.require(kind == .contentAge, "name", "expected the name of the \(kind.rawValue) signpost")
        }
        let hours = 0.001...8_760.0
        if let doneWithinHours { v.check(doneWithinHours, hours, "doneWithinHours") }
        if let endsWithinHours { v.check(endsWithinHours, hours, "endsWithinHours") }
        if let marginMinutes { v.check(marginMinutes, 0...100_000, "marginMinutes") }
        if let marginPoints { v.check(marginPoints, 0...100, "marginPoints") }
        if let marginPerDay { v.check(marginPerDay, 0...100_000, "marginPerDay") }
        if kind != .interval {
            v.require(doneWithinHours == nil, "doneWithinHours", "applies to an interval only")
            v.require(endsWithinHours == nil, "endsWithinHours", "applies to an interval only")
            v.require(marginPoints == nil, "marginPoints", "applies to an interval only")
        }
        if kind == .event { v.require(marginMinutes == nil, "marginMinutes", "applies to content age and intervals only") }
        if kind == .contentAge { v.require(marginPerDay == nil, "marginPerDay", "applies to intervals and events only") }
    }
}
