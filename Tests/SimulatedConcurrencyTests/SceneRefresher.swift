// A SwiftUI app's refresh, written as such apps write it: the `App` attaches
// `.backgroundTask(.appRefresh(…)) { await refresher.refresh() }` to its scene, and the action
// asks for the next refresh, then fetches, watching for the system's cancellation with
// `withTaskCancellationHandler`. Only the imports differ from the app's file.
#if os(iOS)
import BackgroundTasks
import Foundation
#else
import SimulatedBackgroundTasks
#endif

final class SceneRefresher: Sendable {
    static let identifier = "com.example.scene-refresh"
    /// The seconds the refresh's network call takes.
    let fetchSeconds: Int
    /// What the refresher saw, for the test.
    let journal: @Sendable (String) -> Void

    init(fetchSeconds: Int, journal: @escaping @Sendable (String) -> Void) {
        self.fetchSeconds = fetchSeconds
        self.journal = journal
    }

    /// The scene action: asks for the next refresh, then fetches.
    func refresh() async {
        scheduleAppRefresh()
        do {
            try await withTaskCancellationHandler {
                try await Task.sleep(for: .seconds(fetchSeconds))
            } onCancel: {
                self.journal("low on runtime")
            }
            journal("fetched")
        } catch {
            journal("cancelled: \(error is CancellationError)")
        }
    }

    func scheduleAppRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: Self.identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 2 * 60 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            journal("submit failed: \(error)")
        }
    }
}
