import BackgroundSimTesting
import CoverDropSending
import SimulatedBackgroundTasks
import Synchronization
import Testing

/// The user of the CoverDrop-shaped app: writes three messages at every return to the app
/// (their numbers kept in the app's defaults), then the app carries on as it ships.
private final class WritingUser: UIApplicationDelegate {
    let app: CoverDropAppDelegate
    let queue: SendingQueue

    init(onEvent: @escaping @Sendable (SendingQueue.Event) -> Void) {
        queue = SendingQueue(onEvent: onEvent)
        app = CoverDropAppDelegate(service: CoverDropService(sendingQueue: queue))
    }

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        _ = app.application(application, didFinishLaunchingWithOptions: launchOptions)
        if application.applicationState == .active { write() }
        return true
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        app.applicationWillEnterForeground(application)
        write()
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        app.applicationDidEnterBackground(application)
    }

    private func write() {
        let first = UserDefaults.standard.integer(forKey: "test.written") + 1
        UserDefaults.standard.set(first + 2, forKey: "test.written")
        let queue = self.queue
        Task { for number in first...(first + 2) { await queue.enqueue("message \(number)") } }
    }
}

@Test("jobs of the CoverDrop-shaped code that run at once (a cold task launch starts two) send a real message twice and drop one behind it unsent, as the code allows")
func launchAndTaskJobsDoubleSend() throws {
    let events = Mutex<[SendingQueue.Event]>([])
    // The test hears the queue's events through a closure it shares with the app's code: one
    // process (the code keeps nothing in statics; its presets run a process per launch).
    let policy = PolicyDefinition.appDelegate(name: "coverdrop-real-writing", summary: "The CoverDrop-shaped code with a user who writes.",
                                              taskIdentifiers: [BackgroundTaskService.serviceName], isolation: .sharedProcess) {
        WritingUser { event in events.withLock { $0.append(event) } }
    }
    let scenario = Presets.Preset.coverDropSending(policy: PolicyConfiguration(policy)).scenario
    _ = try SimulationRunner.run(scenario: scenario, seed: 1, days: 30)
    let log = events.withLock { $0 }
    var timesSent: [String: Int] = [:]
    var dequeued: [String] = []
    for event in log {
        switch event {
        case .sent(let message?): timesSent[message, default: 0] += 1
        case .dequeued(let message): dequeued.append(message)
        case .sent(nil): break
        }
    }
    let sentTwice = timesSent.filter { $0.value >= 2 }.keys.sorted()
    let droppedUnsent = dequeued.filter { timesSent[$0] == nil }
    #expect(timesSent.count > 10)
    #expect(!sentTwice.isEmpty, "no real message was sent twice")
    #expect(!droppedUnsent.isEmpty, "no real message was dropped unsent")
    // Every drop is the message behind one sent twice: the second job's dequeue.
    #expect(droppedUnsent.count <= sentTwice.count)
}
