/// The door through which the system would run the app in the background: where a wake
/// request comes from.
///
/// Every door goes through one admission step (``WakeAdmission``), which checks the rules of
/// ``WakeRule/table`` that apply to it, and one entry point that launches or resumes the app.
/// Raw values are stable (they index the rule table's applicability).
package enum WakeSource: UInt8, Sendable, CaseIterable {
    /// A pending `BGAppRefreshTaskRequest` the system chooses to run.
    case appRefreshTask = 0
    /// A pending `BGProcessingTaskRequest` the system chooses to run.
    case processingTask = 1
    /// A `BGContinuedProcessingTaskRequest` the user started, starting now that a slot is free.
    case continuedProcessingTask = 2
    /// A silent push the app's server sent (`content-available`).
    case silentPush = 3
    /// A background URL session's events: its transfers have finished while the app could not
    /// hear (a session that is not discretionary).
    case sessionEvents = 4
    /// The same, for a discretionary session (`isDiscretionary`, or transfers handed over while
    /// the app was in the background).
    case discretionarySessionEvents = 5
    /// Xcode's `_simulateLaunchForTaskWithIdentifier:` from the scenario's `debugger` section.
    case debuggerCommand = 6

    /// The source's name in documentation and tests.
    package var name: String { String(describing: self) }

    /// The name of the source's column in the docs' tables of rules and reasons
    /// (``WakeRule/doors``).
    package var columnName: String {
        switch self {
        case .appRefreshTask: "refresh"
        case .processingTask: "processing"
        case .continuedProcessingTask: "continued"
        case .silentPush: "push"
        case .sessionEvents: "URL session"
        case .discretionarySessionEvents: "URL session (discretionary)"
        case .debuggerCommand: "debugger"
        }
    }

    /// The source of a pending task request of `kind`.
    init(_ kind: TaskRequest.Kind) {
        switch kind {
        case .appRefresh: self = .appRefreshTask
        case .processing: self = .processingTask
        }
    }

    /// Whether the source is a pending task request, which the launch model decides on.
    var isTaskRequest: Bool { self == .appRefreshTask || self == .processingTask }

    /// Why `didFinishLaunching` is told the app was launched, when a wake from this source
    /// starts a new process.
    var launchReason: LaunchReason {
        switch self {
        case .appRefreshTask, .processingTask, .continuedProcessingTask, .debuggerCommand: .backgroundTask
        case .silentPush: .remoteNotification
        case .sessionEvents, .discretionarySessionEvents: .backgroundURLSession
        }
    }
}

/// A set of ``WakeSource``s, as one bit each: the doors a rule applies to.
package struct WakeSources: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The set holding `sources`.
    package init(_ sources: WakeSource...) {
        rawValue = sources.reduce(0) { $0 | 1 << $1.rawValue }
    }

    package func contains(_ source: WakeSource) -> Bool { rawValue & 1 << source.rawValue != 0 }

    /// Both pending task requests.
    package static let taskRequests = WakeSources(.appRefreshTask, .processingTask)
    /// Every source.
    package static let all = WakeSources(rawValue: WakeSource.allCases.reduce(0) { $0 | 1 << $1.rawValue })

    /// The sources in the set, in ``WakeSource`` order.
    package var members: [WakeSource] { WakeSource.allCases.filter(contains) }
}
