import BackgroundSim
import SimKernel
import SimulatedBackgroundTasks
import Testing

/// An app delegate that fetches for `fetchSeconds` on each silent push, then calls back.
final class PushFetchingDelegate: UIApplicationDelegate {
    let fetchSeconds: Int
    let journal: SharedJournal

    init(fetchSeconds: Int, journal: SharedJournal) {
        self.fetchSeconds = fetchSeconds
        self.journal = journal
    }

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        application.registerForRemoteNotifications()
        return true
    }

    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
                     fetchCompletionHandler completionHandler: @escaping @Sendable (UIBackgroundFetchResult) -> Void) {
        let aps = userInfo["aps"] as? [String: Int]
        journal.lines.append("push \(aps?["content-available"] ?? 0) \(application.applicationState)")
        let seconds = fetchSeconds
        Task {
            try? await Task.sleep(for: .seconds(seconds))
            completionHandler(.newData)
        }
    }
}

@Suite("Silent pushes to the app's own code under simulated iOS")
struct SilentPushTests {
    /// Three days of pushes every 61 minutes (none within a handler's 30 s of the run's end) to
    /// the delegate `make` makes: the run's log.
    static func run(_ make: @escaping @Sendable () -> any UIApplicationDelegate) throws -> [SystemLogEvent] {
        try runAppCode("pushed", scenario: #"{"pushes": {"schedule": "cadence", "everyMinutes": 61}}"#, days: 3, make: make).log
    }

    @Test("each push the system delivers reaches the delegate with content-available 1, in the foreground and the background, and a fetch of 2 s calls back in time")
    func deliveredPushesReachTheDelegate() throws {
        let journal = SharedJournal()
        let log = try Self.run { PushFetchingDelegate(fetchSeconds: 2, journal: journal) }
        let delivered = log.filter { $0.kind == .pushDelivered }.count
        let inBackground = log.filter { $0 == .pushDelivered(inBackground: true) }.count
        #expect(inBackground >= 5 && delivered > inBackground)
        #expect(journal.lines.count == delivered && journal.lines.allSatisfy { $0.hasPrefix("push 1 ") }, "\(journal.lines)")
        #expect(journal.lines.filter { $0.hasSuffix("background") }.count == inBackground)
        // The system waits for the handler only in the background (the log records those calls).
        #expect(log.filter { $0.kind == .pushCompletionHandlerCalled }.count == inBackground)
        #expect(!log.contains { $0.kind == .kill })
    }

    @Test("a fetch of 40 s outlasts a background push's 30 s: the system kills the app (pushNotCompleted), even when an earlier push's fetch calls its own handler meanwhile")
    func slowFetchIsKilled() throws {
        let journal = SharedJournal()
        let log = try Self.run { PushFetchingDelegate(fetchSeconds: 40, journal: journal) }
        let background = log.filter { $0 == .pushDelivered(inBackground: true) }.count
        #expect(background >= 3, "\(journal.lines)")
        #expect(log.filter { $0 == .kill(.pushNotCompleted) }.count == background)
        #expect(!log.contains { $0.kind == .pushCompletionHandlerCalled })
    }

    @Test("a delegate that does not handle pushes reports no data at once")
    func unhandledPushCallsBack() throws {
        let log = try Self.run { RefreshAppDelegate { _ in } }
        let inBackground = log.filter { $0 == .pushDelivered(inBackground: true) }.count
        #expect(inBackground >= 5)
        #expect(log.filter { $0.kind == .pushCompletionHandlerCalled }.count == inBackground)
        #expect(!log.contains { $0.kind == .kill })
    }
}
