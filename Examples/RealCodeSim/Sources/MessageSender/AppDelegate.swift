#if os(iOS)
import Foundation
import UIKit
#else
import SimulatedBackgroundTasks
#endif

/// The app's delegate: starts the service at launch; the user writes a message each time they
/// open the app.
final class AppDelegate: UIResponder, UIApplicationDelegate, @unchecked Sendable {
    var window: UIWindow?
    let service = BackgroundTaskService()

    func application(_ application: UIApplication,
                            didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        service.start()
        if application.applicationState == .active { service.userWroteMessage() }
        return true
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        service.userWroteMessage()
    }
}
