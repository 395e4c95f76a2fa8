/// The app's workload: how work items arrive, how big they are, their deadline, and whether an
/// interrupted item keeps its progress.
///
/// Items are created by the user's own behaviour (app sessions) or by the outside world (a
/// cadence, like a blockchain's blocks), never by the policy, so every policy run with the same
/// seed gets the same items.
///
/// Each number's valid range and, where it has one, its plausible range are declared once, in
/// ``numberFields`` (docs/SCENARIOS.md, "Every number", prints them with the defaults).
public struct WorkParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// How items arrive. Default `none`. With any other value, items must need some work: at
    /// least one of ``cpuMedianSeconds``, ``uploadMedianKilobytes`` and
    /// ``downloadMedianKilobytes`` above 0.
    public var arrivals: WorkArrivals = .none

    /// With `appSessions`: items created per app session, on average (Poisson). [Inf]
    public var itemsPerAppSession: Double = 1

    /// With `appSessions`: whether a session's items are created when the user opens the app
    /// (`open`: photos taken before, to upload) or when they leave it (`close`: messages written
    /// during the session, to send). Default open.
    public var appSessionMoment: AppSessionMoment = .open

    /// With `cadence`: one item every this many seconds. The default is a Zcash block's interval:
    /// about 1,152 a day, as Zashi's `BACKGROUND_SYNCING.md` counts them [C].
    public var cadenceSeconds: Double = 75

    /// Median upload size of an item, in kB (log-normal). [Inf]
    public var uploadMedianKilobytes: Double = 0
    /// Spread (σ of the logarithm) of upload sizes. [Inf]
    public var uploadSigma: Double = 1

    /// Median download size of an item, in kB (log-normal). [Inf]
    public var downloadMedianKilobytes: Double = 0
    /// Spread of download sizes. [Inf]
    public var downloadSigma: Double = 1

    /// Median CPU time an item needs, in seconds (log-normal). [Inf]
    public var cpuMedianSeconds: Double = 0
    /// Spread of CPU times. [Inf]
    public var cpuSigma: Double = 1

    /// Hours after creation at which an unfinished item fails (Proton Drive's upload URLs expire
    /// after 3 h, per its `BackgroundOperations.md`) [C]; 0 for no deadline.
    public var deadlineHours: Double = 0

    /// Whether an interrupted item keeps its progress (`true`) or starts again (`false`).
    /// Default true.
    public var resumable: Bool = true

    /// Most items queued at once; an item arriving at a full queue fails (`queueFull`). The default
    /// holds about 87 days of blocks.
    public var maximumQueuedItems: Int = 100_000
}

/// How work items arrive.
public enum WorkArrivals: String, NamedChoice, Sendable {
    /// No work.
    case none
    /// Items are created when the user opens the app (photos to upload, messages to send).
    case appSessions
    /// Items arrive one every `cadenceSeconds` (blocks to sync).
    case cadence
}

/// When an app session's items are created.
public enum AppSessionMoment: String, NamedChoice, Sendable {
    /// When the user opens the app.
    case open
    /// When the user leaves it (before `applicationDidEnterBackground`).
    case close
}

extension WorkParameters: ScenarioSection {
    package static let numberFields: [NumberField<WorkParameters>] = [
        NumberField("itemsPerAppSession", \.itemsPerAppSession, valid: 0...100),
        NumberField("cadenceSeconds", \.cadenceSeconds, valid: 1...86_400),
        NumberField("uploadMedianKilobytes", \.uploadMedianKilobytes, valid: 0...10_000_000),
        NumberField("uploadSigma", \.uploadSigma, valid: 0...3),
        NumberField("downloadMedianKilobytes", \.downloadMedianKilobytes, valid: 0...10_000_000),
        NumberField("downloadSigma", \.downloadSigma, valid: 0...3),
        NumberField("cpuMedianSeconds", \.cpuMedianSeconds, valid: 0...86_400),
        NumberField("cpuSigma", \.cpuSigma, valid: 0...3),
        NumberField("deadlineHours", \.deadlineHours, valid: 0...8_760),
        NumberField("maximumQueuedItems", \.maximumQueuedItems, valid: 1...1_000_000),
    ]

    package func validateRelations(_ v: inout ParameterValidator) {
        if arrivals != .none {
            // An item that needs nothing would complete in no time, again and again.
            v.require(cpuMedianSeconds > 0 || uploadMedianKilobytes > 0 || downloadMedianKilobytes > 0, "",
                      "expected items that need some work: cpuMedianSeconds, uploadMedianKilobytes or downloadMedianKilobytes above 0")
        }
    }
}
