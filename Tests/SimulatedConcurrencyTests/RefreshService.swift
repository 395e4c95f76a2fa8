// A background service written against Apple's API, as apps write theirs: a scheduler seam
// defaulting to the shared scheduler, a handler that resubmits first and finishes its work in a
// `Task`, an expiration handler that cancels it, `Date(timeIntervalSinceNow:)`, its last run
// kept in `UserDefaults.standard`, and the move to the background heard through
// `NotificationCenter.default`. Only the imports differ from the app's file.
#if os(iOS)
import BackgroundTasks
import Foundation
import UIKit
#else
import SimulatedBackgroundTasks
#endif

final class RefreshService: @unchecked Sendable {
    static let identifier = "com.example.refresh"
    /// The seconds the refresh's network call takes.
    let fetchSeconds: UInt64
    let scheduler: BGTaskScheduler
    /// What the service saw, for the test.
    let journal: @Sendable (String) -> Void

    init(scheduler: BGTaskScheduler = .shared, fetchSeconds: UInt64, journal: @escaping @Sendable (String) -> Void) {
        self.scheduler = scheduler
        self.fetchSeconds = fetchSeconds
        self.journal = journal
    }

    func register() {
        NotificationCenter.default.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: nil) { _ in
            self.schedule()
        }
        scheduler.register(forTaskWithIdentifier: Self.identifier, using: nil) { task in
            guard let task = task as? BGAppRefreshTask else { return }
            self.schedule()
            let fetch = Task { () -> Bool in
                do {
                    try await Task.sleep(nanoseconds: self.fetchSeconds * 1_000_000_000)
                    return true
                } catch {
                    return false
                }
            }
            task.expirationHandler = {
                self.journal("expired")
                fetch.cancel()
            }
            Task {
                let success = await fetch.value
                self.journal(success ? "fetched" : "cancelled")
                if success { UserDefaults.standard.set(Date(), forKey: "lastRefresh") }
                task.setTaskCompleted(success: success)
            }
        }
    }

    func schedule() {
        if let last = UserDefaults.standard.object(forKey: "lastRefresh") as? Date {
            journal("minutes since the last refresh: \(Int((Date().timeIntervalSince(last) / 60).rounded()))")
        }
        let request = BGAppRefreshTaskRequest(identifier: Self.identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 60 * 60)
        do {
            try scheduler.submit(request)
        } catch BGTaskScheduler.Error.notPermitted {
            journal("not permitted")
        } catch {
            journal("submit failed: \(error)")
        }
    }
}

final class RefreshAppDelegate: UIApplicationDelegate {
    let service: RefreshService

    init(fetchSeconds: UInt64 = 2, journal: @escaping @Sendable (String) -> Void) {
        service = RefreshService(fetchSeconds: fetchSeconds, journal: journal)
    }

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        service.register()
        return true
    }
}
