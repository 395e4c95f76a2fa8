#if os(iOS)
import BackgroundTasks
import Foundation
import UIKit
#else
import SimulatedBackgroundTasks
#endif

/// The app's delegate: starts the inbox service at every launch. `crashesOnLaunch` is a switch
/// a test build sets: every such launch reads a corrupt cache and traps, as a force unwrap does.
final class InboxAppDelegate: UIResponder, UIApplicationDelegate, @unchecked Sendable {
    var window: UIWindow?
    private let crashEveryNthLaunch: Int

    init(crashEveryNthLaunch: Int = 0) {
        self.crashEveryNthLaunch = crashEveryNthLaunch
    }

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let launches = UserDefaults.standard.integer(forKey: "inbox.launches") + 1
        UserDefaults.standard.set(launches, forKey: "inbox.launches")
        if crashEveryNthLaunch > 0, launches % crashEveryNthLaunch == 0 {
            let cache = UserDefaults.standard.data(forKey: "inbox.cache")   // never written: nil
            print("reading the cache of \(cache!.count) bytes")
        }
        InboxSyncService.shared.start()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        InboxSyncService.shared.scheduleRefresh()
    }
}
