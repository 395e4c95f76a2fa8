import Foundation

/// `BGTaskRequest`: a request to launch the app in the background to run a task.
///
/// `earliestBeginDate` is a wall-clock `Date`, as on iOS. The simulation reads it as a delay
/// from the moment of `submit(_:)`: the date minus `Date()` then, rounded to the millisecond, is
/// added to the simulated device's clock. So a request made with `Date(timeIntervalSinceNow:)`
/// or `Date().addingTimeInterval(_:)` just before it is submitted means what it means on a phone.
open class BGTaskRequest: @unchecked Sendable, CustomStringConvertible {
    /// The task's identifier, one of the app's `BGTaskSchedulerPermittedIdentifiers`.
    public let identifier: String
    /// The earliest time the task may start; `nil` for no delay.
    open var earliestBeginDate: Date?

    init(identifier: String) {
        self.identifier = identifier
    }

    open var description: String { "<\(type(of: self)): \(identifier), earliestBeginDate: \(earliestBeginDate.map(String.init(describing:)) ?? "nil")>" }
}

/// `BGAppRefreshTaskRequest`: a short refresh, "a few times a day".
open class BGAppRefreshTaskRequest: BGTaskRequest, @unchecked Sendable {
    public override init(identifier: String) {
        super.init(identifier: identifier)
    }
}

/// `BGProcessingTaskRequest`: minutes of work, mostly at night on the charger.
open class BGProcessingTaskRequest: BGTaskRequest, @unchecked Sendable {
    /// Whether the task needs a network connection.
    open var requiresNetworkConnectivity = false
    /// Whether the task needs the phone on power (it also lifts the CPU monitor).
    open var requiresExternalPower = false

    public override init(identifier: String) {
        super.init(identifier: identifier)
    }
}

/// `BGContinuedProcessingTaskRequest` (iOS 26): work the user started in the app, which goes on
/// if they leave it, shown to them with its title, subtitle and progress.
///
/// Submit it from the foreground, on the user's action. It starts as soon as the code that
/// submits it returns, if the system has a free slot; otherwise ``strategy`` says whether it
/// waits for one or `submit(_:)` throws `immediateRunIneligible`. `earliestBeginDate` is
/// ignored, as on iOS. Its identifier is one that a permitted wildcard (`com.example.export.*`)
/// matches, and the handler registered for the wildcard runs it.
open class BGContinuedProcessingTaskRequest: BGTaskRequest, @unchecked Sendable {
    /// What `submit(_:)` does when the task cannot start at once.
    public enum SubmissionStrategy: Int, Sendable, Hashable {
        /// Throw `BGTaskScheduler.Error.immediateRunIneligible`.
        case fail = 0
        /// Wait until a slot is free (the default).
        case queue = 1
    }

    /// The resources the task needs beyond the default.
    public struct Resources: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// No more than the default.
        public static let `default`: Resources = []
        /// Background GPU access.
        public static let gpu = Resources(rawValue: 1 << 0)
    }

    /// The title shown to the user before the task starts.
    open var title: String
    /// The subtitle shown to the user before the task starts.
    open var subtitle: String
    /// Default `.queue`.
    open var strategy: SubmissionStrategy = .queue
    /// Default `.default`. The simulated phone supports none beyond it
    /// (`BGTaskScheduler.supportedResources`).
    open var requiredResources: Resources = .default

    public init(identifier: String, title: String, subtitle: String) {
        self.title = title
        self.subtitle = subtitle
        super.init(identifier: identifier)
    }
}
