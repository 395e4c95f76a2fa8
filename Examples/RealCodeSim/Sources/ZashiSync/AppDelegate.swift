// The wallet's background sync, written the way Zashi's iOS code writes its own
// (Electric-Coin-Company/zashi-ios at `2488b26`, `secant/AppDelegate.swift`): a Wi-Fi
// `NWPathMonitor`, two processing requests for the next local day (the sync at 03:00, a
// "scheduler" at 14:00, each plus `Int.random(in: 0...60)` minutes), a sync handler that
// resubmits both, gives up off Wi-Fi or without keys, and stops the sync when the task expires.
// Our own code, not the app's; nothing here knows about the simulator but its imports.
#if os(iOS)
import BackgroundTasks
import Foundation
import Network
import UIKit
#else
import SimulatedBackgroundTasks
#endif

public final class ZashiAppDelegate: UIApplicationDelegate, @unchecked Sendable {
    public static let syncTaskId = "co.electriccoin.power_wifi_sync"
    public static let schedulerTaskId = "co.electriccoin.scheduler"

    private var monitor: NWPathMonitor?
    private var isConnectedToWifi = false
    let synchronizer: Synchronizer
    /// The running sync task, if any.
    private var syncTask: BGProcessingTask?

    public init(synchronizer: Synchronizer = Synchronizer()) {
        self.synchronizer = synchronizer
    }

    public func application(_ application: UIApplication,
                            didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        handleBackgroundTask()
        // The wallet's keys are in the keychain: a launch in the background while the phone is
        // locked cannot read them, and the synchronizer cannot start in this process.
        synchronizer.prepare()
        if application.applicationState == .active { synchronizer.start() }
        return true
    }

    public func applicationWillEnterForeground(_ application: UIApplication) {
        synchronizer.prepare()      // unlocked now: the keys can be read
        synchronizer.start()
    }

    public func applicationDidEnterBackground(_ application: UIApplication) {
        synchronizer.stop()
        completeSyncTask(success: false)
        scheduleBackgroundTask()
        scheduleSchedulerBackgroundTask()
    }

    // MARK: Background tasks

    private func handleBackgroundTask() {
        monitor = NWPathMonitor(requiredInterfaceType: .wifi)
        monitor?.pathUpdateHandler = { [weak self] path in
            self?.isConnectedToWifi = path.status == .satisfied
        }
        monitor?.start(queue: DispatchQueue(label: "Monitor"))
        registerTasks()
    }

    private func registerTasks() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.syncTaskId, using: DispatchQueue.main) { [self] task in
            guard let task = task as? BGProcessingTask else { return }
            startBackgroundTask(task)
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.schedulerTaskId, using: DispatchQueue.main) { [self] task in
            guard let task = task as? BGProcessingTask else { return }
            scheduleSchedulerBackgroundTask()
            scheduleBackgroundTask()
            task.setTaskCompleted(success: true)
        }
    }

    private func startBackgroundTask(_ task: BGProcessingTask) {
        scheduleBackgroundTask()
        scheduleSchedulerBackgroundTask()
        guard isConnectedToWifi, synchronizer.isPrepared else {
            task.setTaskCompleted(success: false)
            return
        }
        syncTask = task
        task.expirationHandler = { [self] in
            synchronizer.stop()
            completeSyncTask(success: false)
        }
        synchronizer.syncOnce { [self] in completeSyncTask(success: true) }
    }

    private func completeSyncTask(success: Bool) {
        guard let task = syncTask else { return }
        syncTask = nil
        task.setTaskCompleted(success: success)
    }

    func scheduleBackgroundTask() {
        let request = BGProcessingTaskRequest(identifier: Self.syncTaskId)
        let today = Calendar.current.startOfDay(for: .now)
        guard let tomorrow = Calendar.current.date(byAdding: .day, value: 1, to: today) else { return }
        let earlyMorning = DateComponents(hour: 3, minute: Int.random(in: 0...60))
        request.earliestBeginDate = Calendar.current.date(byAdding: earlyMorning, to: tomorrow)
        request.requiresExternalPower = true
        request.requiresNetworkConnectivity = true
        try? BGTaskScheduler.shared.submit(request)
    }

    func scheduleSchedulerBackgroundTask() {
        let request = BGProcessingTaskRequest(identifier: Self.schedulerTaskId)
        let today = Calendar.current.startOfDay(for: .now)
        guard let tomorrow = Calendar.current.date(byAdding: .day, value: 1, to: today) else { return }
        let afternoon = DateComponents(hour: 14, minute: Int.random(in: 0...60))
        request.earliestBeginDate = Calendar.current.date(byAdding: afternoon, to: tomorrow)
        request.requiresExternalPower = false
        request.requiresNetworkConnectivity = false
        try? BGTaskScheduler.shared.submit(request)
    }
}
