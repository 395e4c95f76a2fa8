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
