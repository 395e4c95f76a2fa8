// An app's background service written the way most apps write theirs: a singleton with an
// initialisation state, a static "registered" flag, a counter of launches kept in a static,
// and a start-up path that runs once per process. Only the imports differ from an app's file.
#if os(iOS)
import BackgroundTasks
import Foundation
import UIKit
#else
import SimulatedBackgroundTasks
#endif

final class StaticsService: @unchecked Sendable {
    static let shared = StaticsService()
    static let identifier = "com.example.statics.refresh"
    /// Set once the handler is registered in this process (apps guard against registering twice).
    nonisolated(unsafe) static var hasBeenRegistered = false
    /// Launches this process has seen: 1 in every process on iOS.
    nonisolated(unsafe) static var launchesSeen = 0

    private enum State { case notStarted, initialized }
    private var state = State.notStarted

    /// The start-up path: registers the handler once, then starts the service once.
    func start() {
        Self.launchesSeen += 1
        print("launch \(Self.launchesSeen) in this process")
        if !Self.hasBeenRegistered {
            Self.hasBeenRegistered = true
            BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.identifier, using: nil) { task in
                task.setTaskCompleted(success: true)
            }
        }
        guard case .notStarted = state else {
            print("already initialized")
            return
        }
        state = .initialized
        print("start-up ran")
        let request = BGAppRefreshTaskRequest(identifier: Self.identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        try? BGTaskScheduler.shared.submit(request)
    }
}

final class StaticsAppDelegate: UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        StaticsService.shared.start()
        return true
    }
}

/// The statics service with its statics reset by hand at each launch, as a test of a process
/// per launch compares with.
final class ResettingStaticsAppDelegate: UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        Self.resetStatics()
        StaticsService().start()
        return true
    }

    /// The service's statics as a new process has them (the singleton is made anew above).
    static func resetStatics() {
        StaticsService.hasBeenRegistered = false
        StaticsService.launchesSeen = 0
    }
}

/// An app that asks for a refresh at each launch, and whose second launch then force-unwraps a
/// `nil`.
final class TrappingOnSecondLaunchDelegate: UIApplicationDelegate {
    static let identifier = "com.example.traps.refresh"

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.identifier, using: nil) { task in task.setTaskCompleted(success: true) }
        let launch = UserDefaults.standard.integer(forKey: "launches") + 1
        UserDefaults.standard.set(launch, forKey: "launches")
        print("launch \(launch)")
        let request = BGAppRefreshTaskRequest(identifier: Self.identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        try? BGTaskScheduler.shared.submit(request)
        let missing: Int? = launch == 2 ? nil : launch
        print("value \(missing!)")
        return true
    }
}
