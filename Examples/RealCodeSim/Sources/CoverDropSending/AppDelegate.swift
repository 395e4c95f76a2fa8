#if os(iOS)
import Foundation
import UIKit
#else
import SimulatedBackgroundTasks
#endif

/// The app's delegate: registers the background task and starts the service at every launch.
public final class CoverDropAppDelegate: UIApplicationDelegate {
    let service: CoverDropService

    public init(service: CoverDropService = CoverDropService()) {
        self.service = service
    }

    public func application(_ application: UIApplication,
                            didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BackgroundTaskService.registerBackgroundSendJob(service: service, scheduler: service.scheduler)
        service.start()
        return true
    }

    public func applicationWillEnterForeground(_ application: UIApplication) {
        service.willEnterForeground()
    }

    public func applicationDidEnterBackground(_ application: UIApplication) {
        service.didEnterBackground()
    }
}
