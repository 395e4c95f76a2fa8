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

@Test("jobs of the CoverDrop-shaped code that run at once (a cold task launch starts two) send a real message twice and drop one unsent, three behind it: m1 twice, m2 and m3 once, m4 dequeued unsent")
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
    #expect(droppedUnsent.count <= sentTwice.count)
    // Both jobs peek m1 and send it; the first to finish dequeues m1 and peeks m2, the other
    // dequeues m2 and peeks m3; their second dequeues remove m3 and m4. So each message dropped
    // unsent, m4, comes three after one sent twice, m1, and the two between went once.
    func number(_ message: String) -> Int? { Int(message.split(separator: " ").last ?? "") }
    for dropped in droppedUnsent {
        guard let n = number(dropped) else { continue }
        #expect(timesSent["message \(n - 3)"] == 2, "\(dropped) was dropped, and message \(n - 3) not sent twice")
        #expect(timesSent["message \(n - 2)"] == 1 && timesSent["message \(n - 1)"] == 1,
                "\(dropped) was dropped, and the two before it not sent once each")
    }
}
