// The app's background sending, written the way the Guardian's CoverDrop writes its own
// (guardian/coverdrop, `ios/reference/CoverDropCore/Sources/CoverDropCore/Services/`): a request
// an exponential delay ahead (mean 10 min, clamped to 5–120 min, whole seconds), resubmitted
// first in the handler, the job run in a `Task`, and no expiration handler. Our own code, not
// the app's; nothing here knows about the simulator but its imports.
#if os(iOS)
import BackgroundTasks
import Foundation
#else
import SimulatedBackgroundTasks
#endif

public enum BackgroundTaskService {
    public static let serviceName = "com.theguardian.coverdrop.reference.refresh"
    static let expectedMeanDelaySeconds = 10 * 60
    static let minDelaySeconds = 5 * 60
    static let maxDelaySeconds = 120 * 60
    static let extraDelaySeconds = 10 * 60

    /// Asks for a run an exponential delay (plus `extraDelaySeconds`) from now; a new request
    /// replaces the pending one.
    static func scheduleBackgroundSendJob(extraDelaySeconds: Int = 0, scheduler: any TaskScheduler) {
        let request = BGAppRefreshTaskRequest(identifier: serviceName)
        let delay = (try? SecureRandom.exponentialDelaySeconds(
            mean: expectedMeanDelaySeconds, atLeast: minDelaySeconds, atMost: maxDelaySeconds)) ?? expectedMeanDelaySeconds
        request.earliestBeginDate = Date(timeIntervalSinceNow: TimeInterval(delay + extraDelaySeconds))
        try? scheduler.submit(request)
    }

    /// Registers the handler: resubmit first, then wait for the library and run the job in a
    /// `Task`, completing the task with its result.
    static func registerBackgroundSendJob(service: CoverDropService, scheduler: any TaskScheduler) {
        scheduler.register(forTaskWithIdentifier: serviceName, using: nil) { task in
            guard let task = task as? BGAppRefreshTask else { return }
            scheduleBackgroundSendJob(scheduler: scheduler)
            Task {
                guard let library = await service.library() else {
                    task.setTaskCompleted(success: false)
                    return
                }
                let result = await BackgroundMessageSendJob.run(library: library)
                task.setTaskCompleted(success: result)
            }
        }
    }
}
