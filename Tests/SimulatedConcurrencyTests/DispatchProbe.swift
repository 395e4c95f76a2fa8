// App code that uses Dispatch, OperationQueue and Timer as apps do, printing what happens. Only
// the imports differ from an app's file.
#if os(iOS)
import BackgroundTasks
import Foundation
import UIKit
#else
import SimulatedBackgroundTasks
#endif

/// At its first launch (by the user), schedules work on queues, operations and timers, and
/// prints each piece as it runs.
final class DispatchProbeDelegate: UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        guard !UserDefaults.standard.bool(forKey: "probed") else { return true }
        UserDefaults.standard.set(true, forKey: "probed")
        let serial = DispatchQueue(label: "com.example.serial")
        serial.async { print("serial a") }
        serial.async { print("serial b") }
        DispatchQueue.main.async { print("main") }
        DispatchQueue.global(qos: .utility).async { print("global") }
        DispatchQueue.main.asyncAfter(deadline: .now() + 5) { print("after 5 s") }
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(1_500)) { print("after 1.5 s") }
        let group = DispatchGroup()
        for name in ["one", "two"] {
            group.enter()
            serial.asyncAfter(deadline: .now() + 2) {
                print("group \(name)")
                group.leave()
            }
        }
        group.notify(queue: .main) { print("group done") }
        let item = DispatchWorkItem { print("cancelled item ran") }
        DispatchQueue.main.async(execute: item)
        item.cancel()
        let operations = OperationQueue()
        operations.maxConcurrentOperationCount = 1
        let second = BlockOperation { print("operation second") }
        let first = BlockOperation { print("operation first") }
        second.addDependency(first)
        second.completionBlock = { print("operation second completed") }
        operations.addOperation(second)
        operations.addOperation(first)
        let doomed = OperationQueue()
        doomed.isSuspended = true
        doomed.addOperation { print("doomed ran") }
        doomed.cancelAllOperations()
        doomed.isSuspended = false
        let ticks = Ticks()
        Timer.scheduledTimer(withTimeInterval: 10, repeats: true) { timer in
            ticks.count += 1
            print("tick \(ticks.count)")
            if ticks.count == 3 { timer.invalidate() }
        }
        print("launched")
        return true
    }
}

/// A timer's count of its firings.
final class Ticks: @unchecked Sendable {
    var count = 0
}

/// A refresh whose fetch outlasts the task, and whose expiration handler completes the task
/// from the main queue, as apps often do.
final class MainQueueExpirationDelegate: UIApplicationDelegate {
    static let identifier = "com.example.dispatch.refresh"

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.identifier, using: nil) { task in
            Self.schedule()
            let fetch = Task { try? await Task.sleep(for: .seconds(120)) }
            task.expirationHandler = {
                fetch.cancel()
                DispatchQueue.main.async { task.setTaskCompleted(success: false) }
            }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        Self.schedule()
    }

    static func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        try? BGTaskScheduler.shared.submit(request)
    }
}

/// An app whose second launch waits on a semaphore nothing will signal while it waits.
final class SemaphoreWaitingDelegate: UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let launch = UserDefaults.standard.integer(forKey: "launches") + 1
        UserDefaults.standard.set(launch, forKey: "launches")
        guard launch == 2 else { return true }
        let done = DispatchSemaphore(value: 0)
        Task {
            try? await Task.sleep(for: .seconds(1))
            done.signal()
        }
        print("waiting at line \(#line + 1)")
        done.wait()
        print("never printed")
        return true
    }
}
