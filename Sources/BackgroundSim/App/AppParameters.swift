/// The simulated app as iOS sees it: its background policy and what its Info.plist declares.
public struct AppParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    /// The background policy: a registered name (see `bgsim presets`) and its parameters;
    /// `"none"` simulates no app code. Default "none".
    public var policy: PolicyConfiguration = .none

    /// `BGTaskSchedulerPermittedIdentifiers`: the task identifiers the app may register and submit.
    /// Default: none; a scenario file that names a policy and not this field gets the task
    /// identifiers the policy's definition declares (``PolicyDefinition/taskIdentifiers``), or its
    /// parameters where they choose them (a recipe's ``PolicyParameters/taskIdentifiers``), as
    /// its Info.plist would list them — give `[]` to model a missing entry.
    public var permittedIdentifiers: [String] = []

    /// `UIBackgroundModes`: `"fetch"` allows refresh requests, `"processing"` processing requests.
    /// Default both.
    public var backgroundModes: [BackgroundMode] = [.fetch, .processing]

    /// The user's Background App Refresh switch for the app. Default true (on by default [A-via]).
    /// Off: submit fails with `unavailable`.
    public var backgroundAppRefreshEnabled: Bool = true

    /// The app's own metrics, measured from its signposts (``AppMetricDeclaration``). Default:
    /// none; a scenario file that names a policy and not this field gets the metrics the
    /// policy's definition declares (``PolicyDefinition/metrics``).
    public var metrics: [AppMetricDeclaration] = []

    /// The app's environment variables, launch arguments and `UserDefaults` at install
    /// (``LaunchEnvironment``). Default none of each.
    public var launch = LaunchEnvironment()
}

/// An entry of the app's `UIBackgroundModes` that background tasks need [A].
public enum BackgroundMode: String, NamedChoice, Sendable {
    /// "Background fetch": allows `BGAppRefreshTaskRequest`s.
    case fetch
    /// "Background processing": allows `BGProcessingTaskRequest`s.
    case processing
}
