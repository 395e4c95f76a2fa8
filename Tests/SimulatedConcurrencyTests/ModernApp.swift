// App code in the shapes real apps use: an app delegate descending from UIResponder, a reducer
// whose actions hold the system's tasks, the lifecycle observed through a publisher, a logger,
// a path monitor that refuses cellular, and a URL session configured for mocking. Only the
// imports differ from an app's file.
#if os(iOS)
import BackgroundTasks
import Combine
import Network
import os
import UIKit
#else
import SimulatedBackgroundTasks
#endif

/// A reducer's actions, holding the system's tasks as values (they compare by identity).
enum SyncAction: Equatable {
    case refresh(BGAppRefreshTask)
    case scheduled(BGAppRefreshTaskRequest)
    case finished
}

final class AppDelegate: UIResponder, UIApplicationDelegate, @unchecked Sendable {
    static let identifier = "com.example.modern.refresh"
    var window: UIWindow?
    private let logger = Logger(subsystem: "com.example.modern", category: "sync")
    private var subscriptions = Set<AnyCancellable>()
    private var actions: [SyncAction] = []
    private let monitor = NWPathMonitor(prohibitedInterfaceTypes: [.cellular])

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let configuration = URLSessionConfiguration.default
        configuration.protocolClasses = []
        configuration.requiresDNSSECValidation = true
        let parameters = NWParameters.tcp
        parameters.prohibitExpensivePaths = true
        monitor.start(queue: DispatchQueue(label: "com.example.modern.path"))
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.identifier, using: nil) { [self] task in
            guard let task = task as? BGAppRefreshTask else { return }
            send(.refresh(task))
        }
        NotificationCenter.default.publisher(for: UIApplication.didEnterBackgroundNotification)
            .receive(on: DispatchQueue.main)
            .sink { [self] _ in
                logger.info("left; Wi-Fi only path \(monitor.currentPath.status == .satisfied ? "up" : "down", privacy: .public)")
                schedule()
            }
            .store(in: &subscriptions)
        return true
    }

    private func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: Self.identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 30 * 60)
        try? BGTaskScheduler.shared.submit(request)
        send(.scheduled(request))
    }

    private func send(_ action: SyncAction) {
        actions.append(action)
        switch action {
        case .refresh(let task):
            logger.notice("refresh; seen before: \(actions.dropLast().contains(.refresh(task)))")
            task.setTaskCompleted(success: true)
            send(.finished)
        case .scheduled(let request):
            logger.debug("scheduled \(request.identifier)")
        case .finished:
            break
        }
    }
}

/// A SwiftUI app's scene, copied from its `App`: it schedules its refresh when the scene goes to
/// the background, and logs each phase.
struct PhaseScene {
    @Environment(\.scenePhase) private var scenePhase
    let identifier = "com.example.phase.refresh"

    var body: BackgroundTaskScene {
        BackgroundTaskScene()
            .onChange(of: scenePhase) { phase in
                print("phase \(phase)")
                if phase == .background {
                    try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: identifier))
                }
            }
            .backgroundTask(.appRefresh(identifier)) {
                print("refreshing in phase \(scenePhase)")
            }
    }
}
