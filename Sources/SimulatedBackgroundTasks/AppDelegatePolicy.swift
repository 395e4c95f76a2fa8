import BackgroundSim
import Foundation

/// An app's own code, written against `BackgroundTasks` and `UIKit`, run as a policy: each
/// process launch makes a fresh policy and app delegate and calls it as iOS would, and the
/// app's async work runs on the process's simulated executor.
///
///     let sync = PolicyDefinition.appDelegate(name: "my-sync", summary: "Our sync service, unchanged.",
///                                             taskIdentifiers: ["com.example.sync"]) { AppDelegate() }
public final class AppDelegatePolicy: BackgroundPolicy {
    private let makeDelegate: () -> any UIApplicationDelegate
    private let makeScene: () -> BackgroundTaskScene
    private let server: SimulatedServer
    private var process: SimulatedProcess?
    private var delegate: (any UIApplicationDelegate)?

    /// A policy whose launches make their scene's background-task actions with `makeScene` and
    /// their delegate with `makeDelegate`, and whose requests `server` answers.
    public init(server: SimulatedServer = .empty, makeScene: @escaping () -> BackgroundTaskScene = { BackgroundTaskScene() },
                makeDelegate: @escaping () -> any UIApplicationDelegate) {
        self.makeDelegate = makeDelegate
        self.makeScene = makeScene
        self.server = server
    }

    public func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        let phone = SimulatedPhone.of(app)
        let process = SimulatedProcess(app: app, server: server, backgroundSessions: phone.backgroundSessions)
        self.process = process
        phone.launched(process)
        // Launched for a session's events: the news of its tasks waits for
        // `application(_:handleEventsForBackgroundURLSession:completionHandler:)`.
        process.holdsSessionEvents = reason == .backgroundURLSession
        process.run {
            process.requests.discardRequestsOfEarlierProcesses()
            // The scene's actions are registered first [Inf]: SwiftUI builds the scene as the
            // app launches, and the order is not documented.
            makeScene().register(in: process)
            let delegate = makeDelegate()
            self.delegate = delegate
            _ = delegate.application(.shared, didFinishLaunchingWithOptions: nil)
            process.notifications.post(name: UIApplication.didFinishLaunchingNotification, object: UIApplication.shared)
            // A launch by the user goes on to the foreground, as UIKit does.
            if app.applicationState == .active {
                delegate.applicationDidBecomeActive(.shared)
                process.notifications.post(name: UIApplication.didBecomeActiveNotification, object: UIApplication.shared)
            }
        }
    }

    public func didEnterBackground(_ app: AppContext) {
        relay((UIApplication.willResignActiveNotification, { $0.applicationWillResignActive(.shared) }),
              (UIApplication.didEnterBackgroundNotification, { $0.applicationDidEnterBackground(.shared) }))
    }

    public func willEnterForeground(_ app: AppContext) {
        process?.holdsSessionEvents = false
        relay((UIApplication.willEnterForegroundNotification, { $0.applicationWillEnterForeground(.shared) }),
              (UIApplication.didBecomeActiveNotification, { $0.applicationDidBecomeActive(.shared) }))
    }

    /// Hands a background session's events to the delegate's
    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`; the session it
    /// makes (or made) with the identifier then hears of its tasks, and then
    /// `urlSessionDidFinishEvents(forBackgroundURLSession:)`.
    public func handleEventsForBackgroundURLSession(_ app: AppContext, identifier: String, completionHandler: @escaping () -> Void) {
        guard let process else { return }
        let handler = SimulationThreadBound(completionHandler)
        process.run {
            process.holdsSessionEvents = false
            if !process.sessionsAwaitingFinish.contains(identifier) { process.sessionsAwaitingFinish.append(identifier) }
            delegate?.application(.shared, handleEventsForBackgroundURLSession: identifier) { handler.value() }
        }
    }

    public func willTerminate(_ app: AppContext) {
        relay((UIApplication.willTerminateNotification, { $0.applicationWillTerminate(.shared) }))
    }

    /// Hands a silent push to the delegate's
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`. A handler that
    /// never calls back leaves the system to end the process when the push's time is up.
    public func didReceiveRemoteNotification(_ app: AppContext, fetchCompletionHandler: @escaping (BackgroundFetchResult) -> Void) {
        guard let process else { return }
        let handler = SimulationThreadBound(fetchCompletionHandler)
        process.run {
            delegate?.application(.shared, didReceiveRemoteNotification: Self.silentPushPayload) { result in
                handler.value(result.model)
            }
        }
    }

    /// For each step in order, calls the delegate, then posts the step's notification, as UIKit
    /// does — all in one run of the process's code, so the async work they start runs after.
    private func relay(_ steps: (notification: Notification.Name, call: (any UIApplicationDelegate) -> Void)...) {
        guard let process else { return }
        process.run {
            for step in steps {
                if let delegate { step.call(delegate) }
                process.notifications.post(name: step.notification, object: UIApplication.shared)
            }
        }
    }
}

extension PolicyDefinition {
    /// A policy of the app's own code: its app delegate, made afresh at each process launch, and
    /// its SwiftUI scene's background-task actions, if it has any (``BackgroundTaskScene``);
    /// `server` answers its requests.
    public static func appDelegate(name: String, summary: String, taskIdentifiers: [String], server: SimulatedServer = .empty,
                                   scene: @escaping @Sendable () -> BackgroundTaskScene = { BackgroundTaskScene() },
                                   make: @escaping @Sendable () -> any UIApplicationDelegate) -> PolicyDefinition {
        PolicyDefinition(name: name, summary: summary, taskIdentifiers: taskIdentifiers) {
            AppDelegatePolicy(server: server, makeScene: scene, makeDelegate: make)
        }
    }

    /// A policy of a SwiftUI app's own code with no app delegate: its scene's background-task
    /// actions, registered afresh at each process launch; `server` answers its requests.
    public static func app(name: String, summary: String, taskIdentifiers: [String], server: SimulatedServer = .empty,
                           scene: @escaping @Sendable () -> BackgroundTaskScene) -> PolicyDefinition {
        appDelegate(name: name, summary: summary, taskIdentifiers: taskIdentifiers, server: server, scene: scene) {
            SceneOnlyAppDelegate()
        }
    }
}

/// The app delegate of a SwiftUI app that declares none: it does nothing.
private final class SceneOnlyAppDelegate: UIApplicationDelegate {}
