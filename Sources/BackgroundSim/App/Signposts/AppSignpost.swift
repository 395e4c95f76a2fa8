/// A signpost the app's code emitted: MetricKit's `mxSignpost(_:log:name:)`, `os_signpost` or an
/// `OSSignposter`'s interval or event. The simulator records each as a `signpost` event of the
/// device's log and measures the app's own metrics from them (``AppMetrics``).
///
/// An interval is a ``Kind-swift.enum/begin`` and the ``Kind-swift.enum/end`` with the same
/// name and ``id``; an ``id`` of 0 is `OSSignpostID.exclusive`, one interval of the name at a
/// time, as Instruments pairs them.
public struct AppSignpost: Sendable, Hashable {
    /// `OSSignpostType`.
    public enum Kind: String, Sendable, CaseIterable {
        case begin, end, event
    }

    public var kind: Kind
    /// The category of the log handle (`MXMetricManager.makeLogHandle(category:)`,
    /// `OSSignposter(subsystem:category:)`); empty for none.
    public var category: String
    /// The signpost's name: what the app's metrics are declared by (``AppMetricDeclaration``).
    public var name: String
    /// The signpost ID; 0 for `.exclusive`.
    public var id: UInt64

    public init(_ kind: Kind, name: String, category: String = "", id: UInt64 = 0) {
        self.kind = kind
        self.category = category
        self.name = name
        self.id = id
    }

    /// The name of the event signpost that marks the app's content updated, from which the
    /// simulator measures the content's age at each open (``AppMetricDeclaration/Kind-swift.enum/contentAge``):
    /// on iOS, `signposter.emitEvent("contentUpdated")` or
    /// `mxSignpost(.event, log: log, name: "contentUpdated")`.
    public static let contentUpdatedName = "contentUpdated"
}
