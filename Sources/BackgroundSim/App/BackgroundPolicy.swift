/// A background policy: the part of an app that decides what to do in the background, written
/// against the same shapes as UIKit and BackgroundTasks.
///
/// The simulator creates a new instance for every process launch, so whatever the policy keeps
/// in its properties is lost when the system terminates the app; keep what must survive in
/// ``AppContext/defaults``. Register task handlers in ``didFinishLaunching(_:reason:)``, as on iOS.
///
///     final class RefreshEveryHour: BackgroundPolicy {
///         func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
///             app.taskScheduler.register(forTaskWithIdentifier: "refresh") { task in
///                 self.schedule(app)
///                 task.setTaskCompleted(success: true)
///             }
///         }
///         func didEnterBackground(_ app: AppContext) { schedule(app) }
///         func schedule(_ app: AppContext) {
///             var request = TaskRequest.appRefresh(identifier: "refresh")
///             request.earliestBeginDate = app.date + .hours(1)
///             try? app.taskScheduler.submit(request)
///         }
///     }
public protocol BackgroundPolicy: AnyObject {
    /// `application(_:didFinishLaunchingWithOptions:)`: the process has launched, in the
    /// foreground (the user opened the app) or in the background (to deliver a task). Task
    /// handlers can be registered only during this call.
    func didFinishLaunching(_ app: AppContext, reason: LaunchReason)

    /// `applicationDidEnterBackground(_:)`. Unless the app holds a background-task assertion or
    /// runs a task, it is suspended as soon as this returns.
    func didEnterBackground(_ app: AppContext)

    /// `applicationWillEnterForeground(_:)`: a running (background or suspended) app returns to
    /// the foreground. Not called on a launch; see ``didFinishLaunching(_:reason:)``.
    func willEnterForeground(_ app: AppContext)

    /// `applicationWillTerminate(_:)`. As on iOS, a background-capable app gets it only when it is
    /// terminated while *running* in the background (here: force-quit while holding an
    /// assertion or running a task), never when terminated while suspended, by the watchdog, or
    /// by the phone turning off [A].
    func willTerminate(_ app: AppContext)

    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`: the system
    /// launched or resumed the app in the background because the transfers of the background
    /// session `identifier` have finished (``WorkController/startHandingOff(to:)``). Call
    /// `completionHandler` when done; the app has ``BackgroundURLSessionParameters/eventsSeconds``.
    /// The default calls it at once.
    func handleEventsForBackgroundURLSession(_ app: AppContext, identifier: String, completionHandler: @escaping () -> Void)

    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` for a silent push
    /// (the scenario's `pushes`): in the foreground, or after the system launched or resumed the
    /// app in the background, which then has ``PushParameters/runSeconds`` to call
    /// `completionHandler` before it is terminated [A]. The default calls it at once with
    /// `.noData`.
    func didReceiveRemoteNotification(_ app: AppContext, fetchCompletionHandler: @escaping (BackgroundFetchResult) -> Void)
}

extension BackgroundPolicy {
    public func didEnterBackground(_ app: AppContext) {}
    public func willEnterForeground(_ app: AppContext) {}
    public func willTerminate(_ app: AppContext) {}
    public func handleEventsForBackgroundURLSession(_ app: AppContext, identifier: String, completionHandler: @escaping () -> Void) {
        completionHandler()
    }
    public func didReceiveRemoteNotification(_ app: AppContext, fetchCompletionHandler: @escaping (BackgroundFetchResult) -> Void) {
        fetchCompletionHandler(.noData)
    }
}

/// `UIBackgroundFetchResult`: what a silent push's handler reports.
public enum BackgroundFetchResult: Sendable, Equatable, CaseIterable {
    case newData
    case noData
    case failed
}

/// Why the process was launched.
public enum LaunchReason: Sendable, Equatable, CaseIterable {
    /// The user opened the app.
    case user
    /// The system launched the app in the background to run a task.
    case backgroundTask
    /// The system launched the app in the background because a background URL session's
    /// transfers finished (``BackgroundPolicy/handleEventsForBackgroundURLSession(_:identifier:completionHandler:)`` follows).
    case backgroundURLSession
    /// The system launched the app in the background to deliver a silent push
    /// (``BackgroundPolicy/didReceiveRemoteNotification(_:fetchCompletionHandler:)`` follows).
    case remoteNotification

    /// The reason's name in traces: "user", "backgroundTask", "backgroundURLSession" or
    /// "remoteNotification".
    public var name: String {
        switch self {
        case .user: "user"
        case .backgroundTask: "backgroundTask"
        case .backgroundURLSession: "backgroundURLSession"
        case .remoteNotification: "remoteNotification"
        }
    }
}

/// `UIApplication.State`, reduced to what background code can observe.
public enum ApplicationState: Sendable, Equatable {
    case active
    case background
}

/// `UIDevice.BatteryState`.
public enum BatteryState: Sendable, Equatable, CaseIterable {
    case unplugged
    case charging
    case full
}

/// Identifies a background-task assertion, like `UIBackgroundTaskIdentifier`.
public struct BackgroundTaskIdentifier: Sendable, Hashable {
    public let rawValue: Int
    package init(rawValue: Int) {
        self.rawValue = rawValue
    }
    /// `UIBackgroundTaskIdentifier.invalid`.
    public static let invalid = BackgroundTaskIdentifier(rawValue: 0)
}

/// A timer the app scheduled; it fires only while the process runs.
public struct AppTimer: Sendable, Hashable {
    let id: UInt32
}
