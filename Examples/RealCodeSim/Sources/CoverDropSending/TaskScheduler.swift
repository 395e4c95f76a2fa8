// The seam between the service and BGTaskScheduler, so that unit tests can fake it: the shape
// of CoverDrop's own `TaskScheduler` protocol, written afresh.
#if os(iOS)
import BackgroundTasks
import Foundation
#else
import SimulatedBackgroundTasks
#endif

public protocol TaskScheduler: Sendable {
    @discardableResult
    func register(forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
                  launchHandler: @escaping (BGTask) -> Void) -> Bool
    func submit(_ taskRequest: BGTaskRequest) throws
}

extension BGTaskScheduler: TaskScheduler {}

/// The wall clock, injectable (CoverDrop's `DateFunction` has the same role).
public struct DateFunction: Sendable {
    public var currentTime: @Sendable () -> Date
    public static let live = DateFunction { Date() }
}
