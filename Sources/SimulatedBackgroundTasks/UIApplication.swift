import BackgroundSim
import Foundation

/// `UIApplication`: the app's state and its background-task assertions, on the simulated device
/// whose code is running (`UIApplication.shared` is one object; each call reaches the process
/// whose code makes it).
open class UIApplication: @unchecked Sendable {
    /// The application.
    public static let shared = UIApplication()

    init() {}

    /// `UIApplication.State`.
    public enum State: Int, Sendable {
        case active, inactive, background
    }

    /// Whether the app is in the foreground.
    open var applicationState: State {
        SimulatedProcess.required(by: "UIApplication.applicationState").state.isActive ? .active : .background
    }

    /// The time left before the system suspends the app, in seconds; `.greatestFiniteMagnitude`
    /// in the foreground, as on iOS.
    open var backgroundTimeRemaining: TimeInterval {
        let process = SimulatedProcess.required(by: "UIApplication.backgroundTimeRemaining")
        guard !process.state.isActive else { return .greatestFiniteMagnitude }
        return Double(process.state.backgroundTimeRemaining.nanoseconds) / 1e9
    }

    /// Whether protected files and the keychain can be read: the phone is unlocked.
    open var isProtectedDataAvailable: Bool {
        SimulatedProcess.required(by: "UIApplication.isProtectedDataAvailable").state.isProtectedDataAvailable
    }

    /// Whether the app may refresh in the background: `.denied` while the user's Background App
    /// Refresh switch is off for it, and while Low Power Mode is on, which turns Background App
    /// Refresh off [A] (Apple's documentation of this property,
    /// https://developer.apple.com/documentation/uikit/uiapplication/backgroundrefreshstatus; that
    /// the status then reads `.denied` is our inference); otherwise `.available`. `.restricted`
    /// (parental controls) is not modelled.
    open var backgroundRefreshStatus: UIBackgroundRefreshStatus {
        SimulatedProcess.required(by: "UIApplication.backgroundRefreshStatus").state.isBackgroundRefreshAvailable ? .available : .denied
    }

    /// Asks for time to finish work in the background; `expirationHandler` runs when it is
    /// nearly up, and the app must end the task then.
    open func beginBackgroundTask(withName taskName: String?, expirationHandler handler: (() -> Void)? = nil) -> UIBackgroundTaskIdentifier {
        let process = SimulatedProcess.required(by: "UIApplication.beginBackgroundTask(withName:expirationHandler:)")
        let expiration = handler.map { handler in process.callbacks.add(once: true) { process.run(handler) } }
        guard case .integer(let identifier) = process.call(.beginBackgroundTask(name: taskName, expirationHandler: expiration)) else {
            return .invalid
        }
        return UIBackgroundTaskIdentifier(rawValue: identifier)
    }

    /// ``beginBackgroundTask(withName:expirationHandler:)`` without a name.
    open func beginBackgroundTask(expirationHandler handler: (() -> Void)? = nil) -> UIBackgroundTaskIdentifier {
        beginBackgroundTask(withName: nil, expirationHandler: handler)
    }

    /// Ends a background task.
    open func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {
        SimulatedProcess.required(by: "UIApplication.endBackgroundTask(_:)").call(.endBackgroundTask(identifier: identifier.rawValue))
    }

    /// `UIApplication.LaunchOptionsKey`.
    public struct LaunchOptionsKey: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    public static let didFinishLaunchingNotification = Notification.Name("UIApplicationDidFinishLaunchingNotification")
    public static let didBecomeActiveNotification = Notification.Name("UIApplicationDidBecomeActiveNotification")
    public static let willResignActiveNotification = Notification.Name("UIApplicationWillResignActiveNotification")
    public static let backgroundRefreshStatusDidChangeNotification = Notification.Name("UIApplicationBackgroundRefreshStatusDidChangeNotification")
    public static let protectedDataWillBecomeUnavailableNotification = Notification.Name("UIApplicationProtectedDataWillBecomeUnavailable")
    public static let protectedDataDidBecomeAvailableNotification = Notification.Name("UIApplicationProtectedDataDidBecomeAvailable")
    public static let didEnterBackgroundNotification = Notification.Name("UIApplicationDidEnterBackgroundNotification")
    public static let willEnterForegroundNotification = Notification.Name("UIApplicationWillEnterForegroundNotification")
    public static let willTerminateNotification = Notification.Name("UIApplicationWillTerminateNotification")
}

/// `UIBackgroundRefreshStatus`.
public enum UIBackgroundRefreshStatus: Int, Sendable {
    case restricted = 0, denied = 1, available = 2
}

/// `UIBackgroundTaskIdentifier`.
public struct UIBackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// No task.
    public static let invalid = UIBackgroundTaskIdentifier(rawValue: 0)
}

/// `UIApplicationDelegate`: the app's entry points the simulation calls.
public protocol UIApplicationDelegate: AnyObject {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool
    func applicationDidEnterBackground(_ application: UIApplication)
    func applicationWillEnterForeground(_ application: UIApplication)
    func applicationWillTerminate(_ application: UIApplication)
    func applicationDidBecomeActive(_ application: UIApplication)
    func applicationWillResignActive(_ application: UIApplication)
    /// A silent push (`content-available`); call `completionHandler` within 30 s.
    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
                     fetchCompletionHandler completionHandler: @escaping @Sendable (UIBackgroundFetchResult) -> Void)
    /// The tasks of the background session `identifier` ended while the app could not hear:
    /// make the session again, and call `completionHandler` when its delegate has heard
    /// `urlSessionDidFinishEvents(forBackgroundURLSession:)`.
    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: @escaping @Sendable () -> Void)
    /// Whether the app allows extensions of a kind (not simulated: never asked).
    func application(_ application: UIApplication, shouldAllowExtensionPointIdentifier extensionPointIdentifier: UIApplication.ExtensionPointIdentifier) -> Bool
}

extension UIApplicationDelegate {
    public func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool { true }
    public func applicationDidEnterBackground(_ application: UIApplication) {}
    public func applicationWillEnterForeground(_ application: UIApplication) {}
    public func applicationWillTerminate(_ application: UIApplication) {}
    public func applicationDidBecomeActive(_ application: UIApplication) {}
    public func applicationWillResignActive(_ application: UIApplication) {}
    /// A delegate that does not handle silent pushes reports no data at once.
    public func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
                            fetchCompletionHandler completionHandler: @escaping @Sendable (UIBackgroundFetchResult) -> Void) {
        completionHandler(.noData)
    }
    public func application(_ application: UIApplication, shouldAllowExtensionPointIdentifier extensionPointIdentifier: UIApplication.ExtensionPointIdentifier) -> Bool {
        true
    }
    /// A delegate that does not handle a session's events calls the completion handler at once.
    public func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
                            completionHandler: @escaping @Sendable () -> Void) {
        completionHandler()
    }
}
