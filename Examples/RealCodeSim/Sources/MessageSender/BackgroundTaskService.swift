// The app's background service, as it would ship: nothing in this file knows about the
// simulator but its imports.
#if os(iOS)
import BackgroundTasks
import Foundation
import UIKit
#else
import SimulatedBackgroundTasks
#endif

/// The seam between the service and `BGTaskScheduler`, so that unit tests can fake it.
protocol TaskScheduling {
    @discardableResult
    func register(forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
                  launchHandler: @escaping (BGTask) -> Void) -> Bool
    func submit(_ taskRequest: BGTaskRequest) throws
}

extension BGTaskScheduler: TaskScheduling {}

/// The wall clock, injectable.
struct DateFunction: Sendable {
    var currentTime: @Sendable () -> Date
    static let live = DateFunction { Date() }
}

/// Sends the messages the user wrote while the app was open, in background refresh tasks: the
/// next refresh is asked for 5 minutes after leaving the app, then backs off, doubling up to
/// 2 hours while messages wait; at most one send an hour.
final class BackgroundTaskService: @unchecked Sendable {
    static let identifier = "com.example.sender.refresh"
    static let lastSendKey = "sender.lastSend"
    static let backoffKey = "sender.backoffMinutes"

    let scheduler: any TaskScheduling
    let clock: DateFunction
    let outbox: Outbox

    init(scheduler: any TaskScheduling = BGTaskScheduler.shared, clock: DateFunction = .live, outbox: Outbox = Outbox()) {
        self.scheduler = scheduler
        self.clock = clock
        self.outbox = outbox
    }

    /// Registers the refresh handler and listens for the app's moves. Call at launch.
    func start() {
        scheduler.register(forTaskWithIdentifier: Self.identifier, using: nil) { task in
            guard let task = task as? BGAppRefreshTask else {
                task.setTaskCompleted(success: false)
                return
            }
            self.handle(task)
        }
        NotificationCenter.default.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main) { _ in
            UserDefaults.standard.set(5, forKey: Self.backoffKey)
            self.scheduleRefresh()
        }
    }

    /// The user wrote a message.
    func userWroteMessage() {
        Task { await outbox.add() }
    }

    func handle(_ task: BGAppRefreshTask) {
        // Ask for the next run first: if this one is cut short, the chain goes on.
        scheduleRefresh()
        let send = Task { await self.sendIfDue() }
        task.expirationHandler = { send.cancel() }
        Task {
            let sent = await send.value
            await StatusBadge.shared.show(sent ? "sent" : "waiting")
            task.setTaskCompleted(success: sent)
        }
    }

    func scheduleRefresh() {
        let minutes = Swift.max(5, UserDefaults.standard.integer(forKey: Self.backoffKey))
        let request = BGAppRefreshTaskRequest(identifier: Self.identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: Double(minutes) * 60)
        do {
            try scheduler.submit(request)
        } catch {
            NotificationCenter.default.post(name: .senderSubmitFailed, object: nil)
        }
    }

    /// Sends what waits, unless the last send was less than an hour ago; doubles the backoff
    /// while messages wait. Whether anything was sent.
    func sendIfDue() async -> Bool {
        let now = clock.currentTime()
        if let last = UserDefaults.standard.object(forKey: Self.lastSendKey) as? Date, now.timeIntervalSince(last) < 3_600 {
            backOff()
            return false
        }
        guard await outbox.count > 0 else { return false }
        do {
            try await outbox.sendAll()
        } catch {
            backOff()
            return false
        }
        UserDefaults.standard.set(clock.currentTime(), forKey: Self.lastSendKey)
        UserDefaults.standard.set(5, forKey: Self.backoffKey)
        return true
    }

    func backOff() {
        let minutes = Swift.max(5, UserDefaults.standard.integer(forKey: Self.backoffKey))
        UserDefaults.standard.set(Swift.min(120, minutes * 2), forKey: Self.backoffKey)
    }
}

extension Notification.Name {
    /// Posted when a refresh request is refused.
    static let senderSubmitFailed = Notification.Name("SenderSubmitFailed")
}
