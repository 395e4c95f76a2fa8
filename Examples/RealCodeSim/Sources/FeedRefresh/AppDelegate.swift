#if os(iOS)
import BackgroundTasks
import Foundation
import UIKit
#else
import SimulatedBackgroundTasks
#endif

/// The feed app's delegate: registers the refresh at launch, refreshes a stale feed when the
/// user opens the app and asks for the next background refresh when the user leaves.
final class FeedAppDelegate: UIResponder, UIApplicationDelegate, @unchecked Sendable {
    var window: UIWindow?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        FeedRefresher.shared.register()
        if application.applicationState != .background { FeedRefresher.shared.refreshIfStale() }
        return true
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        FeedRefresher.shared.refreshIfStale()
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        FeedRefresher.shared.scheduleRefresh()
    }
}
