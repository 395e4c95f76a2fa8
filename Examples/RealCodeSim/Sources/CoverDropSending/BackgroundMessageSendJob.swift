#if os(iOS)
import Foundation
#else
import SimulatedBackgroundTasks
#endif

/// One background run: unless the last run was less than an hour ago, send exactly two
/// messages — the queue's head first, cover messages when it is empty — then record the run.
/// A send that fails leaves its message queued, and the run still succeeds.
enum BackgroundMessageSendJob {
    static let lastRunKey = "backgroundWorkLastSuccessfulRun"
    static let pendingKey = "backgroundWorkPending"
    static let minDurationBetweenBackgroundRunsInSecs: TimeInterval = 3_600
    static let numMessagesPerBackgroundRun = 2

    static func run(library: Library) async -> Bool {
        let began = library.clock.currentTime()
        if let last = UserDefaults.standard.object(forKey: lastRunKey) as? Date,
           last <= began, began.timeIntervalSince(last) < minDurationBetweenBackgroundRunsInSecs {
            return false
        }
        for _ in 0..<numMessagesPerBackgroundRun {
            await library.sendingQueue.trySendHeadAndDequeue(using: library.api)
        }
        UserDefaults.standard.set(began, forKey: lastRunKey)
        UserDefaults.standard.set(false, forKey: pendingKey)
        return true
    }
}
