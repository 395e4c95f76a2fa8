#if os(iOS)
import BackgroundTasks
import Foundation
import os
#else
import SimulatedBackgroundTasks
#endif

/// A feed app's background refresh, as an iOS team writes it: a `BGAppRefreshTask` that fetches
/// the feed with `URLSession` in a `Task`, stores the time of the last success in
/// `UserDefaults`, marks the content updated with a signpost, asks for the next refresh
/// `refreshInterval` ahead and cancels its fetch when the task expires. The interval comes from
/// the launch environment (`FEED_REFRESH_MINUTES`), as a team sets it from a UI test or a
/// build setting, so a scenario can try another without a rebuild.
final class FeedRefresher: @unchecked Sendable {
    static let shared = FeedRefresher()
    static let refreshIdentifier = "com.example.feed.refresh"
    static let feedURL = URL(string: "https://feed.example.com/latest")!
    static let feedBytes = 80_000

    private let signposter = OSSignposter(subsystem: "com.example.feed", category: "content")
    private var fetch: Task<Void, Never>?

    /// The time between refreshes: `FEED_REFRESH_MINUTES` from the environment, else an hour.
    var refreshInterval: TimeInterval {
        let minutes = ProcessInfo.processInfo.environment["FEED_REFRESH_MINUTES"].flatMap(Double.init) ?? 60
        return minutes * 60
    }

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refreshIdentifier, using: nil) { task in
            self.handleRefresh(task as! BGAppRefreshTask)
        }
    }

    /// Asks for the next refresh `refreshInterval` after the last success.
    func scheduleRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: Self.refreshIdentifier)
        let last = UserDefaults.standard.object(forKey: "feed.lastRefresh") as? Date ?? Date()
        request.earliestBeginDate = max(Date(), last.addingTimeInterval(refreshInterval))
        try? BGTaskScheduler.shared.submit(request)
    }

    /// Fetches the feed in the foreground when the app opens on content older than the interval.
    func refreshIfStale() {
        let last = UserDefaults.standard.object(forKey: "feed.lastRefresh") as? Date ?? .distantPast
        guard Date().timeIntervalSince(last) >= refreshInterval, fetch == nil else { return }
        fetch = Task { _ = await self.fetchFeed() }
    }

    private func handleRefresh(_ task: BGAppRefreshTask) {
        scheduleRefresh()
        let fetch = Task {
            let success = await self.fetchFeed()
            task.setTaskCompleted(success: success)
        }
        task.expirationHandler = { fetch.cancel() }
    }

    /// Downloads the feed; on success stores the time and marks the content updated.
    private func fetchFeed() async -> Bool {
        defer { fetch = nil }
        guard let (data, _) = try? await URLSession.shared.data(from: Self.feedURL), !data.isEmpty else { return false }
        UserDefaults.standard.set(Date(), forKey: "feed.lastRefresh")
        signposter.emitEvent("contentUpdated")
        return true
    }
}
