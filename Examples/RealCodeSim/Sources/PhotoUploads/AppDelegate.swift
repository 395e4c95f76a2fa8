#if os(iOS)
import Foundation
import UIKit
#else
import SimulatedBackgroundTasks
#endif

/// The app delegate: makes the session at launch (so that it hears of uploads an earlier
/// process handed over), lets the user take one to three photos each time they open the app,
/// and hands them over as they leave.
final class PhotoAppDelegate: UIResponder, UIApplicationDelegate, @unchecked Sendable {
    var window: UIWindow?
    let uploader = PhotoUploader()

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        _ = uploader.session
        if application.applicationState == .active { takePhotos() }
        return true
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        takePhotos()
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        var handOver = UIBackgroundTaskIdentifier.invalid
        handOver = application.beginBackgroundTask(withName: "hand over photos") {
            application.endBackgroundTask(handOver)
        }
        uploader.uploadWaitingPhotos()
        application.endBackgroundTask(handOver)
    }

    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
                            completionHandler: @escaping @Sendable () -> Void) {
        guard identifier == PhotoUploader.sessionIdentifier else { return completionHandler() }
        uploader.eventsCompletionHandler = completionHandler
        _ = uploader.session
    }

    private func takePhotos() {
        for _ in 0..<Int.random(in: 1...3) { uploader.photoTaken() }
    }
}
